import { arrayOf, html, json, noContent, redirect, ref, type Operation } from "./operation.js";
import type { JsonSchema } from "./proto-schema.js";

const ACCOUNT = "/realms/:realmName/account";
const str: JsonSchema = { type: "string" };
const ms: JsonSchema = { type: "integer", description: "Epoch milliseconds." };
const TAG = "Account";
const CONSOLE_HEADERS = {
  "Content-Security-Policy": "Scripts, styles and calls only to this server; no framing (console-routes.ts).",
  "Cache-Control": "`no-store`.", "X-Frame-Options": "`DENY`.", "Referrer-Policy": "`no-referrer`.",
};

const PROFILE: JsonSchema = {
  type: "object", required: ["id", "username", "firstName", "lastName", "email", "emailVerified"],
  properties: {
    id: str, username: str, firstName: str, lastName: str, email: str, emailVerified: { type: "boolean" },
    createdAt: { type: "string", format: "date-time" },
    userProfileMetadata: {
      type: "object", required: ["attributes"],
      description: "With `userProfileMetadata=true` only (Keycloak's user profile metadata): what the user may edit.",
      properties: {
        attributes: arrayOf({
          type: "object", required: ["name", "displayName", "required", "readOnly"],
          properties: {
            name: { type: "string", enum: ["username", "email", "firstName", "lastName"] }, displayName: str, required: { type: "boolean" },
            readOnly: { type: "boolean", description: "For `username`: true unless the realm's `editUsernameAllowed` is set." },
          },
        }),
      },
    },
  },
};
const PROFILE_UPDATE: JsonSchema = {
  type: "object", additionalProperties: false,
  properties: {
    username: {
      type: "string",
      description: "A new username where the realm's `editUsernameAllowed` is set, checked as the Admin API checks one (400 naming `username`; 409 when taken); elsewhere only the current one (400 `username_read_only`).",
    },
    firstName: str, lastName: str, email: { type: "string", description: "A new address resets `emailVerified`." },
  },
};
const CREDENTIAL: JsonSchema = {
  type: "object", required: ["id", "type", "userLabel", "createdDate"],
  properties: {
    id: { type: "string", description: "`password`, `otp`, or a passkey's id." }, type: { type: "string", enum: ["password", "otp", "webauthn"] },
    userLabel: str, createdDate: ms,
  },
};
const SESSION: JsonSchema = {
  type: "object", required: ["id", "type", "ipAddress", "started", "lastAccess", "expires", "clients", "current"],
  properties: {
    id: str, type: { type: "string", enum: ["sso", "oauth"] }, ipAddress: str, started: ms, lastAccess: ms, expires: ms,
    clients: arrayOf(str), current: { type: "boolean", description: "The session of the token that asked." },
  },
};
const APPLICATION: JsonSchema = {
  type: "object", required: ["clientId", "consent"],
  properties: {
    clientId: str,
    consent: { type: "object", required: ["grantedScopes", "createdDate", "lastUpdatedDate"], properties: { grantedScopes: arrayOf(str), createdDate: ms, lastUpdatedDate: ms } },
  },
};
const forbidden = json("A token of the realm issued to another client than `account-console` (`insufficient_scope`).", ref("Error"));

/**
 * The account console's page and the account API (docs/account-console.md): the signed-in user's
 * own profile, password, credentials, sessions and consents, for a bearer access token of the
 * realm's `account-console` client.
 */
export function accountOperations(): Operation[] {
  const op = (o: Omit<Operation, "auth" | "tag">): Operation => ({ auth: "bearer", tag: TAG, ...o, responses: { 403: forbidden, ...o.responses } });
  return [
    { id: "accountConsole", method: "GET", path: `${ACCOUNT}/`, auth: "public", tag: TAG, summary: "The account console (a client of the account API)",
      description: "The single-page app's document; it signs in through the realm's login (authorization code with PKCE as the `account-console` client). It links the realm's theme (`theme.css`) and names the realm's display name and logo in `<meta>` elements; the policy's `img-src` adds the logo's and favicon's origins.",
      responses: { 200: { ...html("The console's page."), headers: CONSOLE_HEADERS }, 503: json("The console is not built (`console_not_built`).", ref("Error")) } },
    { id: "accountConsoleTheme", method: "GET", path: `${ACCOUNT}/theme.css`, auth: "public", tag: TAG, summary: "The realm's theme for its account console",
      description: "The realm's theme preset and overrides (the same look as its login pages) as the console's CSS custom properties; the console's document links it with `?v=` and a digest of its content. An unknown realm gets the default theme.",
      query: [{ name: "v", description: "The content's digest, ignored by the server (a changed theme is a new address).", schema: { type: "string" } }],
      responses: { 200: { description: "The stylesheet.", schema: { type: "string" }, media: "text/css", headers: { "Cache-Control": "`no-cache`." } } } },
    { id: "accountConsoleRedirect", method: "GET", path: ACCOUNT, auth: "public", tag: TAG, summary: "To the account console's canonical address",
      responses: { 302: redirect("`/realms/{realmName}/account/`.") } },
    op({ id: "getAccountProfile", method: "GET", path: `${ACCOUNT}/profile`, summary: "The signed-in user's profile",
      query: [{ name: "userProfileMetadata", description: "`true` adds `userProfileMetadata`: which fields the user may edit (Keycloak's parameter).", schema: { type: "boolean" } }],
      responses: { 200: json("The profile.", PROFILE) } }),
    op({ id: "updateAccountProfile", method: "POST", path: `${ACCOUNT}/profile`, summary: "Update the signed-in user's profile",
      body: { schema: PROFILE_UPDATE, required: true }, responses: { 200: json("The profile as saved.", PROFILE) } }),
    op({ id: "listAccountCredentials", method: "GET", path: `${ACCOUNT}/credentials`, summary: "The signed-in user's credentials (never a secret)",
      responses: { 200: json("Password, OTP and passkeys, each with its label and date.", arrayOf(CREDENTIAL)) } }),
    op({ id: "changeAccountPassword", method: "POST", path: `${ACCOUNT}/password`, summary: "Change the password, proving the current one",
      description: "A wrong current password counts as a failed login (brute-force protection) and is 400 `invalid_current_password`; the realm's password policy names `newPassword`. The change ends the user's sessions, this one too.",
      body: { required: true, schema: { type: "object", required: ["currentPassword", "newPassword"], additionalProperties: false, properties: { currentPassword: str, newPassword: str, confirmation: str } } },
      responses: { 204: noContent("Changed.") } }),
    op({ id: "deleteAccountCredential", method: "DELETE", path: `${ACCOUNT}/credentials/:credentialId`, summary: "Remove the OTP credential or a passkey",
      pathParams: { credentialId: "`otp` or a passkey's id (`password` is 400: it is changed, never removed)." }, responses: { 204: noContent("Removed.") } }),
    op({ id: "beginAccountTotp", method: "POST", path: `${ACCOUNT}/totp`, summary: "Start enrolling an authenticator application (TOTP)",
      description: "A new pending secret (replacing an earlier pending one); 400 `otp_already_configured` when the user has one.",
      responses: { 200: json("The secret as text, its otpauth URI and a QR code of it (a PNG data URL).", {
        type: "object", required: ["secret", "otpauthUri", "qrCode"], properties: { secret: str, otpauthUri: str, qrCode: str },
      }) } }),
    op({ id: "confirmAccountTotp", method: "POST", path: `${ACCOUNT}/totp/confirm`, summary: "Confirm the authenticator application with a first code",
      body: { required: true, schema: { type: "object", required: ["code"], additionalProperties: false, properties: { code: { type: "string", description: "Six digits (RFC 6238)." } } } },
      responses: { 200: json("Confirmed: the recovery codes, shown this once.", { type: "object", required: ["recoveryCodes"], properties: { recoveryCodes: arrayOf(str) } }) } }),
    op({ id: "regenerateAccountRecoveryCodes", method: "POST", path: `${ACCOUNT}/totp/recovery-codes`, summary: "New recovery codes, proving the current password",
      description: "For a user with an authenticator application (else 400 `otp_not_configured`). The current password is checked as a login checks it (a wrong one counts as a failed login; 400 `invalid_current_password` naming `currentPassword`). Every earlier code stops working; a login event `UPDATE_CREDENTIAL` with `credential_type` `recovery-authn-codes` is recorded.",
      body: { required: true, schema: { type: "object", required: ["currentPassword"], additionalProperties: false, properties: { currentPassword: str } } },
      responses: { 200: json("The new recovery codes, shown this once.", { type: "object", required: ["recoveryCodes"], properties: { recoveryCodes: arrayOf(str) } }) } }),
    op({ id: "listAccountSessions", method: "GET", path: `${ACCOUNT}/sessions`, summary: "The signed-in user's sessions",
      responses: { 200: json("SSO sessions, then token sessions of no SSO session.", arrayOf(SESSION)) } }),
    op({ id: "signOutAccountSessions", method: "DELETE", path: `${ACCOUNT}/sessions`, summary: "Sign out every session (offline ones stay)",
      responses: { 204: noContent("Signed out; their refresh tokens no longer work.") } }),
    op({ id: "signOutAccountSession", method: "DELETE", path: `${ACCOUNT}/sessions/:sessionId`, summary: "Sign out one session",
      responses: { 204: noContent("Signed out; its refresh tokens no longer work.") } }),
    op({ id: "listAccountLinkedAccounts", method: "GET", path: `${ACCOUNT}/linked-accounts`, summary: "The identity providers the user's account is linked to",
      responses: { 200: json("Each link: the provider's alias and the upstream username.", arrayOf({
        type: "object", required: ["identityProvider", "userName"], properties: { identityProvider: str, userName: str, createdAt: { type: "string", format: "date-time" } },
      })) } }),
    op({ id: "listAccountIdentityProviders", method: "GET", path: `${ACCOUNT}/identity-providers`, summary: "The realm's identity providers the account may link",
      description: "The enabled providers, as the login page shows them; `GET linked-accounts` says which the account is linked to.",
      responses: { 200: json("Each provider's alias and display name.", arrayOf({ type: "object", required: ["alias", "displayName"], properties: { alias: str, displayName: str } })) } }),
    op({ id: "getAccountLinkUri", method: "GET", path: `${ACCOUNT}/linked-accounts/:alias`, summary: "The URI that links an identity provider to the account",
      pathParams: { alias: "The identity provider's alias." },
      query: [{ name: "redirectUri", description: "Where the browser comes back: a redirect URI registered for account-console.", required: true },
        { name: "providerId", description: "Ignored (Keycloak's console sends the alias again)." }],
      description: "Keycloak's client-initiated account linking: open `accountLinkUri` in the browser that holds the console's SSO session. "
        + "`hash` is base64url(SHA-256(nonce + the token's `sid` + `account-console` + alias)). "
        + "404 `identity_provider_not_found`; 409 `already_linked` when the account has a link to this provider; 400 `invalid_redirect_uri`, `identity_provider_disabled` or `session_not_active`.",
      responses: { 200: json("The link URI with its nonce and hash.", {
        type: "object", required: ["accountLinkUri", "nonce", "hash"], properties: { accountLinkUri: { type: "string", format: "uri" }, nonce: str, hash: str },
      }) } }),
    op({ id: "unlinkAccountLinkedAccount", method: "DELETE", path: `${ACCOUNT}/linked-accounts/:alias`, summary: "Unlink an identity provider",
      pathParams: { alias: "The identity provider's alias." },
      description: "400 `last_credential` when the link is the user's only way to sign in (no password, no other link); "
        + "400 `managed_member` when the account is a MANAGED member of an organization through this provider (as Keycloak 26).",
      responses: { 204: noContent("Unlinked.") } }),
    op({ id: "listAccountApplications", method: "GET", path: `${ACCOUNT}/applications`, summary: "The clients the user granted consent to",
      responses: { 200: json("Each client with the scopes granted.", arrayOf(APPLICATION)) } }),
    op({ id: "revokeAccountConsent", method: "DELETE", path: `${ACCOUNT}/applications/:clientId/consent`, summary: "Revoke a consent and the client's tokens",
      responses: { 204: noContent("Revoked; the client's tokens of this user, offline ones too, no longer work.") } }),
  ];
}
