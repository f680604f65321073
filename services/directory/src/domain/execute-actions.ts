import { IamError } from "../../../kit/src/errors.js";
import { sha256Hex } from "../../../kit/src/crypto/random.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { checkInt } from "../../../kit/src/validation/checks.js";
import type { ClientRepository } from "../store/client-repository.js";
import type { UsedVerifyKeyRepository } from "../store/used-verify-key-repository.js";
import type { UserRepository } from "../store/user-repository.js";
import type { UserEvents } from "../events/user-events.js";
import { actionsLink, LINK_ACTIONS, openActionsKey, type LinkAction } from "./actions-link.js";
import { lifespanText } from "./lifespan-text.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { RealmMailer } from "./realm-mailer.js";
import { REALM_DEFAULTS } from "./realm.js";
import { actionDone } from "./required-actions.js";

const TEN_YEARS = 315_360_000;

/** How the required actions read in the mail (Keycloak's requiredAction.* message texts). */
const ACTION_TEXT: Record<LinkAction, string> = {
  UPDATE_PASSWORD: "Update Password",
  VERIFY_EMAIL: "Verify Email",
  CONFIGURE_TOTP: "Configure OTP",
  UPDATE_PROFILE: "Update Profile",
  TERMS_AND_CONDITIONS: "Terms and Conditions",
};

export interface ActionsEmailOptions {
  actions: string[];
  /** Seconds; absent: the realm's actionTokenGeneratedByAdminLifespan. */
  lifespan?: number;
  clientId: string;
  redirectUri: string;
}

export interface ConsumedActions {
  outcome: "VALID" | "INVALID" | "ALREADY_USED";
  userId: string;
  username: string;
  email: string;
  actions: LinkAction[];
  clientId: string;
  redirectUri: string;
}

const INVALID: ConsumedActions = { outcome: "INVALID", userId: "", username: "", email: "", actions: [], clientId: "", redirectUri: "" };

/**
 * Keycloak's execute-actions-email (UserResource.executeActionsEmail): an administrator mails a
 * user a link to run required actions. The checks, their order and their messages are
 * Keycloak's (verifySendEmailParams, then RequiredActionsValidator). Holding the link is the whole
 * proof, as with Keycloak's action token; it works once (the used-keys store) and expires.
 */
export class ExecuteActions {
  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserRepository,
    private readonly clients: ClientRepository,
    private readonly mailer: RealmMailer,
    private readonly events: UserEvents,
    private readonly usedKeys: UsedVerifyKeyRepository,
    private readonly secrets: SecretBox,
    private readonly publicUrl: string,
    private readonly clock: Clock,
  ) {}

  /** Checks, mails the link and records the admin event; returns the address. */
  async send(realmName: string, userId: string, o: ActionsEmailOptions): Promise<string> {
    const realm = await this.realms.byName(realmName);
    const user = await this.users.findById(realm._id, userId);
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    if (!user.email) throw IamError.invalid("email", "User email missing", "user_email_missing");
    if (!user.enabled) throw IamError.invalid("enabled", "User is disabled", "user_disabled");
    if (o.redirectUri && !o.clientId) throw IamError.invalid("client_id", "Client id missing", "client_id_missing");
    if (o.clientId) {
      const client = await this.clients.findByClientId(realm._id, o.clientId);
      if (!client) throw IamError.invalid("client_id", "Client doesn't exist", "client_not_found");
      if (!client.enabled) throw IamError.invalid("client_id", "Client is not enabled", "client_disabled");
      // Redirect URIs match exactly (DESIGN 5), where Keycloak would also take a registered wildcard.
      if (o.redirectUri && !client.redirectUris.includes(o.redirectUri)) throw IamError.invalid("redirect_uri", "Invalid redirect uri.", "invalid_redirect_uri");
    }
    const lifespan = o.lifespan ?? realm.actionTokenGeneratedByAdminLifespan ?? REALM_DEFAULTS.actionTokenGeneratedByAdminLifespan;
    checkInt("lifespan", lifespan, 1, TEN_YEARS);
    const actions = checkActions(o.actions);
    const link = actionsLink(this.secrets, this.publicUrl, realm, {
      userId: user._id, email: user.email, actions, expiresAt: this.clock.now() + lifespan * 1000,
      ...(o.clientId ? { clientId: o.clientId } : {}), ...(o.redirectUri ? { redirectUri: o.redirectUri } : {}),
    });
    const name = realm.displayName || realm.name;
    const expiry = lifespanText(lifespan);
    const listed = actions.map((a) => ACTION_TEXT[a]);
    await this.mailer.send(realm, {
      to: user.email,
      subject: `Update Your Account for ${name}`,
      text: `Hello ${user.username},\n\nyour administrator has just requested that you update your ${name} account by performing the following action(s): `
        + `${listed.join(", ")}. Open this link to start:\n\n${link}\n\nThis link will expire within ${expiry}. It works once.\n\n`
        + "If you are unaware that your administrator has requested this, just ignore this message and nothing will be changed.\n",
      html: `<p>Hello ${escapeHtml(user.username)},</p><p>your administrator has just requested that you update your ${escapeHtml(name)} account by performing the following action(s):</p>`
        + `<ul>${listed.map((l) => `<li>${l}</li>`).join("")}</ul><p><a href="${escapeHtml(link)}">Link to account update</a></p>`
        + `<p>This link will expire within ${expiry}. It works once.</p><p>If you are unaware that your administrator has requested this, just ignore this message and nothing will be changed.</p>`,
    });
    await this.events.admin(realm, "ACTION", "USER", `users/${user._id}/execute-actions-email`, { actions, lifespan });
    return user.email;
  }

  /**
   * Consumes a link's key once (a conditional insert: two clicks at once succeed once). Keycloak's
   * handler marks the email verified as soon as the token is used (the mail reached the address);
   * here that is done when the link lists VERIFY_EMAIL and the address is still the one mailed.
   */
  async consume(realmName: string, key: string): Promise<ConsumedActions> {
    const realm = await this.realms.byName(realmName);
    const now = this.clock.now();
    const grant = key ? openActionsKey(this.secrets, key, now) : null;
    if (!grant || grant.realmId !== realm._id) return INVALID;
    const user = await this.users.findById(realm._id, grant.userId);
    if (!user || !user.enabled) return INVALID;
    const found = { userId: user._id, username: user.username, email: grant.email, actions: grant.actions, clientId: grant.clientId ?? "", redirectUri: grant.redirectUri ?? "" };
    if (!(await this.usedKeys.markUsed(sha256Hex(key), realm._id, user._id, now, grant.expiresAt))) return { outcome: "ALREADY_USED", ...found };
    if (grant.actions.includes("VERIFY_EMAIL") && user.email.toLowerCase() === grant.email.toLowerCase() && !user.emailVerified) {
      await this.users.update(realm._id, user._id, { emailVerified: true, updatedAt: now, ...actionDone(user, "VERIFY_EMAIL") });
    }
    return { outcome: "VALID", ...found };
  }
}

/**
 * Keycloak's RequiredActionsValidator: every name must be a known required action (here the ones
 * the login pages run: kit/validation/required-actions.ts), each once.
 */
export function checkActions(actions: string[]): LinkAction[] {
  if (actions.length > 20 || !actions.every((a) => (LINK_ACTIONS as readonly string[]).includes(a))) {
    throw IamError.invalid("actions", "Provided invalid required actions", "invalid_required_actions");
  }
  return [...new Set(actions as LinkAction[])];
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
