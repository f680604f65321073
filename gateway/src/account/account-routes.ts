import { Code, ConnectError } from "@connectrpc/connect";
import { otpauthQrCode } from "../pages/qr-code.js";
import { timestampDate, timestampMs } from "@bufbuild/protobuf/wkt";
import type { Request, Response } from "express";
import type { Session } from "../../../gen/iam/token/v1/sessions_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { requireObject } from "../http/json-input.js";
import { GatewayError } from "../http/rpc-errors.js";
import { organizationsOff } from "../http/organizations-off.js";
import type { RpcClients } from "../rpc-clients.js";
import { bearerChallenge } from "../oidc/oauth-errors.js";
import { userJson } from "../admin/user-routes.js";

const ACCOUNT = "/realms/:realmName/account";

/** Who is calling: the subject of an access token the token service accepted for the account API. */
interface AccountCaller {
  realm: string;
  userId: string;
  sessionId: string;
}

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * The account API (Keycloak's account REST API, docs/account-console.md): the signed-in user's
 * profile, password, credentials, sessions and consents. Each route is `bearer`: the access token
 * of the realm's `account-console` client (RFC 6750), its `sub` the only user it reaches. The
 * domain lives in the services; these handlers only pick the user and convert.
 */
export function addAccountRoutes(table: RouteTable, rpc: RpcClients, publicUrl: string): void {
  const caller = callerOf(rpc, publicUrl);
  // The login event of a change another service made (spec 6.1), recorded after it: the write is
  // the directory's or the broker's, the realm's login events the token service's.
  const recorded = (me: AccountCaller, req: Request, type: string, details: Record<string, string> = {}) =>
    rpc.account.recordAccountEvent({ realm: me.realm, userId: me.userId, type, sessionId: me.sessionId, ipAddress: req.ip ?? "", details });
  table
    .add("GET", `${ACCOUNT}/profile`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      const own = await rpc.users.getOwnProfile({ realm: me.realm, userId: me.userId });
      // As Keycloak's `GET /account?userProfileMetadata=true`: what the user may edit, on request.
      const metadata = req.query.userProfileMetadata === "true" ? { userProfileMetadata: profileMetadata(own.usernameEditable) } : {};
      return { status: 200, body: { ...profileJson(own.user), ...metadata }, headers: NO_STORE };
    })
    .add("POST", `${ACCOUNT}/profile`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      // The directory takes a new username only where the realm's editUsernameAllowed is set
      // (400 username_read_only elsewhere), and resets emailVerified when the email changes.
      const r = await rpc.users.updateOwnProfile({ realm: me.realm, userId: me.userId, ...profileUpdate(req.body) });
      const username = r.user?.username ?? r.previousUsername;
      // Keycloak's details of a changed attribute: previous_<name> and updated_<name>.
      const renamed: Record<string, string> = username !== r.previousUsername ? { previous_username: r.previousUsername, updated_username: username } : {};
      await recorded(me, req, "UPDATE_PROFILE", renamed);
      if (r.user && r.user.email !== r.previousEmail) await recorded(me, req, "UPDATE_EMAIL");
      return { status: 200, body: profileJson(r.user), headers: NO_STORE };
    })
    .add("GET", `${ACCOUNT}/credentials`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      const list = await rpc.userSecurity.listCredentials({ realm: me.realm, userId: me.userId });
      return {
        status: 200, headers: NO_STORE,
        body: list.credentials.map((c) => ({ id: c.id, type: c.type, userLabel: c.userLabel, createdDate: Number(c.createdDate) })),
      };
    })
    .add("POST", `${ACCOUNT}/password`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      const body = requireObject(req.body);
      const known = new Set(["currentPassword", "newPassword", "confirmation"]);
      for (const key of Object.keys(body)) if (!known.has(key)) throw new GatewayError(400, "unknown_field", `unknown field: ${key}`, key);
      const currentPassword = text(body, "currentPassword", true);
      const newPassword = text(body, "newPassword", true);
      const confirmation = text(body, "confirmation", false);
      if (confirmation !== undefined && confirmation !== newPassword) {
        throw new GatewayError(400, "password_mismatch", "confirmation does not match newPassword", "confirmation");
      }
      await rpc.userSecurity.changeOwnPassword({ realm: me.realm, userId: me.userId, currentPassword: currentPassword!, newPassword: newPassword!, ipAddress: req.ip ?? "" });
      await recorded(me, req, "UPDATE_PASSWORD");
      return { status: 204 };
    })
    .add("DELETE", `${ACCOUNT}/credentials/:credentialId`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      const id = String(req.params.credentialId);
      if (id === "password") throw new GatewayError(400, "password_required", "the password cannot be removed; change it instead", "credentialId");
      if (id === "otp") {
        const listed = await rpc.userSecurity.listCredentials({ realm: me.realm, userId: me.userId });
        if (!listed.credentials.some((c) => c.id === "otp")) throw new GatewayError(404, "credential_not_found", "credential \"otp\" not found");
        await rpc.userSecurity.resetMfa({ realm: me.realm, userId: me.userId });
        await recorded(me, req, "REMOVE_TOTP");
      } else {
        await rpc.passkeys.deletePasskey({ realm: me.realm, userId: me.userId, passkeyId: id });
      }
      return { status: 204 };
    })
    // TOTP enrolment (RFC 6238), as the login's CONFIGURE_TOTP step: a pending secret, then a first
    // code confirms it and answers the recovery codes, shown this once.
    .add("POST", `${ACCOUNT}/totp`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      const r = await rpc.authentication.beginOtpEnrollment({ realm: me.realm, userId: me.userId });
      const qrCode = await otpauthQrCode(r.otpauthUri);
      return { status: 200, body: { secret: r.secret, otpauthUri: r.otpauthUri, qrCode }, headers: NO_STORE };
    })
    .add("POST", `${ACCOUNT}/totp/confirm`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      const body = requireObject(req.body);
      for (const key of Object.keys(body)) if (key !== "code") throw new GatewayError(400, "unknown_field", `unknown field: ${key}`, key);
      const code = text(body, "code", true)!;
      const r = await rpc.authentication.confirmOtpEnrollment({ realm: me.realm, userId: me.userId, code });
      if (!r.confirmed) throw new GatewayError(400, "invalid_otp_code", "the code is not valid for this secret; check the device's clock", "code");
      await recorded(me, req, "UPDATE_TOTP");
      return { status: 200, body: { recoveryCodes: r.recoveryCodes }, headers: NO_STORE };
    })
    // New recovery codes without enrolling TOTP again; the current password proves it is the user.
    .add("POST", `${ACCOUNT}/totp/recovery-codes`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      const body = requireObject(req.body);
      for (const key of Object.keys(body)) if (key !== "currentPassword") throw new GatewayError(400, "unknown_field", `unknown field: ${key}`, key);
      const currentPassword = text(body, "currentPassword", true)!;
      const r = await rpc.userSecurity.regenerateRecoveryCodes({ realm: me.realm, userId: me.userId, currentPassword });
      await recorded(me, req, "UPDATE_CREDENTIAL", { credential_type: "recovery-authn-codes" });
      return { status: 200, body: { recoveryCodes: r.recoveryCodes }, headers: NO_STORE };
    })
    .add("GET", `${ACCOUNT}/sessions`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      const list = await rpc.account.listSessions({ realm: me.realm, userId: me.userId });
      return { status: 200, body: list.sessions.map((s) => sessionJson(s, me.sessionId)), headers: NO_STORE };
    })
    .add("DELETE", `${ACCOUNT}/sessions`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      await rpc.account.signOutAllSessions({ realm: me.realm, userId: me.userId, ipAddress: req.ip ?? "" });
      return { status: 204 };
    })
    .add("DELETE", `${ACCOUNT}/sessions/:sessionId`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      await rpc.account.signOutSession({ realm: me.realm, userId: me.userId, sessionId: String(req.params.sessionId), ipAddress: req.ip ?? "" });
      return { status: 204 };
    })
    .add("GET", `${ACCOUNT}/linked-accounts`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      const links = await rpc.identityProviders.listFederatedIdentities({ realm: me.realm, userId: me.userId });
      return {
        status: 200, headers: NO_STORE,
        body: links.identities.map((i) => ({
          identityProvider: i.identityProvider, userName: i.userName, ...(i.createdAt ? { createdAt: timestampDate(i.createdAt).toISOString() } : {}),
        })),
      };
    })
    // What the user may link: the realm's enabled providers (the login page's buttons). Keycloak
    // folds them into its linked-accounts list with `connected`; that list keeps its shape here.
    .add("GET", `${ACCOUNT}/identity-providers`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      const { providers } = await rpc.brokerLogin.listLoginProviders({ realm: me.realm });
      return { status: 200, body: providers.map((p) => ({ alias: p.alias, displayName: p.displayName })), headers: NO_STORE };
    })
    // Keycloak's client-initiated account linking from the console: the URI the browser opens,
    // for the caller's SSO session (the token's `sid`) and account-console (Keycloak's choice too:
    // the link endpoint authenticates the browser by its cookie, which the console's session holds).
    .add("GET", `${ACCOUNT}/linked-accounts/:alias`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      const redirectUri = req.query.redirectUri;
      if (redirectUri !== undefined && typeof redirectUri !== "string") throw new GatewayError(400, "invalid_request", "redirectUri must be given once", "redirectUri");
      const r = await rpc.brokerLogin.createAccountLink({
        realm: me.realm, alias: String(req.params.alias), userId: me.userId, sessionId: me.sessionId, clientId: "account-console", redirectUri: redirectUri ?? "",
      });
      return { status: 200, body: { accountLinkUri: r.accountLinkUri, nonce: r.nonce, hash: r.hash }, headers: NO_STORE };
    })
    .add("DELETE", `${ACCOUNT}/linked-accounts/:alias`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      const alias = String(req.params.alias);
      const [links, credentials] = await Promise.all([
        rpc.identityProviders.listFederatedIdentities({ realm: me.realm, userId: me.userId }),
        rpc.userSecurity.listCredentials({ realm: me.realm, userId: me.userId }),
      ]);
      if (!links.identities.some((i) => i.identityProvider === alias)) {
        throw new GatewayError(404, "link_not_found", `no link to identity provider "${alias}"`);
      }
      // As Keycloak: the last way in of a user without a password is not removed.
      if (links.identities.length === 1 && !credentials.credentials.some((c) => c.type === "password")) {
        throw new GatewayError(400, "last_credential", "this link is the only way to sign in; set a password first", "alias");
      }
      await refuseManagedUnlink(rpc, me, alias);
      await rpc.identityProviders.deleteFederatedIdentity({ realm: me.realm, userId: me.userId, alias });
      await recorded(me, req, "REMOVE_FEDERATED_IDENTITY", { identity_provider: alias });
      return { status: 204 };
    })
    .add("GET", `${ACCOUNT}/applications`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      const list = await rpc.account.listConsents({ realm: me.realm, userId: me.userId });
      return {
        status: 200, headers: NO_STORE,
        body: list.consents.map((c) => ({
          clientId: c.clientId, consent: { grantedScopes: c.grantedScopes, createdDate: Number(c.createdDate), lastUpdatedDate: Number(c.lastUpdatedDate) },
        })),
      };
    })
    .add("DELETE", `${ACCOUNT}/applications/:clientId/consent`, "bearer", async (req, res) => {
      const me = await caller(req, res);
      await rpc.account.revokeConsent({ realm: me.realm, userId: me.userId, clientId: String(req.params.clientId), ipAddress: req.ip ?? "" });
      return { status: 204 };
    });
}

/**
 * The caller from `Authorization: Bearer` (RFC 6750 section 2.1); a missing or refused token is
 * 401 with the challenge of section 3 (no error code when none was sent, section 3.1).
 */
/**
 * As Keycloak 26: a MANAGED member (its account created by an organization's identity provider)
 * keeps its link to that provider; the account is the organization's, and an admin ends it by
 * removing the member.
 */
async function refuseManagedUnlink(rpc: RpcClients, me: AccountCaller, alias: string): Promise<void> {
  // While the realm's organizationsEnabled is off no organization owns an account.
  const listed = await rpc.organizations.listMemberOrganizations({ realm: me.realm, userId: me.userId }).catch((e: unknown) => {
    if (organizationsOff(e)) return { organizations: [] };
    throw e;
  });
  const { organizations } = listed;
  for (const org of organizations.filter((o) => o.identityProviders.includes(alias))) {
    const { member } = await rpc.organizations.getMember({ realm: me.realm, organizationId: org.id, userId: me.userId });
    if (member?.membershipType === "MANAGED") {
      throw new GatewayError(400, "managed_member", `the account belongs to organization "${org.alias}" through this identity provider; its link cannot be removed`, "alias");
    }
  }
}

function callerOf(rpc: RpcClients, publicUrl: string) {
  return async (req: Request, res: Response): Promise<AccountCaller> => {
    const realm = String(req.params.realmName);
    res.setHeader("Cache-Control", "no-store");
    const m = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(req.headers.authorization ?? "");
    if (!m) {
      res.setHeader("WWW-Authenticate", bearerChallenge(realm));
      throw new GatewayError(401, "unauthorized", "missing credentials: send Authorization: Bearer <access token of account-console>");
    }
    try {
      const r = await rpc.account.authenticate({ realm, baseUrl: publicUrl, accessToken: m[1]! });
      return { realm, userId: r.userId, sessionId: r.sessionId };
    } catch (e) {
      const ce = ConnectError.from(e);
      if (ce.code === Code.Unauthenticated) res.setHeader("WWW-Authenticate", bearerChallenge(realm, "invalid_token", ce.rawMessage));
      if (ce.code === Code.PermissionDenied) res.setHeader("WWW-Authenticate", bearerChallenge(realm, "insufficient_scope", ce.rawMessage));
      throw e;
    }
  };
}

function profileUpdate(raw: unknown): { username?: string; firstName?: string; lastName?: string; email?: string } {
  const body = requireObject(raw);
  const known = new Set(["username", "firstName", "lastName", "email"]);
  for (const key of Object.keys(body)) {
    if (!known.has(key)) throw new GatewayError(400, "unknown_field", `unknown or read-only field: ${key}`, key);
  }
  const out: { username?: string; firstName?: string; lastName?: string; email?: string } = {};
  for (const key of known) {
    const v = text(body, key, false);
    if (v !== undefined) out[key as keyof typeof out] = v;
  }
  return out;
}

function text(body: Record<string, unknown>, key: string, required: boolean): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) {
    if (required) throw new GatewayError(400, "invalid_request", `${key} is required`, key);
    return undefined;
  }
  if (typeof v !== "string") throw new GatewayError(400, "invalid_request", `${key} must be a string`, key);
  if (required && v === "") throw new GatewayError(400, "invalid_request", `${key} is required`, key);
  return v;
}

/** Keycloak's account UserRepresentation: what the user may see of themselves. */
function profileJson(user: Parameters<typeof userJson>[0]): Record<string, unknown> {
  const u = userJson(user);
  return {
    id: u.id, username: u.username, firstName: u.firstName, lastName: u.lastName, email: u.email,
    emailVerified: u.emailVerified, createdAt: u.createdAt,
  };
}

/**
 * Keycloak's user profile metadata (UserProfileMetadata) of the fields the account API edits:
 * each attribute's name, label, whether it is required and whether the user may change it. The
 * username is read-only unless the realm's editUsernameAllowed is set.
 */
function profileMetadata(usernameEditable: boolean): { attributes: Array<{ name: string; displayName: string; required: boolean; readOnly: boolean }> } {
  return {
    attributes: [
      { name: "username", displayName: "Username", required: true, readOnly: !usernameEditable },
      { name: "email", displayName: "Email", required: false, readOnly: false },
      { name: "firstName", displayName: "First name", required: false, readOnly: false },
      { name: "lastName", displayName: "Last name", required: false, readOnly: false },
    ],
  };
}

function sessionJson(s: Session, current: string): Record<string, unknown> {
  return {
    id: s.id, type: s.type, ipAddress: s.ipAddress,
    started: s.start ? timestampMs(s.start) : 0, lastAccess: s.lastAccess ? timestampMs(s.lastAccess) : 0,
    expires: s.expires ? timestampMs(s.expires) : 0, clients: s.clients, current: s.id === current,
  };
}
