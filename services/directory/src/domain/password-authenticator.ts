import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { RealmRecord } from "./realm.js";
import type { UserRecord } from "./user.js";
import type { PasswordHasher } from "./password-hasher.js";
import { MAX_PASSWORD } from "./password-policy.js";
import type { BruteForce } from "./brute-force.js";
import { needsRehash } from "./stored-hash.js";
import { requiredActions, type RequiredActionName } from "./required-actions.js";
import type { UserRepository } from "../store/user-repository.js";
import type { CredentialRepository } from "../store/credential-repository.js";
import type { OtpRepository } from "../store/otp-repository.js";
import { NO_EMAIL_PREFIX } from "./user.js";
import type { FederationFallback } from "./federation-fallback.js";

export type AuthOutcomeName = "OK" | "INVALID_CREDENTIALS" | "LOCKED" | "DISABLED" | "UNAVAILABLE";

/** Login event error codes (Keycloak's names, spec 2.7). */
export const EVENT_ERRORS = {
  notFound: "user_not_found",
  invalid: "invalid_user_credentials",
  locked: "user_temporarily_disabled",
  disabled: "user_disabled",
} as const;

export interface PasswordAuthResult {
  outcome: AuthOutcomeName;
  userId: string;
  username: string;
  otpRequired: boolean;
  requiredActions: RequiredActionName[];
  eventError: string;
  /** The user's `locale` attribute (first value), "" when none: the pages' language after sign-in. */
  locale: string;
}

export interface PasswordAuthInput {
  realm: string;
  username: string;
  password: string;
}

/**
 * Password login (DESIGN 3 `AuthenticatePassword`), the one path every caller (login page, password
 * grant, device verification) goes through. Normal failures are outcomes, never errors, so the caller
 * records the exact event and shows one generic message (no account enumeration).
 */
export class PasswordAuthenticator {
  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserRepository,
    private readonly credentials: CredentialRepository,
    private readonly otp: OtpRepository,
    private readonly bruteForce: BruteForce,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly federation?: FederationFallback,
  ) {}

  async authenticate(input: PasswordAuthInput): Promise<PasswordAuthResult> {
    if (!input.realm) throw IamError.invalid("realm", "realm is required");
    const realm = await this.realms.byName(input.realm);
    const login = input.username.trim();
    let user = await this.findLoginUser(realm, login);
    if (!user && login && this.federation) {
      // Not a local user: the realm's LDAP providers, by priority (the federation fallback).
      const found = await this.federation.lookup(realm, login);
      if (found.user && !found.user.serviceAccountClientId) user = found.user;
      else if (!found.user && found.unavailable) {
        await this.hasher.burn(input.password.slice(0, MAX_PASSWORD));
        return result("UNAVAILABLE", null, found.unavailable);
      }
    }
    if (user?.federationProviderId && this.federation) return this.authenticateFederated(realm, user, input.password);
    if (!user) {
      // Same work as a real check, so timing does not reveal which usernames exist.
      await this.hasher.burn(input.password.slice(0, MAX_PASSWORD));
      return result("INVALID_CREDENTIALS", null, EVENT_ERRORS.notFound);
    }
    const credential = await this.credentials.findPassword(realm._id, user._id);
    // Every outcome costs exactly one password hash, locked and disabled users included: a reply
    // one argon2 hash faster would tell which usernames exist and are locked or disabled.
    const ok = await this.checkPassword(credential?.hash ?? null, input.password);
    // Read after the hash: a lock set meanwhile (a parallel failure) is seen.
    const lock = await this.bruteForce.state(realm, user._id);
    if (lock !== "none") return result("LOCKED", user, lock === "permanent" ? EVENT_ERRORS.disabled : EVENT_ERRORS.locked);
    // "Account is disabled" only for the right password: to a wrong one it would tell which accounts
    // exist and are disabled, so that answer is the generic one (the event still says user_disabled).
    if (!user.enabled) return result(ok ? "DISABLED" : "INVALID_CREDENTIALS", user, EVENT_ERRORS.disabled);
    if (!ok || !credential) {
      // Counted after the reply, as an unknown user has no counter to write (BruteForce explains).
      this.bruteForce.countFailureAfterReply(realm, user._id);
      return result("INVALID_CREDENTIALS", user, EVENT_ERRORS.invalid);
    }
    if (needsRehash(credential.hash)) {
      await this.credentials.replaceHash(realm._id, user._id, credential.hash, await this.hasher.hash(input.password));
    }
    const otpConfigured = (await this.otp.find(realm._id, user._id))?.confirmed ?? false;
    // With TOTP the login is not complete yet: the counter resets on the code (OtpCredentials.verify),
    // else a known password would reset it before every guessed code (spec 3: failures lead to lockout).
    if (!otpConfigured) await this.bruteForce.success(realm, user._id);
    return {
      ...result("OK", user, ""),
      otpRequired: otpConfigured,
      requiredActions: requiredActions(realm, user, credential, otpConfigured, this.clock.now()),
    };
  }

  /**
   * A linked LDAP user: the password is checked by a bind as its entry (federation-fallback.ts).
   * Lockout, disabled state, TOTP and required actions are the local user's rules. A locked user
   * is refused before the bind, so a locked account cannot be used to probe LDAP passwords. LDAP
   * unreachable fails closed with its own outcome and is not counted as a failure.
   */
  private async authenticateFederated(realm: RealmRecord, user: UserRecord, password: string): Promise<PasswordAuthResult> {
    const federation = this.federation as FederationFallback;
    const lock = await this.bruteForce.state(realm, user._id);
    if (lock !== "none") return result("LOCKED", user, lock === "permanent" ? EVENT_ERRORS.disabled : EVENT_ERRORS.locked);
    const checked = password.length <= MAX_PASSWORD ? await federation.verify(realm, user, password) : { check: "INVALID" as const, reason: "" };
    if (checked.check === "UNAVAILABLE") return result("UNAVAILABLE", user, checked.reason);
    const ok = checked.check === "OK";
    if (!user.enabled) return result(ok ? "DISABLED" : "INVALID_CREDENTIALS", user, EVENT_ERRORS.disabled);
    if (!ok) {
      this.bruteForce.countFailureAfterReply(realm, user._id);
      return result("INVALID_CREDENTIALS", user, EVENT_ERRORS.invalid);
    }
    const otpConfigured = (await this.otp.find(realm._id, user._id))?.confirmed ?? false;
    if (!otpConfigured) await this.bruteForce.success(realm, user._id);
    return {
      ...result("OK", user, ""),
      otpRequired: otpConfigured,
      requiredActions: requiredActions(realm, user, null, otpConfigured, this.clock.now()).filter((a) => a !== "UPDATE_PASSWORD"),
    };
  }

  /**
   * The password against the stored hash, or a dummy verification of the same cost when there is
   * no credential or the password is longer than any password can be (no hash of it can match).
   */
  private async checkPassword(hash: string | null, password: string): Promise<boolean> {
    if (hash !== null && password.length <= MAX_PASSWORD) return this.hasher.verifyStored(hash, password);
    await this.hasher.burn(password.slice(0, MAX_PASSWORD));
    return false;
  }

  /**
   * Username, or email (as Keycloak accepts either), case-insensitively. Service-account users
   * (spec 1.11) never log in with a password.
   */
  private async findLoginUser(realm: RealmRecord, login: string): Promise<UserRecord | null> {
    if (!login) return null;
    let user = await this.users.findByUsername(realm._id, login);
    if (!user && login.includes("@") && !login.toLowerCase().startsWith(NO_EMAIL_PREFIX)) {
      user = await this.users.findByEmail(realm._id, login);
    }
    return user && !user.serviceAccountClientId ? user : null;
  }
}

function result(outcome: AuthOutcomeName, user: UserRecord | null, eventError: string): PasswordAuthResult {
  return {
    outcome, userId: user?._id ?? "", username: user?.username ?? "", otpRequired: false, requiredActions: [], eventError,
    locale: outcome === "OK" ? user?.attributes?.locale?.[0] ?? "" : "",
  };
}
