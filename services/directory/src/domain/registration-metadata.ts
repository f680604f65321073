import { IamError } from "../../../kit/src/errors.js";
import { GRANT_TYPES, TOKEN_ENDPOINT_AUTH_METHODS, authMethodOf, type ClientRecord } from "./client.js";
import { checkRedirectUri } from "./client-rules.js";

/** What a registration request asks of the client itself, in the Admin API's terms. */
export interface RegisteredClientFields {
  name: string;
  clientType: "CONFIDENTIAL" | "PUBLIC";
  redirectUris: string[];
  grantTypes: string[];
  tokenEndpointAuthMethod: string;
  jwks?: Record<string, unknown>;
  jwksUri?: string;
  backchannelLogoutUri?: string;
  backchannelLogoutSessionRequired?: boolean;
  requestObjectSignatureAlg?: string;
  requirePushedAuthorizationRequests?: boolean;
}

/** A registration request read: the client's fields and the metadata kept beside it. */
export interface RegistrationRequest {
  client: RegisteredClientFields;
  extra: Record<string, unknown>;
}

/** The policy a request is checked against (RegistrationPolicyRecord's rules). */
export interface RegistrationRules {
  allowedRedirectUriHosts: string[];
  allowedGrantTypes: string[];
}

const MAX_LIST = 50;
const MAX_TEXT = 255;
const URL_FIELDS = ["logo_uri", "client_uri", "policy_uri", "tos_uri"] as const;
const TEXT_FIELDS = ["software_id", "software_version"] as const;

export function invalidMetadata(description: string): IamError {
  return IamError.oauth("invalid_client_metadata", description);
}

function invalidRedirect(description: string): IamError {
  return IamError.oauth("invalid_redirect_uri", description);
}

/**
 * Reads client metadata (RFC 7591 section 2, OIDC Dynamic Client Registration 1.0 section 2) and
 * checks it against the realm's policy. Members Tessera does not understand are ignored (RFC 7591
 * section 2: "MUST ignore"); a member of the wrong type or value is 400 invalid_client_metadata,
 * a bad redirect URI invalid_redirect_uri (section 3.2.2), each naming the member.
 */
export function readRegistration(m: Record<string, unknown>, rules: RegistrationRules): RegistrationRequest {
  const method = optString(m, "token_endpoint_auth_method") ?? "client_secret_basic";
  if (!(TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(method)) {
    throw invalidMetadata(`token_endpoint_auth_method must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(", ")}`);
  }
  const grantTypes = unique(optStrings(m, "grant_types") ?? ["authorization_code"]);
  for (const g of grantTypes) {
    if (g === "implicit") throw invalidMetadata("grant_types: implicit is not supported (use authorization_code with PKCE)");
    if (!(GRANT_TYPES as readonly string[]).includes(g)) throw invalidMetadata(`grant_types: ${g} is not supported; supported: ${GRANT_TYPES.join(", ")}`);
    if (!rules.allowedGrantTypes.includes(g)) throw invalidMetadata(`grant_types: ${g} is not allowed by the realm's registration policy`);
  }
  if (grantTypes.length === 0) throw invalidMetadata("grant_types must name at least one grant type");
  const code = grantTypes.includes("authorization_code");
  // RFC 7591 section 2.1: response_types and grant_types must agree; "code" is the one response type.
  const responseTypes = unique(optStrings(m, "response_types") ?? (code ? ["code"] : []));
  for (const r of responseTypes) if (r !== "code") throw invalidMetadata(`response_types: ${r} is not supported; supported: code`);
  if (code !== responseTypes.includes("code")) throw invalidMetadata("response_types and grant_types disagree: response type code goes with grant type authorization_code (RFC 7591 section 2.1)");
  if (method === "none" && grantTypes.includes("client_credentials")) {
    throw invalidMetadata('grant_types: client_credentials needs a client that authenticates; token_endpoint_auth_method must not be "none"');
  }

  const redirectUris = redirectList(m, "redirect_uris", rules);
  if (code && redirectUris.length === 0) throw invalidRedirect("redirect_uris is required for the authorization_code grant");
  const postLogout = redirectList(m, "post_logout_redirect_uris", rules);

  const client: RegisteredClientFields = {
    name: text(m, "client_name") ?? "", clientType: method === "none" ? "PUBLIC" : "CONFIDENTIAL",
    redirectUris, grantTypes, tokenEndpointAuthMethod: method,
  };
  const jwks = m.jwks;
  if (jwks !== undefined && jwks !== null) {
    if (typeof jwks !== "object" || Array.isArray(jwks)) throw invalidMetadata("jwks must be a JWK Set object");
    client.jwks = jwks as Record<string, unknown>;
  }
  const jwksUri = optString(m, "jwks_uri");
  if (jwksUri !== undefined) client.jwksUri = jwksUri;
  if (client.jwks && client.jwksUri) throw invalidMetadata("jwks and jwks_uri must not both be present (RFC 7591 section 2)");
  const backchannel = optString(m, "backchannel_logout_uri");
  if (backchannel !== undefined) client.backchannelLogoutUri = backchannel;
  const sessionRequired = optBoolean(m, "backchannel_logout_session_required");
  if (sessionRequired !== undefined) client.backchannelLogoutSessionRequired = sessionRequired;
  const requestAlg = optString(m, "request_object_signing_alg");
  if (requestAlg !== undefined) client.requestObjectSignatureAlg = requestAlg;
  const par = optBoolean(m, "require_pushed_authorization_requests");
  if (par !== undefined) client.requirePushedAuthorizationRequests = par;

  const extra: Record<string, unknown> = { response_types: responseTypes };
  if (postLogout.length > 0) extra.post_logout_redirect_uris = postLogout;
  for (const f of URL_FIELDS) {
    const v = optString(m, f);
    if (v !== undefined) extra[f] = webUrl(f, v);
  }
  for (const f of TEXT_FIELDS) {
    const v = text(m, f);
    if (v !== undefined) extra[f] = v;
  }
  const contacts = optStrings(m, "contacts");
  if (contacts !== undefined) {
    if (contacts.length > MAX_LIST) throw invalidMetadata(`contacts must have at most ${MAX_LIST} entries`);
    contacts.forEach((c, i) => { if (c.length === 0 || c.length > 254 || /\s/.test(c)) throw invalidMetadata(`contacts[${i}] must be an email address`); });
    extra.contacts = contacts;
  }
  const scope = optString(m, "scope");
  if (scope !== undefined) {
    if (scope.length > 1024 || !/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/.test(scope)) {
      throw invalidMetadata("scope must be space-separated scope tokens (RFC 6749 section 3.3)");
    }
    extra.scope = scope;
  }
  const appType = optString(m, "application_type");
  if (appType !== undefined) {
    if (appType !== "web" && appType !== "native") throw invalidMetadata("application_type must be web or native");
    extra.application_type = appType;
  }
  return { client, extra };
}

/**
 * The client information response (RFC 7591 section 3.2.1; OIDC Registration 3.2): the metadata
 * as registered. The secret only when just issued; `registration_client_uri` is the gateway's.
 */
export function registrationView(c: ClientRecord, extra: Record<string, unknown>, token: string, secret?: string): Record<string, unknown> {
  const method = authMethodOf(c);
  const view: Record<string, unknown> = {
    client_id: c.clientId,
    client_id_issued_at: Math.floor(c.createdAt / 1000),
    ...(secret !== undefined ? { client_secret: secret } : {}),
    // Secrets do not expire (section 3.2.1: 0).
    ...(c.clientType === "CONFIDENTIAL" ? { client_secret_expires_at: 0 } : {}),
    registration_access_token: token,
    redirect_uris: c.redirectUris,
    grant_types: c.grantTypes,
    token_endpoint_auth_method: method,
    ...(c.name ? { client_name: c.name } : {}),
    ...(c.jwks && c.jwks.keys.length > 0 ? { jwks: c.jwks } : {}),
    ...(c.jwksUri ? { jwks_uri: c.jwksUri } : {}),
    ...(c.backchannelLogoutUri ? { backchannel_logout_uri: c.backchannelLogoutUri, backchannel_logout_session_required: c.backchannelLogoutSessionRequired } : {}),
    ...(c.requestObjectSignatureAlg ? { request_object_signing_alg: c.requestObjectSignatureAlg } : {}),
    require_pushed_authorization_requests: c.requirePushedAuthorizationRequests ?? false,
    ...extra,
  };
  return view;
}

/**
 * A refusal of the client administration the request went through, in the registration's terms:
 * the Admin API's member names (redirectUris[0], jwksUri) become RFC 7591's (redirect_uris[0], jwks_uri).
 */
export function asRegistrationError(e: unknown): unknown {
  if (!(e instanceof IamError) || e.code !== "invalidArgument" || e.oauthError) return e;
  const message = e.message.replace(/\b(redirectUris|jwksUri|jwks|backchannelLogoutUri|requestObjectSignatureAlg|tokenEndpointAuthMethod|grantTypes)\b/g, (n) => SNAKE[n] ?? n);
  return (e.field ?? "").startsWith("redirectUris") ? invalidRedirect(message) : invalidMetadata(message);
}

const SNAKE: Record<string, string> = {
  redirectUris: "redirect_uris", jwksUri: "jwks_uri", jwks: "jwks", backchannelLogoutUri: "backchannel_logout_uri",
  requestObjectSignatureAlg: "request_object_signing_alg", tokenEndpointAuthMethod: "token_endpoint_auth_method",
  grantTypes: "grant_types",
};

function redirectList(m: Record<string, unknown>, field: string, rules: RegistrationRules): string[] {
  const list = optStrings(m, field) ?? [];
  if (list.length > MAX_LIST) throw invalidRedirect(`${field} must have at most ${MAX_LIST} entries`);
  list.forEach((v, i) => {
    try {
      checkRedirectUri(`${field}[${i}]`, v);
    } catch (e) {
      throw invalidRedirect(e instanceof Error ? e.message : String(e));
    }
    const host = new URL(v).hostname.toLowerCase();
    if (rules.allowedRedirectUriHosts.length > 0 && !rules.allowedRedirectUriHosts.includes(host)) {
      throw invalidRedirect(`${field}[${i}]: host ${host} is not allowed by the realm's registration policy`);
    }
  });
  return unique(list);
}

function webUrl(field: string, v: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw invalidMetadata(`${field} must be an absolute URL`);
  }
  if ((u.protocol !== "https:" && u.protocol !== "http:") || v.length > 2048 || u.username || u.password) {
    throw invalidMetadata(`${field} must be an http or https URL without credentials, at most 2048 characters`);
  }
  return v;
}

function optString(m: Record<string, unknown>, field: string): string | undefined {
  const v = m[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw invalidMetadata(`${field} must be a string`);
  return v;
}

function text(m: Record<string, unknown>, field: string): string | undefined {
  const v = optString(m, field);
  if (v !== undefined && v.length > MAX_TEXT) throw invalidMetadata(`${field} must be at most ${MAX_TEXT} characters`);
  return v;
}

function optBoolean(m: Record<string, unknown>, field: string): boolean | undefined {
  const v = m[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw invalidMetadata(`${field} must be a boolean`);
  return v;
}

function optStrings(m: Record<string, unknown>, field: string): string[] | undefined {
  const v = m[field];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw invalidMetadata(`${field} must be an array of strings`);
  return v as string[];
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}
