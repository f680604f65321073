import { FORM, html, json, noContent, redirect, ref, type Answer, type Body, type Operation, type Param } from "./operation.js";
import type { JsonSchema } from "./proto-schema.js";

const OIDC = "/realms/:realmName/protocol/openid-connect";
const s = { type: "string" };
const form = (properties: Record<string, JsonSchema>, required: string[] = []): Body => ({
  media: FORM, required: true, schema: { type: "object", properties, ...(required.length ? { required } : {}) },
});
const CLIENT_AUTH = {
  client_id: { ...s, description: "The client (client_secret_post or a public client); else HTTP Basic (RFC 6749 section 2.3.1)." },
  client_secret: { ...s, description: "client_secret_post." },
};
const AUTHORIZE: Param[] = [
  ["response_type", "`code` (RFC 6749 section 4.1.1).", true], ["client_id", "The client.", true], ["redirect_uri", "A registered redirect URI.", false],
  ["scope", "Space-separated; `openid` for OpenID Connect.", false], ["state", "Opaque; returned to the client.", false],
  ["nonce", "Bound into the ID token.", false], ["code_challenge", "PKCE (RFC 7636).", false],
  ["code_challenge_method", "`S256` (or `plain` where the client allows it).", false], ["prompt", "`none`, `login` or `consent`.", false],
  ["max_age", "Seconds since the last authentication.", false], ["login_hint", "A username to prefill.", false],
  ["response_mode", "`query`, `fragment` or `form_post`.", false], ["kc_idp_hint", "Go straight to the login of this identity provider (its alias); one the realm does not have enabled shows the login page.", false],
  ["kc_action", "`webauthn-register-passwordless`: register a passkey after the login (docs/passkeys.md).", false],
  ["request", "A request object (RFC 9101): signed with a key of the client's `jwks`, or unsigned where the client allows it; its parameters win over the query's.", false],
  ["request_uri", "The `urn:ietf:params:oauth:request_uri:` reference a pushed authorization request returned (RFC 9126 section 4); single use.", false],
  ["dpop_jkt", "The SHA-256 thumbprint of the DPoP key the code's token request must prove (RFC 9449 section 10).", false],
].map(([name, description, required]) => ({ name: name as string, description: description as string, ...(required ? { required: true } : {}) }));
const page = (id: string, method: "GET" | "POST", path: string, summary: string, extra: Partial<Operation> = {}): Operation => ({
  id, method, path, auth: "public", tag: "Hosted pages", summary, errors: "page",
  responses: { 200: html("The page."), 302: redirect("The flow's next step, or the client with its answer."), 400: html("The realm's error page.") },
  ...extra,
});
const CONSOLE_HEADERS = {
  "Content-Security-Policy": "Scripts, styles and calls only to this server; no framing (console-routes.ts).",
  "Cache-Control": "`no-store`.", "X-Frame-Options": "`DENY`.", "Referrer-Policy": "`no-referrer`.",
};
/** RFC 6750 section 3.1: no body when the request sent no token; `invalid_token` when it was not valid. */
const USERINFO_401: Answer = {
  description: "No token (no body), or a token that is not valid (`invalid_token`); `WWW-Authenticate` says why (RFC 6750 section 3). "
    + "A DPoP-bound token sent as Bearer, a bad proof (`invalid_dpop_proof`) or a missing nonce (`use_dpop_nonce`, with `DPoP-Nonce`) get a DPoP challenge (RFC 9449 section 7.1).",
  schema: ref("OAuthError"), headers: { "WWW-Authenticate": "The Bearer or DPoP challenge.", "DPoP-Nonce": "The nonce to retry with (use_dpop_nonce)." }, bodyOptional: true,
};
/** RFC 9449 section 4.1: the proof of possession a request may carry. */
const DPOP_HEADER = { name: "DPoP", description: "A DPoP proof (RFC 9449): binds the tokens to its key at the token endpoint; proves possession of a DPoP-bound token at userinfo." };
const preflight = (id: string, path: string): Operation => ({
  id, method: "OPTIONS", path, auth: "public", tag: "OpenID Connect", summary: "CORS preflight", errors: "none",
  headers: [{ name: "Origin", description: "The requesting page's origin; without it the answer carries no CORS header." }],
  responses: { 200: { description: "No body; for an Origin, the allowed methods and headers (Access-Control-Allow-*, any origin: the real request is checked against the client's web origins)." } },
});

/** The public OIDC, SAML and operations endpoints (spec 4.15-4.20), and the hosted pages' paths. */
export function protocolOperations(): Operation[] {
  return [
    { id: "landing", method: "GET", path: "/", auth: "public", tag: "Operations", summary: "What is running, and where to go next",
      description: "HTML for a browser; `{ name, version, links }` with `Accept: application/json`.",
      responses: { 200: { description: "The landing page, or its JSON.", schema: ref("Landing") } } },
    { id: "health", method: "GET", path: "/health", auth: "public", tag: "Operations", summary: "Liveness", responses: { 200: json("Alive.", ref("Liveness")) } },
    { id: "ready", method: "GET", path: "/health/ready", auth: "public", tag: "Operations", summary: "Readiness of every service",
      responses: { 200: json("Every service is ready.", ref("Readiness")), 503: json("A service is not ready.", ref("Readiness")) } },
    { id: "metrics", method: "GET", path: "/metrics", auth: "public", tag: "Operations", summary: "Prometheus metrics", errors: "none",
      responses: { 200: { description: "The text exposition format.", schema: { type: "string" }, media: "text/plain" } } },
    { id: "openApiDocument", method: "GET", path: "/admin/openapi.json", auth: "public", tag: "Operations", summary: "This document", errors: "none",
      responses: { 200: json("The OpenAPI 3.1 document.", { type: "object", required: ["openapi", "paths"] }) } },
    { id: "apiReference", method: "GET", path: "/admin/docs", auth: "public", tag: "Operations", summary: "The rendered API reference", errors: "none",
      responses: { 200: html("The reference page (Scalar, served by the gateway).") } },
    { id: "apiReferenceScript", method: "GET", path: "/admin/docs/scalar.js", auth: "public", tag: "Operations", summary: "The reference page's renderer (Scalar)",
      errors: "none", responses: { 200: { description: "JavaScript.", schema: { type: "string" }, media: "text/javascript" } } },
    { id: "passkeyLibrary", method: "GET", path: "/resources/passkeys/simplewebauthn-browser.js", auth: "public", tag: "Hosted pages",
      summary: "The passkey pages' WebAuthn library (@simplewebauthn/browser)", errors: "none",
      responses: { 200: { description: "JavaScript.", schema: { type: "string" }, media: "text/javascript" } } },
    { id: "passkeyPageScript", method: "GET", path: "/resources/passkeys/passkey-page.js", auth: "public", tag: "Hosted pages",
      summary: "The passkey pages' script", errors: "none",
      responses: { 200: { description: "JavaScript.", schema: { type: "string" }, media: "text/javascript" } } },
    { id: "apiReferenceStart", method: "GET", path: "/admin/docs/start.js", auth: "public", tag: "Operations", summary: "The reference page's start script",
      errors: "none", responses: { 200: { description: "JavaScript.", schema: { type: "string" }, media: "text/javascript" } } },

    { id: "adminConsole", method: "GET", path: "/admin/console", auth: "public", tag: "Operations", summary: "The admin console (a client of this Admin API)",
      description: "The single-page app's document; it signs in with `POST /admin/auth/login`. Served with its own Content-Security-Policy.",
      responses: { 200: { ...html("The console's page."), headers: CONSOLE_HEADERS }, 503: json("The console is not built (`console_not_built`).", ref("Error")) } },
    { id: "adminConsoleAsset", method: "GET", path: "/resources/console/assets/:file", auth: "public", tag: "Operations", summary: "A file of the admin console's build",
      responses: {
        200: { description: "The file; content-hashed, so cached for a year (`immutable`).", schema: { type: "string" },
          media: ["text/javascript", "text/css", "application/json", "image/svg+xml", "font/woff2"], headers: { "Cache-Control": "`public, max-age=31536000, immutable`." } },
        404: json("No such file of the build (`not_found`).", ref("Error")),
      } },

    { id: "discovery", method: "GET", path: "/realms/:realmName/.well-known/openid-configuration", auth: "public", tag: "OpenID Connect",
      summary: "Provider metadata (OpenID Connect Discovery 1.0)", errors: "oauth",
      headers: [{ name: "If-None-Match", description: "The ETag of a cached copy." }],
      responses: { 200: json("The metadata.", ref("ProviderMetadata")), 304: { description: "Not modified." } } },
    { id: "jwks", method: "GET", path: `${OIDC}/certs`, auth: "public", tag: "OpenID Connect", summary: "The realm's public keys (JWKS)", errors: "oauth",
      headers: [{ name: "If-None-Match", description: "The ETag of a cached copy." }],
      responses: { 200: { description: "The key set.", schema: ref("JsonWebKeySet"), media: "application/jwk-set+json" }, 304: { description: "Not modified." } } },
    { id: "token", method: "POST", path: `${OIDC}/token`, auth: "client", tag: "OpenID Connect", summary: "Token endpoint (RFC 6749 section 3.2)", errors: "oauth",
      body: form({
        grant_type: { enum: ["authorization_code", "refresh_token", "client_credentials", "password", "urn:ietf:params:oauth:grant-type:device_code", "urn:ietf:params:oauth:grant-type:token-exchange"] },
        code: s, redirect_uri: s, code_verifier: s, refresh_token: s, username: s, password: s, otp: { ...s, description: "A TOTP code (password grant with MFA)." },
        device_code: s, scope: s,
        subject_token: { ...s, description: "Token exchange (RFC 8693 section 2.1): an active access token of this realm aimed at the client." },
        subject_token_type: { enum: ["urn:ietf:params:oauth:token-type:access_token"] },
        audience: { ...s, description: "Token exchange: the clientId the new token is aimed at." },
        requested_token_type: { enum: ["urn:ietf:params:oauth:token-type:access_token", "urn:ietf:params:oauth:token-type:refresh_token"] },
        ...CLIENT_AUTH,
      }, ["grant_type"]),
      headers: [DPOP_HEADER],
      responses: { 200: { ...json("Tokens (`token_type` DPoP when a proof bound them).", ref("TokenResponse")), headers: { "DPoP-Nonce": "The nonce for the next proof, for a client that must send nonces (RFC 9449 section 8.2)." } } } },
    preflight("tokenPreflight", `${OIDC}/token`),
    { id: "deviceAuthorization", method: "POST", path: `${OIDC}/auth/device`, auth: "client", tag: "OpenID Connect", summary: "Device authorization (RFC 8628 section 3.1)",
      errors: "oauth", body: form({ scope: s, ...CLIENT_AUTH }), responses: { 200: json("The device and user codes.", ref("DeviceAuthorizationResponse")) } },
    preflight("deviceAuthorizationPreflight", `${OIDC}/auth/device`),
    { id: "pushAuthorizationRequest", method: "POST", path: `${OIDC}/ext/par/request`, auth: "client", tag: "OpenID Connect",
      summary: "Pushed authorization request (RFC 9126 section 2)",
      description: "The authorization request's parameters (or a `request` object), checked as the authorization endpoint checks them; "
        + "the client authenticates as at the token endpoint. The answer's `request_uri` is used once, by this client, within `expires_in` seconds.",
      errors: "oauth", body: form({
        response_type: s, redirect_uri: s, scope: s, state: s, nonce: s, code_challenge: s, code_challenge_method: s, prompt: s, max_age: s,
        login_hint: s, response_mode: s, dpop_jkt: s, request: { ...s, description: "A request object (RFC 9101) instead of the parameters." }, ...CLIENT_AUTH,
      }),
      headers: [{ name: "DPoP", description: "A DPoP proof for this endpoint (RFC 9449 section 10.1): binds the code to its key, as `dpop_jkt` does; with `dpop_jkt` too, both must name the same key." }],
      responses: { 201: json("The request_uri to send to the authorization endpoint.", ref("PushedAuthorizationResponse")) } },
    preflight("pushAuthorizationRequestPreflight", `${OIDC}/ext/par/request`),
    { id: "introspect", method: "POST", path: `${OIDC}/token/introspect`, auth: "client", tag: "OpenID Connect", summary: "Token introspection (RFC 7662)",
      errors: "oauth", body: form({ token: s, token_type_hint: { enum: ["access_token", "refresh_token"] }, ...CLIENT_AUTH }, ["token"]),
      responses: { 200: json("The token's state and claims.", ref("IntrospectionResponse")) } },
    preflight("introspectPreflight", `${OIDC}/token/introspect`),
    { id: "revoke", method: "POST", path: `${OIDC}/revoke`, auth: "client", tag: "OpenID Connect", summary: "Token revocation (RFC 7009)",
      errors: "oauth", body: form({ token: s, token_type_hint: { enum: ["access_token", "refresh_token"] }, ...CLIENT_AUTH }, ["token"]),
      responses: { 200: json("Revoked, or the token was not valid (RFC 7009 section 2.2).", ref("EmptyObject")) } },
    preflight("revokePreflight", `${OIDC}/revoke`),
    { id: "userinfo", method: "GET", path: `${OIDC}/userinfo`, auth: "bearer", tag: "OpenID Connect", summary: "UserInfo (OpenID Connect Core section 5.3)",
      errors: "oauth", headers: [DPOP_HEADER], responses: { 200: json("The user's claims.", ref("UserInfo")), 401: USERINFO_401 } },
    { id: "userinfoPost", method: "POST", path: `${OIDC}/userinfo`, auth: "bearer", tag: "OpenID Connect", summary: "UserInfo, by POST",
      errors: "oauth", body: { ...form({ access_token: s }), required: false }, headers: [DPOP_HEADER],
      responses: { 200: json("The user's claims.", ref("UserInfo")), 401: USERINFO_401 } },
    preflight("userinfoPreflight", `${OIDC}/userinfo`),
    { id: "logout", method: "GET", path: `${OIDC}/logout`, auth: "public", tag: "OpenID Connect", summary: "RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0)",
      errors: "page", query: [
        { name: "id_token_hint", description: "An ID token the realm issued." }, { name: "post_logout_redirect_uri", description: "A registered post-logout URI." },
        { name: "state", description: "Returned to the client." }, { name: "client_id", description: "The client, when there is no id_token_hint." },
      ],
      responses: { 200: html("The logout confirmation or done page."), 302: redirect("To the post-logout redirect URI.") } },
    { id: "logoutPost", method: "POST", path: `${OIDC}/logout`, auth: "client", tag: "OpenID Connect", summary: "Logout with a refresh token (API), or the browser's logout form",
      description: "A body with `refresh_token` ends that token's session and answers 204; any other body is the browser's RP-initiated logout.",
      errors: "oauth", body: form({ refresh_token: s, id_token_hint: s, post_logout_redirect_uri: s, state: s, ...CLIENT_AUTH }),
      responses: { 204: noContent("The session is ended."), 200: html("The browser's logout page."), 302: redirect("To the post-logout redirect URI.") } },
    preflight("logoutPreflight", `${OIDC}/logout`),

    page("authorize", "GET", `${OIDC}/auth`, "Authorization endpoint: the login page (RFC 6749 section 3.1)", { query: AUTHORIZE, tag: "OpenID Connect" }),
    page("authorizePost", "POST", `${OIDC}/auth`, "The login page's form posts, or an authorization request by POST",
      { tag: "OpenID Connect", body: form({
        tx: { ...s, description: "The login transaction." }, csrf: s,
        step: { enum: ["login", "otp", "otp_enroll", "recovery_codes", "update_password", "consent", "passkey_begin", "passkey", "passkey_register", "plugin_challenge"], description: "The form posted." },
        username: s, password: s, otp: s,
        "plugin.<name>": { ...s, description: "plugin_challenge: each field of the plugin step's page, named `plugin.` and the field's name; only the page's fields reach the plugin." },
        credential: { ...s, description: "Passkey steps: the WebAuthn response as JSON (RegistrationResponseJSON / AuthenticationResponseJSON)." },
        label: { ...s, description: "passkey_register: the passkey's name." },
      }) }),
    page("devicePage", "GET", "/realms/:realmName/device", "The device verification page (RFC 8628 section 3.3)", { query: [{ name: "user_code", description: "Prefilled user code." }] }),
    page("devicePagePost", "POST", "/realms/:realmName/device", "The device verification page's form posts", { body: form({ user_code: s, tx: s, username: s, password: s }) }),
    page("registrationPage", "GET", "/realms/:realmName/login-actions/registration", "The self-registration page", { query: [{ name: "tx", description: "The login transaction." }] }),
    page("registrationPost", "POST", "/realms/:realmName/login-actions/registration", "Register", { body: form({ tx: s, username: s, email: s, firstName: s, lastName: s, password: s, passwordConfirm: s }) }),
    page("verifyEmailPage", "GET", "/realms/:realmName/login-actions/verify-email", "Email verification link", { query: [{ name: "key", description: "The emailed key." }] }),
    page("verifyEmailPost", "POST", "/realms/:realmName/login-actions/verify-email", "Confirm or resend email verification", { body: form({ key: s, tx: s }) }),
    page("resetCredentialsPage", "GET", "/realms/:realmName/login-actions/reset-credentials", "The forgot-password page", { query: [{ name: "tx", description: "The login transaction." }] }),
    page("resetCredentialsPost", "POST", "/realms/:realmName/login-actions/reset-credentials", "Request a reset link", { body: form({ tx: s, username: s }) }),
    page("resetPasswordPage", "GET", "/realms/:realmName/login-actions/reset-password", "The new-password page of a reset link", { query: [{ name: "key", description: "The emailed key." }] }),
    page("resetPasswordPost", "POST", "/realms/:realmName/login-actions/reset-password", "Set the new password", { body: form({ key: s, password: s, passwordConfirm: s }) }),
    page("actionTokenPage", "GET", "/realms/:realmName/login-actions/action-token", "An execute-actions email's link: its required actions, then \"Your account has been updated\"",
      { query: [{ name: "key", description: "The emailed key (sealed, single-use, expiring)." }] }),
    { id: "organizationInvitationPage", method: "GET", path: "/realms/:realmName/login-actions/organization-invitation", auth: "public", tag: "Hosted pages",
      summary: "An organization invitation's link: the organization, and a registration form when no account holds the email", errors: "page",
      query: [{ name: "key", description: "The emailed key (sealed; it also stands as the form's CSRF token)." }],
      responses: { 200: html("The invitation page."), 400: html("The realm's error page: the link is not valid, has expired or was used.") } },
    { id: "organizationInvitationAccept", method: "POST", path: "/realms/:realmName/login-actions/organization-invitation", auth: "public", tag: "Hosted pages",
      summary: "Accept an organization invitation (registering the account it needs)", errors: "page",
      body: form({ key: s, username: s, password: s, firstName: s, lastName: s }, ["key"]),
      responses: {
        200: html("The invitation is accepted: the member's page, with a link on to the organization's redirect URL."),
        400: html("The form again with the reason (a refused username or password; the link stays usable), or the error page for a link that is not valid or was used."),
      } },
    page("authenticatePage", "GET", "/realms/:realmName/login-actions/authenticate", "Continue a login after a required action", { query: [{ name: "tx", description: "The login transaction." }] }),

    { id: "samlDescriptor", method: "GET", path: "/realms/:realmName/protocol/saml/descriptor", auth: "public", tag: "SAML", summary: "The realm's SAML 2.0 IdP metadata",
      headers: [{ name: "If-None-Match", description: "The ETag of a cached copy." }],
      responses: { 200: { description: "EntityDescriptor (SAML 2.0 metadata section 2.3.2).", schema: { type: "string" }, media: "application/samlmetadata+xml" }, 304: { description: "Not modified." } } },
    page("samlRedirect", "GET", "/realms/:realmName/protocol/saml", "SAML HTTP-Redirect binding (AuthnRequest, LogoutRequest, LogoutResponse)", {
      tag: "SAML", query: [{ name: "SAMLRequest", description: "Deflated, base64." }, { name: "SAMLResponse", description: "Deflated, base64." },
        { name: "RelayState", description: "Opaque to the IdP." }, { name: "SigAlg", description: "The signature algorithm." }, { name: "Signature", description: "The query's signature." }],
    }),
    page("samlPost", "POST", "/realms/:realmName/protocol/saml", "SAML HTTP-POST binding, and the login page's posts of a SAML login", {
      tag: "SAML", body: form({ SAMLRequest: s, SAMLResponse: s, RelayState: s, tx: s, username: s, password: s }),
    }),

    page("brokerLogin", "GET", "/realms/:realmName/broker/:alias/login", "Start a login at an upstream identity provider", {
      tag: "Identity brokering", query: [{ name: "tx", description: "The login transaction." }],
    }),
    page("brokerCallback", "GET", "/realms/:realmName/broker/:alias/callback", "The upstream provider's redirect back (RFC 6749 section 4.1.2)", {
      tag: "Identity brokering", query: [{ name: "code", description: "The upstream code." }, { name: "state", description: "The broker's state." },
        { name: "error", description: "The upstream error." }, { name: "iss", description: "RFC 9207." }],
    }),
    page("brokerAccountLink", "GET", "/realms/:realmName/broker/:alias/link", "Link an upstream identity to the signed-in account (Keycloak's client-initiated account linking)", {
      tag: "Identity brokering",
      description: "Needs the realm's SSO cookie. `hash` is base64url(SHA-256(nonce + SSO session id + client_id + alias)), the session being one the client signed in through. "
        + "302 to the upstream; or back to `redirect_uri` with `link_error` (`not_logged_in`, `unknown_identity_provider`, ...) and `nonce`. "
        + "A bad client, `redirect_uri`, `nonce` or `hash` is the error page (400).",
      query: [{ name: "client_id", description: "The client asking.", required: true }, { name: "redirect_uri", description: "One of the client's registered redirect URIs.", required: true },
        { name: "nonce", description: "The client's random value, echoed with `link_error`.", required: true }, { name: "hash", description: "See the description.", required: true }],
      responses: { 302: redirect("To the upstream provider, or back to `redirect_uri`."), 400: html("The realm's error page.") },
    }),
    page("brokerLink", "POST", "/realms/:realmName/broker/:alias/link", "Confirm linking an upstream identity to an existing account", {
      tag: "Identity brokering", body: form({ pending: s, password: s }),
    }),
  ];
}
