import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { ConsentRecord, ConsentRepository } from "../flow/consent-repository.js";
import type { RefreshFamilyRepository } from "../store/refresh-family-repository.js";
import type { SsoSessionRepository } from "../store/sso-session-repository.js";
import type { AccessTokens } from "./access-tokens.js";
import type { IssuerBase } from "./issuer-base.js";
import type { OAuthRealm, RealmSettings } from "./realm-settings.js";
import { familyView, ssoView, type SessionView } from "./session-admin.js";
import type { SessionTerminator } from "./session-terminator.js";
import type { SsoSessions } from "./sso-sessions.js";
import type { OAuthEvents } from "./oauth-events.js";

/** The realm's public client of the account console (Keycloak's `account-console`). */
export const ACCOUNT_CONSOLE_CLIENT = "account-console";

/** Login events of account API changes made in other services (RecordAccountEvent), Keycloak's names. */
export const ACCOUNT_EVENT_TYPES: ReadonlySet<string> = new Set([
  "UPDATE_PROFILE", "UPDATE_EMAIL", "UPDATE_PASSWORD", "UPDATE_TOTP", "REMOVE_TOTP", "REMOVE_FEDERATED_IDENTITY",
  // Keycloak's event of a credential replaced, with details.credential_type (new recovery codes).
  "UPDATE_CREDENTIAL",
]);

/** A user keeps far fewer sessions than this; the listing is one read, not paged. */
const MAX_LISTED = 200;

/**
 * The signed-in user's own sessions and consents (Keycloak's account REST API). The caller is
 * the subject of an access token of the realm issued to `account-console` (RFC 6750): another
 * client's token, even the same user's, manages nothing here, as Keycloak asks for the
 * `manage-account` role that only its account clients carry by default.
 */
export class AccountSelf {
  constructor(
    private readonly realms: RealmSettings,
    private readonly issuers: IssuerBase,
    private readonly access: AccessTokens,
    private readonly ssoRepo: SsoSessionRepository,
    private readonly families: RefreshFamilyRepository,
    private readonly sso: SsoSessions,
    private readonly terminator: SessionTerminator,
    private readonly consents: ConsentRepository,
    private readonly events: OAuthEvents,
    private readonly clock: Clock,
  ) {}

  async authenticate(realmName: string, baseUrl: string, token: string): Promise<{ userId: string; sessionId: string }> {
    const realm = await this.realms.publicRealm(realmName);
    const p = token ? await this.access.active(realm, this.issuers.fromRequest(baseUrl, realm.name), token) : null;
    if (!p) throw IamError.oauth("invalid_token", "the access token is not active", "unauthenticated");
    if (p.azp !== ACCOUNT_CONSOLE_CLIENT) {
      throw IamError.oauth("insufficient_scope", `the account API takes tokens issued to ${ACCOUNT_CONSOLE_CLIENT}`, "permissionDenied");
    }
    return { userId: p.sub!, sessionId: typeof p.sid === "string" ? p.sid : "" };
  }

  /**
   * The user's SSO sessions (browser logins), then the refresh token families that belong to none
   * (a password or device grant): a family of an SSO session is listed as that session's client.
   */
  async sessions(realmName: string, userId: string): Promise<SessionView[]> {
    const realm = await this.realms.publicRealm(realmName);
    const byAge = { sort: [["createdAt", 1], ["_id", 1]] as [string, 1][], limit: MAX_LISTED };
    const sso = await this.ssoRepo.sessions.find({ realmId: realm.id, userId }, byAge);
    const own = await this.families.families.find({ realmId: realm.id, userId, offline: false }, byAge);
    return [...sso.map(ssoView), ...own.filter((f) => f.ssoSessionId === "").map(familyView)];
  }

  /**
   * One session of this user (404 for another's, as for none: the id tells nothing). Its LOGOUT
   * event is staged with its end in the outbox, as a logout's is (TokenOperations.logout).
   */
  async signOut(realmName: string, userId: string, sessionId: string, ipAddress: string): Promise<"sso" | "oauth"> {
    const realm = await this.realms.publicRealm(realmName);
    const logout = (stamp: Parameters<OAuthEvents["message"]>[2]) =>
      this.events.message(realm, { type: "LOGOUT", clientId: ACCOUNT_CONSOLE_CLIENT, userId, sessionId, ipAddress }, stamp);
    const session = await this.ssoRepo.findById(realm.id, sessionId);
    if (session && session.userId === userId) {
      // Its refresh families end with it (SessionTerminator.onSsoSessionEnded), back-channel logout included.
      if (await this.sso.end(realm.id, sessionId, "logout", { known: session, also: logout })) return "sso";
    }
    const family = session ? null : await this.families.get(realm.id, sessionId);
    if (family && family.userId === userId && !family.offline && await this.terminator.revokeFamily(realm, sessionId, true, logout)) return "oauth";
    throw IamError.notFound(`session "${sessionId}"`, "session_not_found");
  }

  /** Every active session of the user, this one too; offline sessions stay (as the Admin API's logout-all). */
  async signOutAll(realmName: string, userId: string, ipAddress: string): Promise<number> {
    const realm = await this.realms.publicRealm(realmName);
    return this.terminator.endAllOfUserStaged(realm, userId, "logout", this.clock.now(), { keepOffline: true }, (count, stamp) =>
      this.events.message(realm, { type: "LOGOUT", clientId: ACCOUNT_CONSOLE_CLIENT, userId, ipAddress, details: { sessions: String(count) } }, stamp));
  }

  /** A change the user made through the account API in another service, as its login event. */
  async record(realmName: string, userId: string, type: string, sessionId: string, ipAddress: string, details: Record<string, string>): Promise<void> {
    if (!ACCOUNT_EVENT_TYPES.has(type)) throw IamError.invalid("type", `type must be one of ${[...ACCOUNT_EVENT_TYPES].join(", ")}`);
    const realm = await this.realms.publicRealm(realmName);
    await this.events.record(realm, { type, clientId: ACCOUNT_CONSOLE_CLIENT, userId, sessionId, ipAddress, details });
  }

  async listConsents(realmName: string, userId: string): Promise<ConsentRecord[]> {
    const realm = await this.realms.publicRealm(realmName);
    return this.consents.listUser(realm.id, userId);
  }

  /**
   * Forgets the consent and revokes the client's tokens of this user, offline ones too (Keycloak's
   * revoke-consent: the grant the tokens rest on is gone). 404 when there is no consent.
   */
  async revokeConsent(realmName: string, userId: string, clientId: string, ipAddress: string): Promise<void> {
    const realm = await this.realms.publicRealm(realmName);
    if (!(await this.consents.revoke(realm.id, userId, clientId))) {
      throw IamError.notFound(`consent of client "${clientId}"`, "consent_not_found");
    }
    await this.revokeClientTokens(realm, userId, clientId);
    await this.events.record(realm, { type: "REVOKE_GRANT", clientId: ACCOUNT_CONSOLE_CLIENT, userId, ipAddress, details: { revoked_client: clientId } });
  }

  private async revokeClientTokens(realm: OAuthRealm, userId: string, clientId: string): Promise<void> {
    const held = await this.families.families.find({ realmId: realm.id, userId }, { sort: [["createdAt", 1]] });
    for (const f of held.filter((x) => x.clientId === clientId)) await this.terminator.revokeFamily(realm, f._id, true);
  }
}
