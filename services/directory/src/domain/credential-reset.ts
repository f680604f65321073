import { IamError } from "../../../kit/src/errors.js";
import { sha256Hex } from "../../../kit/src/crypto/random.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { CredentialRepository } from "../store/credential-repository.js";
import type { UsedVerifyKeyRepository } from "../store/used-verify-key-repository.js";
import type { UserRepository } from "../store/user-repository.js";
import type { PasswordChange } from "./password-change.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { RealmMailer } from "./realm-mailer.js";
import type { RealmRecord } from "./realm.js";
import type { UserCredentials } from "./user-credentials.js";
import type { UserRecord } from "./user.js";
import { openResetKey, resetLink, RESET_LINK_TTL_MS } from "./reset-link.js";
import { mailTranslator } from "./mail-locale.js";

export type ResetAccountOutcomeName = "FOUND" | "NOT_FOUND" | "DISABLED" | "NO_EMAIL";
export type ResetKeyOutcomeName = "VALID" | "INVALID" | "ALREADY_USED";

export interface ResetKeyResult {
  outcome: ResetKeyOutcomeName;
  userId: string;
  username: string;
}

const INVALID: ResetKeyResult = { outcome: "INVALID", userId: "", username: "" };

/**
 * Keycloak's "reset credentials" (forgot password), the directory's half: who a form names, the
 * mailed link (reset-link.ts: sealed, expiring, bound to the password it replaces), and the new
 * password under the realm's policy and history. What the pages may say about an account is the
 * token service's flow's business; this answers it truthfully.
 */
export class CredentialReset {
  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserRepository,
    private readonly credentialRepo: CredentialRepository,
    private readonly credentials: UserCredentials,
    private readonly change: PasswordChange,
    private readonly mailer: RealmMailer,
    private readonly usedKeys: UsedVerifyKeyRepository,
    private readonly secrets: SecretBox,
    private readonly publicUrl: string,
    private readonly clock: Clock,
  ) {}

  /** The account named by a username, or else by an email address (as the login form accepts either). */
  async findAccount(realmName: string, identifier: string): Promise<{ outcome: ResetAccountOutcomeName; userId: string; username: string }> {
    const realm = await this.allowedRealm(realmName);
    const typed = identifier.trim();
    const user = typed ? (await this.users.findByUsername(realm._id, typed)) ?? (typed.includes("@") ? await this.users.findByEmail(realm._id, typed) : null) : null;
    // A service account is a client's identity, not a person with a mailbox.
    if (!user || user.serviceAccountClientId) return { outcome: "NOT_FOUND", userId: "", username: "" };
    const outcome = !user.enabled ? "DISABLED" : !user.email ? "NO_EMAIL" : "FOUND";
    return { outcome, userId: user._id, username: user.username };
  }

  /** Mails the reset link to the account's address; returns the address. */
  async sendLink(realmName: string, userId: string): Promise<string> {
    const realm = await this.allowedRealm(realmName);
    const user = userId ? await this.users.findById(realm._id, userId) : null;
    if (!user || !user.enabled || user.serviceAccountClientId) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    if (!user.email) throw IamError.invalid("email", "user has no email address", "user_has_no_email");
    const current = await this.credentialRepo.findPassword(realm._id, user._id);
    // The realm's lifespan for links a user asks for (Keycloak's actionTokenGeneratedByUserLifespan).
    const seconds = realm.actionTokenGeneratedByUserLifespan ?? RESET_LINK_TTL_MS / 1000;
    const link = resetLink(this.secrets, this.publicUrl, realm, user._id, current?.createdAt ?? 0, this.clock.now(), seconds * 1000);
    const name = realm.displayName || realm.name;
    // The realm's lifespan for links a user asks for, in whole minutes (its bundles' wording).
    const minutes = Math.max(1, Math.round(seconds / 60));
    const t = mailTranslator(realm, user);
    const body = t("passwordResetBody", name);
    const closing = `${t("passwordResetExpiry", minutes)} ${t("passwordResetIgnore")}`;
    await this.mailer.send(realm, {
      to: user.email,
      subject: t("passwordResetSubject", name),
      text: `${t("emailGreeting", user.username)}\n\n${body}\n\n${link}\n\n${closing}\n`,
      html: `<p>${escapeHtml(t("emailGreeting", user.username))}</p><p>${escapeHtml(body)}</p>`
        + `<p><a href="${escapeHtml(link)}">${escapeHtml(t("passwordResetLinkText"))}</a></p><p>${escapeHtml(closing)}</p>`,
    });
    return user.email;
  }

  /** Whether the key can still be used: nothing is consumed (the page showing the form). */
  async check(realmName: string, key: string): Promise<ResetKeyResult> {
    const opened = await this.open(realmName, key);
    if ("outcome" in opened) return opened;
    const used = await this.usedKeys.isUsed(sha256Hex(key));
    return { outcome: used ? "ALREADY_USED" : "VALID", userId: opened.user._id, username: opened.user.username };
  }

  /**
   * Sets the new password: policy and history first (a refusal leaves the key usable, so the user
   * can try another), then the key is consumed with one conditional insert (two submissions at once
   * succeed once), then the password is stored and `password.changed` announced, on which the token
   * service ends the user's sessions, offline ones included (UserCredentials.replace).
   */
  async reset(realmName: string, key: string, password: string): Promise<ResetKeyResult> {
    const opened = await this.open(realmName, key);
    if ("outcome" in opened) return opened;
    const { realm, user, exp } = opened;
    const done = { userId: user._id, username: user.username };
    if (await this.usedKeys.isUsed(sha256Hex(key))) return { outcome: "ALREADY_USED", ...done };
    await this.change.checkNew(realm, user, password);
    const hash = await this.credentials.hash(password);
    if (!(await this.usedKeys.markUsed(sha256Hex(key), realm._id, user._id, this.clock.now(), exp))) return { outcome: "ALREADY_USED", ...done };
    await this.credentials.replace(realm, user, hash, false);
    return { outcome: "VALID", ...done };
  }

  /** The key's realm and user when it is genuine, unexpired, of this realm, and the user's password is still the one it replaces. */
  private async open(realmName: string, key: string): Promise<{ realm: RealmRecord; user: UserRecord; exp: number } | ResetKeyResult> {
    const realm = await this.allowedRealm(realmName);
    const claims = key ? openResetKey(this.secrets, key, this.clock.now()) : null;
    if (!claims || claims.r !== realm._id) return INVALID;
    const user = await this.users.findById(realm._id, claims.u);
    if (!user || !user.enabled) return INVALID;
    const current = await this.credentialRepo.findPassword(realm._id, user._id);
    if ((current?.createdAt ?? 0) !== claims.c) {
      // Changed since: by this very link when it was used (say so), or otherwise (an admin reset, another link).
      return (await this.usedKeys.isUsed(sha256Hex(key))) ? { outcome: "ALREADY_USED", userId: user._id, username: user.username } : INVALID;
    }
    return { realm, user, exp: claims.exp };
  }

  private async allowedRealm(realmName: string): Promise<RealmRecord> {
    const realm = await this.realms.byName(realmName);
    if (!realm.enabled || !realm.resetPasswordAllowed) {
      throw new IamError({ code: "failedPrecondition", reason: "reset_password_not_allowed", message: "password reset is not allowed in this realm" });
    }
    return realm;
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
