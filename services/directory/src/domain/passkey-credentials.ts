import { randomUUID } from "node:crypto";
import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from "@simplewebauthn/server";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { Outbox, OutboxKind } from "../../../kit/src/bus/outbox.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { RealmRecord } from "./realm.js";
import type { UserRecord } from "./user.js";
import type { BruteForce } from "./brute-force.js";
import { EVENT_ERRORS, type AuthOutcomeName } from "./password-authenticator.js";
import type { UserRepository } from "../store/user-repository.js";
import { MAX_PASSKEYS_PER_USER, type PasskeyRecord, type PasskeyRepository } from "../store/passkey-repository.js";
import { auditedWrite } from "./audited-write.js";
import { lazyImport } from "../../../kit/src/runtime/lazy-import.js";
import { webAuthnPolicyOf } from "./webauthn-policy.js";
import {
  applyAuthenticationPolicy, applyRegistrationPolicy, ceremonySite, coseAlgorithms, excludedCredentials, policyRefusal,
  requiresUserVerification, timeoutMs, type RelyingParty,
} from "./passkey-ceremony-policy.js";

// Some 290 modules (with @peculiar/x509 and the ASN.1 schemas), a third of a cold start's module
// loading, for the few requests that run a ceremony: imported on first use.
const webauthn = lazyImport(() => import("@simplewebauthn/server"));
const webauthnHelpers = lazyImport(() => import("@simplewebauthn/server/helpers"));

export type { RelyingParty };

export interface PasskeyAuthResult {
  outcome: AuthOutcomeName;
  userId: string;
  username: string;
  eventError: string;
  userVerified: boolean;
}

/** A cloned authenticator, or a replayed assertion: the counter did not move forward (section 6.1.1). */
export const COUNTER_ERROR = "invalid_authenticator_counter";
const CHALLENGE = /^[A-Za-z0-9_-]{22,128}$/;
const MAX_RESPONSE_CHARS = 64 * 1024;
const TRANSPORTS = new Set(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]);

/**
 * Passkeys (WebAuthn Level 2), each ceremony shaped and checked by the realm's WebAuthn
 * Passwordless Policy (webauthn-policy.ts; by default a discoverable credential, user
 * verification preferred, attestation "none"); assertions checked against the stored public key
 * with the signature counter enforced by the store (PasskeyRepository.recordUse). The caller
 * passes the public URL's host and origin; the policy's rpId and extra origins stand in for or
 * join them. Failures count for brute-force protection as a wrong password does.
 */
export class PasskeyCredentials {
  /** A passkey removed by an admin, as the relay finds it: the record gone. */
  private readonly removedKind: OutboxKind<{ realmId: string; userId: string; id: string }> = {
    name: "directory.passkey-removed",
    applied: async (s) => (await this.repo.find(s.realmId, s.userId, s.id)) === null,
  };

  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserRepository,
    private readonly repo: PasskeyRepository,
    private readonly bruteForce: BruteForce,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.removedKind);
  }

  async registrationOptions(realmName: string, userId: string, rp: RelyingParty, challenge: string): Promise<string> {
    const { realm, user } = await this.lookup(realmName, userId);
    const existing = await this.repo.listByUser(realm._id, user._id);
    const policy = webAuthnPolicyOf(realm);
    const site = ceremonySite(policy, checkRp(rp), realm.name);
    const { generateRegistrationOptions } = await webauthn();
    const options = await generateRegistrationOptions({
      rpName: site.rpName, rpID: site.rpId,
      userName: user.username, userDisplayName: [user.firstName, user.lastName].filter(Boolean).join(" ") || user.username,
      // The user handle (section 5.4.3) is the user's id: an assertion's userHandle names its user.
      userID: new TextEncoder().encode(user._id), challenge: challengeBytes(challenge), timeout: timeoutMs(policy),
      supportedAlgorithmIDs: coseAlgorithms(policy), excludeCredentials: excludedCredentials(policy, existing, transportsOf),
    });
    return JSON.stringify(applyRegistrationPolicy(options, policy));
  }

  async verifyRegistration(
    realmName: string, userId: string, rp: RelyingParty, expectedChallenge: string, responseJson: string, label: string,
  ): Promise<{ verified: boolean; passkeyId: string; error: string }> {
    const { realm, user } = await this.lookup(realmName, userId);
    const response = parse<RegistrationResponseJSON>(responseJson);
    if (!response) return { verified: false, passkeyId: "", error: "invalid_registration" };
    if ((await this.repo.countByUser(realm._id, user._id)) >= MAX_PASSKEYS_PER_USER) {
      throw new IamError({ code: "failedPrecondition", reason: "too_many_passkeys", message: `a user has at most ${MAX_PASSKEYS_PER_USER} passkeys` });
    }
    const policy = webAuthnPolicyOf(realm);
    const site = ceremonySite(policy, checkRp(rp), realm.name);
    const { verifyRegistrationResponse } = await webauthn();
    let info;
    try {
      // The library checks the origin (section 7.1 step 9), the rpIdHash (step 13), the UV flag
      // when the policy requires it (step 15) and the key's algorithm (step 16).
      const res = await verifyRegistrationResponse({
        response, expectedChallenge, expectedOrigin: site.origins, expectedRPID: site.rpId,
        requireUserVerification: requiresUserVerification(policy), supportedAlgorithmIDs: coseAlgorithms(policy),
      });
      info = res.verified ? res.registrationInfo : undefined;
    } catch {
      info = undefined;
    }
    if (!info) return { verified: false, passkeyId: "", error: "invalid_registration" };
    const { decodeAttestationObject } = await webauthnHelpers();
    const refused = policyRefusal(policy, {
      fmt: info.fmt, aaguid: info.aaguid, attachment: response.authenticatorAttachment,
      hasCertificate: (decodeAttestationObject(info.attestationObject).get("attStmt").get("x5c")?.length ?? 0) > 0,
    });
    if (refused) return { verified: false, passkeyId: "", error: "invalid_registration" };
    const now = this.clock.now();
    const record: PasskeyRecord = {
      _id: randomUUID(), realmId: realm._id, userId: user._id, credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString("base64url"), signCount: info.credential.counter,
      transports: (response.response.transports ?? []).filter((t) => TRANSPORTS.has(t)), label: cleanLabel(label),
      backedUp: info.credentialBackedUp, createdAt: now, lastUsedAt: 0,
    };
    try {
      await this.repo.insert(record);
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") return { verified: false, passkeyId: "", error: "credential_exists" };
      throw e;
    }
    return { verified: true, passkeyId: record._id, error: "" };
  }

  async authenticationOptions(realmName: string, userId: string, rp: RelyingParty, challenge: string): Promise<string> {
    let allow: PasskeyRecord[] = [];
    let realm: RealmRecord;
    if (userId) {
      const found = await this.lookup(realmName, userId);
      realm = found.realm;
      allow = await this.repo.listByUser(realm._id, found.user._id);
    } else {
      realm = await this.realms.byName(required(realmName));
    }
    const policy = webAuthnPolicyOf(realm);
    const { generateAuthenticationOptions } = await webauthn();
    const options = await generateAuthenticationOptions({
      rpID: ceremonySite(policy, checkRp(rp), realm.name).rpId, challenge: challengeBytes(challenge),
      allowCredentials: allow.map((k) => ({ id: k.credentialId, transports: transportsOf(k.transports) })),
    });
    return JSON.stringify(applyAuthenticationPolicy(options, policy));
  }

  /**
   * An assertion (section 7.2). With `userId` (a second factor) the credential must be that
   * user's; without, the credential names its user and its userHandle must agree.
   */
  async verifyAuthentication(realmName: string, userId: string, rp: RelyingParty, expectedChallenge: string, responseJson: string): Promise<PasskeyAuthResult> {
    const realm = await this.realms.byName(required(realmName));
    const response = parse<AuthenticationResponseJSON>(responseJson);
    const fail = (eventError: string, user?: UserRecord): PasskeyAuthResult => ({
      outcome: "INVALID_CREDENTIALS", userId: user?._id ?? userId, username: user?.username ?? "", eventError, userVerified: false,
    });
    if (!response || typeof response.id !== "string") return fail(EVENT_ERRORS.invalid);
    const key = await this.repo.findByCredentialId(realm._id, response.id);
    if (!key || (userId && key.userId !== userId)) return fail(EVENT_ERRORS.invalid);
    const handle = response.response?.userHandle;
    if (handle && handle !== Buffer.from(key.userId, "utf8").toString("base64url")) return fail(EVENT_ERRORS.invalid);
    const user = await this.users.findById(realm._id, key.userId);
    if (!user) return fail(EVENT_ERRORS.notFound);
    const lock = await this.bruteForce.state(realm, user._id);
    if (lock !== "none") {
      return { ...fail(lock === "permanent" ? EVENT_ERRORS.disabled : EVENT_ERRORS.locked, user), outcome: "LOCKED" };
    }
    if (!user.enabled) return { ...fail(EVENT_ERRORS.disabled, user), outcome: "DISABLED" };
    const policy = webAuthnPolicyOf(realm);
    const site = ceremonySite(policy, checkRp(rp), realm.name);
    const { verifyAuthenticationResponse } = await webauthn();
    let verified: { newCounter: number; userVerified: boolean } | undefined;
    try {
      // The counter is checked by the store's conditional update (recordUse), not here: the
      // library's check reads a value another assertion may be moving at the same time.
      const res = await verifyAuthenticationResponse({
        response, expectedChallenge, expectedOrigin: site.origins, expectedRPID: site.rpId,
        // Keycloak's WebAuthnAuthenticator checks the UV flag only when the policy requires it.
        requireUserVerification: requiresUserVerification(policy),
        credential: { id: key.credentialId, publicKey: Buffer.from(key.publicKey, "base64url"), counter: 0, transports: transportsOf(key.transports) },
      });
      verified = res.verified ? res.authenticationInfo : undefined;
    } catch {
      verified = undefined;
    }
    if (!verified) {
      await this.bruteForce.failure(realm, user._id);
      return fail(EVENT_ERRORS.invalid, user);
    }
    if (!(await this.repo.recordUse(key, verified.newCounter, this.clock.now()))) {
      await this.bruteForce.failure(realm, user._id);
      return fail(COUNTER_ERROR, user);
    }
    await this.bruteForce.success(realm, user._id);
    return { outcome: "OK", userId: user._id, username: user.username, eventError: "", userVerified: verified.userVerified };
  }

  async list(realmName: string, userId: string): Promise<PasskeyRecord[]> {
    const { realm, user } = await this.lookup(realmName, userId);
    return this.repo.listByUser(realm._id, user._id);
  }

  async configured(realm: RealmRecord, userId: string): Promise<boolean> {
    return (await this.repo.countByUser(realm._id, userId)) > 0;
  }

  /** Admin API removal: a DELETE admin event on `users/<id>/passkeys/<passkeyId>`, staged with the delete. */
  async remove(realmName: string, userId: string, id: string): Promise<void> {
    const { realm, user } = await this.lookup(realmName, userId);
    if (!(await this.repo.find(realm._id, user._id, id))) throw IamError.notFound(`passkey "${id}"`, "passkey_not_found");
    await auditedWrite(this.outbox, this.removedKind, realm, { realmId: realm._id, userId: user._id, id },
      { operationType: "DELETE", resourceType: "USER", path: `users/${user._id}/passkeys/${id}` },
      () => this.repo.delete(realm._id, user._id, id));
  }

  forget(realmId: string, userId: string): Promise<boolean> {
    return this.repo.deleteUser(realmId, userId);
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.repo.deleteRealm(realmId);
  }

  private async lookup(realmName: string, userId: string): Promise<{ realm: RealmRecord; user: UserRecord }> {
    const realm = await this.realms.byName(required(realmName));
    const user = userId ? await this.users.findById(realm._id, userId) : null;
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    return { realm, user };
  }
}

function required(realm: string): string {
  if (!realm) throw IamError.invalid("realm", "realm is required");
  return realm;
}

function checkRp(rp: RelyingParty): RelyingParty {
  if (!rp.rpId || !/^https?:\/\/[^/]+$/.test(rp.origin)) throw IamError.invalid("rp", "rp_id and origin are required");
  return rp;
}

function challengeBytes(challenge: string): Uint8Array<ArrayBuffer> {
  if (!CHALLENGE.test(challenge)) throw IamError.invalid("challenge", "challenge must be base64url of 16 to 96 bytes");
  return new Uint8Array(Buffer.from(challenge, "base64url"));
}

function transportsOf(list: string[]): AuthenticatorTransport[] {
  return list.filter((t) => TRANSPORTS.has(t)) as AuthenticatorTransport[];
}

function cleanLabel(label: string): string {
  const l = label.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 64);
  return l || "Passkey";
}

function parse<T>(json: string): T | null {
  if (!json || json.length > MAX_RESPONSE_CHARS) return null;
  try {
    const v = JSON.parse(json) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? v as T : null;
  } catch {
    return null;
  }
}
