import type { ClientInfo } from "../domain/client-directory.js";
import { grantableScopes } from "../domain/offline-access.js";
import { checkRequestedScope } from "../domain/requested-scope.js";
import type { AuthorizationRequest } from "./login-transaction.js";
import { RESPONSE_MODES, type ResponseMode } from "./flow-reply.js";

/** The outcome of validating an authorization request (OIDC Core 1.0 section 3.1.2.2). */
export type RequestCheck =
  /** `client` is the (enabled) client it was checked against. */
  | { ok: true; request: AuthorizationRequest; client: ClientInfo }
  /** No trustworthy redirect_uri: show an error page, never redirect (RFC 6749 section 4.1.2.1). */
  | { ok: false; page: true; error: string; description: string }
  /** The redirect_uri is registered: the error goes back to the client. */
  | { ok: false; page: false; error: string; description: string; redirectUri: string; state: string; responseMode: ResponseMode };

/**
 * The gateway's limits on authorization parameters (gateway/src/oidc/flow-context.ts), applied
 * again to the parameters that reach the flow without its query parsing: a request object's
 * claims and a pushed request's form. Over-long values get the same NUL marker, refused below.
 */
const PARAM_LIMITS: Readonly<Record<string, number>> = { id_token_hint: 16_384, request: 16_384 };
const PARAM_LIMIT = 4096;

export function markOverLong(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) out[k] = v.length > (PARAM_LIMITS[k] ?? PARAM_LIMIT) ? "\u0000too-long" : v;
  return out;
}

const PKCE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;
const KNOWN_PROMPTS = new Set(["none", "login", "consent", "select_account"]);

/**
 * Validates the parameters against the client: exact redirect_uri matching (DESIGN 5), response_type
 * `code` only, response_mode query, fragment or form_post (every later error goes back that way),
 * PKCE S256 (required for PUBLIC clients; `plain` refused, RFC 7636 section 4.2), prompt and max_age
 * (OIDC Core 1.0 section 3.1.2.1).
 */
export function checkAuthorizationRequest(params: Record<string, string>, client: ClientInfo | null): RequestCheck {
  const clientId = params.client_id ?? "";
  if (!clientId) return pageError("invalid_request", "The client_id parameter is missing.");
  if (!client || !client.enabled) return pageError("invalid_client", "The application is unknown or disabled.");
  const redirectUri = params.redirect_uri ?? "";
  if (!redirectUri) return pageError("invalid_request", "The redirect_uri parameter is missing.");
  if (!client.redirectUris.includes(redirectUri) || !isAbsolute(redirectUri)) {
    return pageError("invalid_request", "The redirect_uri is not registered for this application.");
  }
  // A repeated or over-long state is marked with a NUL by the gateway: refused below, never echoed.
  const state = params.state?.includes("\u0000") ? "" : params.state ?? "";
  // The response mode is read first, so every later error reaches the client the way it asked for.
  const asked = params.response_mode ?? "";
  const known = (RESPONSE_MODES as readonly string[]).includes(asked);
  const responseMode: ResponseMode = known ? asked as ResponseMode : "query";
  const fail = (error: string, description: string): RequestCheck => ({ ok: false, page: false, error, description, redirectUri, state, responseMode });

  // RFC 6749 section 3.1: parameters must not be repeated; the gateway also marks values over its
  // length limit (flow-context.ts). Both start with a NUL, which no valid value contains.
  const marked = Object.entries(params).find(([, v]) => v.includes("\u0000"));
  if (marked) {
    return fail("invalid_request", marked[1] === "\u0000too-long" ? `The ${marked[0]} parameter is too long.` : "A parameter was repeated.");
  }
  const responseType = params.response_type ?? "";
  if (!responseType) return fail("invalid_request", "The response_type parameter is missing.");
  if (responseType !== "code") return fail("unsupported_response_type", "Only response_type=code is supported.");
  if (asked && !known) return fail("invalid_request", "response_mode must be query, fragment or form_post.");
  if (client.grantTypes.length && !client.grantTypes.includes("authorization_code")) {
    return fail("unauthorized_client", "The client may not use the authorization code grant.");
  }

  const challenge = params.code_challenge ?? "";
  const method = params.code_challenge_method ?? "";
  if (challenge || method) {
    if (!challenge) return fail("invalid_request", "code_challenge_method without code_challenge.");
    // RFC 7636 section 4.3: a missing method means "plain", which Tessera refuses.
    if (method !== "S256") return fail("invalid_request", "Only code_challenge_method=S256 is supported.");
    if (!PKCE_CHALLENGE.test(challenge)) return fail("invalid_request", "The code_challenge is malformed.");
  } else if (client.clientType === "PUBLIC") {
    return fail("invalid_request", "PKCE (code_challenge with S256) is required for public clients.");
  } else if (client.clientProfile === "fapi2-security") {
    // FAPI 2.0 Security Profile 5.3.2.2: PKCE with S256 for every client, confidential ones too.
    return fail("invalid_request", "PKCE (code_challenge with S256) is required by the client's FAPI 2.0 profile.");
  }

  // RFC 9449 section 10: a SHA-256 JWK thumbprint (RFC 7638), base64url.
  const dpopJkt = params.dpop_jkt ?? "";
  if (dpopJkt && !/^[A-Za-z0-9_-]{43}$/.test(dpopJkt)) return fail("invalid_request", "The dpop_jkt parameter is malformed.");

  const prompt = (params.prompt ?? "").split(" ").filter(Boolean);
  if (prompt.some((p) => !KNOWN_PROMPTS.has(p))) return fail("invalid_request", "Unknown prompt value.");
  if (prompt.includes("none") && prompt.length > 1) return fail("invalid_request", "prompt=none cannot be combined with other values.");

  let maxAge = -1;
  if (params.max_age !== undefined && params.max_age !== "") {
    if (!/^\d{1,10}$/.test(params.max_age)) return fail("invalid_request", "max_age must be a non-negative integer.");
    maxAge = Number(params.max_age);
  }

  // Keycloak's application-initiated actions (kc_action): registering a passkey after the login
  // (docs/passkeys.md); any other action is refused rather than silently skipped.
  const kcAction = params.kc_action ?? "";
  if (kcAction && !KC_ACTIONS.has(kcAction)) return fail("invalid_request", "Unsupported kc_action.");

  // A scope the client does not have is invalid_scope here, not a code that the token endpoint
  // then refuses after the user logged in (requested-scope.ts). A client without refresh tokens is
  // not granted offline_access (offline-access.ts): dropped here, so the consent page does not ask
  // the user for it and the code does not carry it.
  const scopes = checkRequestedScope(client, params.scope);
  if (!scopes.ok) return fail("invalid_scope", scopes.description);
  const scope = grantableScopes(scopes.names, client).join(" ");
  return {
    ok: true,
    client,
    request: {
      clientId, clientInternalId: client.id, redirectUri, scope, state, nonce: params.nonce ?? "", codeChallenge: challenge,
      codeChallengeMethod: challenge ? "S256" : "", maxAge, prompt, loginHint: (params.login_hint ?? "").slice(0, 255),
      responseMode, ...(kcAction ? { kcAction } : {}), ...(dpopJkt ? { dpopJkt } : {}),
      // OIDC Core 3.1.2.1: kept for the pages, which pick the first the realm supports.
      ...(params.ui_locales ? { uiLocales: params.ui_locales.slice(0, 255) } : {}),
      // An alias is a slug of at most 100 characters (the broker's provider-rules.ts); anything else names
      // no provider, so the login page shows as usual, as Keycloak does for an unknown hint.
      ...(IDP_ALIAS.test(params.kc_idp_hint ?? "") ? { idpHint: params.kc_idp_hint } : {}),
    },
  };
}

const IDP_ALIAS = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** The application-initiated actions an authorization request may ask for. */
export const KC_ACTIONS = new Set(["webauthn-register-passwordless"]);

function pageError(error: string, description: string): RequestCheck {
  return { ok: false, page: true, error, description };
}

function isAbsolute(uri: string): boolean {
  try {
    const u = new URL(uri);
    return u.hash === "" && u.protocol !== "javascript:" && u.protocol !== "data:";
  } catch {
    return false;
  }
}
