import { randomUUID } from "node:crypto";
import { MAPPER_TYPES } from "../../../../services/kit/src/validation/mapper-types.js";

type Json = Record<string, any>;
export type Note = (path: string, message: string) => void;

/** Keycloak's own clients: its consoles and internals, meaningless outside Keycloak. */
export const KEYCLOAK_BUILTIN_CLIENTS = new Set(["account", "account-console", "admin-cli", "broker", "realm-management", "security-admin-console"]);

const NAME_ID: Record<string, string> = {
  email: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
  persistent: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
  transient: "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
  username: "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
  unspecified: "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
};

/** Tessera's mapper from Keycloak's, or undefined (noted) for a type Tessera does not run; unknown config keys are noted and dropped. */
export function convertMapper(m: Json, path: string, note: Note): Json | undefined {
  const type = String(m.protocolMapper ?? "");
  const spec = MAPPER_TYPES[type];
  if (!spec || m.protocol === "saml") {
    note(path, `protocol mapper type "${type}" has no equivalent`);
    return undefined;
  }
  const config: Record<string, string> = {};
  for (const [k, v] of Object.entries((m.config ?? {}) as Json)) {
    if (spec.keys.includes(k)) config[k] = String(v);
    else note(`${path}.config["${k}"]`, `mapper setting "${k}" has no equivalent`);
  }
  return { id: m.id ?? randomUUID(), name: String(m.name), mapperType: type, protocol: "openid-connect", config };
}

/** Client scopes: OIDC ones with their mappers; SAML ones are noted (Tessera's SAML attributes live on the SP). */
export function convertScopes(kc: Json, note: Note): Json[] {
  const out: Json[] = [];
  (kc.clientScopes ?? []).forEach((s: Json, i: number) => {
    const p = `$.clientScopes[${i}]`;
    if (s.protocol === "saml") {
      note(p, `SAML client scope "${s.name}" has no equivalent (set attributeStatements on the SAML service provider)`);
      return;
    }
    out.push({
      id: s.id ?? randomUUID(), name: String(s.name), ...(s.description ? { description: String(s.description) } : {}), protocol: "openid-connect",
      protocolMappers: (s.protocolMappers ?? []).map((m: Json, j: number) => convertMapper(m, `${p}.protocolMappers[${j}]`, note)).filter(Boolean),
    });
  });
  return out;
}

/**
 * Keycloak clients to Tessera's: `publicClient` becomes clientType PUBLIC, the flow switches become
 * grantTypes (standardFlowEnabled: authorization_code + refresh_token; directAccessGrantsEnabled:
 * password; serviceAccountsEnabled: client_credentials; the device grant attribute), a client's own
 * mappers become its dedicated scope (as Keycloak 22+ shows them), SAML clients become SAML
 * service providers. Redirect URIs and web origins are matched exactly in Tessera: wildcards are
 * noted and left out, relative ones resolved against rootUrl, web origin "+" expanded.
 */
export function convertClients(kc: Json, scopes: Json[], note: Note): { clients: Json[]; samlServiceProviders: Json[] } {
  const clients: Json[] = [];
  const samlServiceProviders: Json[] = [];
  const scopeNames = new Set(scopes.map((s) => s.name));
  (kc.clients ?? []).forEach((c: Json, i: number) => {
    const p = `$.clients[${i}]`;
    if (KEYCLOAK_BUILTIN_CLIENTS.has(c.clientId)) {
      note(p, `Keycloak's built-in client "${c.clientId}" is not carried over, nor role mappings to its roles`);
      return;
    }
    if (c.authorizationSettings) note(`${p}.authorizationSettings`, "fine-grained authorization (resources, policies, permissions) has no equivalent");
    if (c.protocol === "saml") {
      samlServiceProviders.push(samlClient(c, p, note));
      return;
    }
    const attrs = (c.attributes ?? {}) as Json;
    const grantTypes: string[] = [];
    if (c.standardFlowEnabled !== false) grantTypes.push("authorization_code", "refresh_token");
    if (c.directAccessGrantsEnabled === true) grantTypes.push("password");
    if (c.serviceAccountsEnabled === true && c.publicClient !== true) grantTypes.push("client_credentials");
    if (attrs["oauth2.device.authorization.grant.enabled"] === "true") grantTypes.push("urn:ietf:params:oauth:grant-type:device_code");
    if (c.directAccessGrantsEnabled === true && !grantTypes.includes("refresh_token")) grantTypes.push("refresh_token");
    if (c.implicitFlowEnabled === true) note(`${p}.implicitFlowEnabled`, "the implicit flow has no equivalent (OAuth 2.0 Security BCP)");
    if (c.bearerOnly === true) note(`${p}.bearerOnly`, "bearer-only has no equivalent: the client is imported as CONFIDENTIAL");
    const redirectUris = uris(c.redirectUris ?? [], c.rootUrl, `${p}.redirectUris`, note);
    const origins = new Set<string>();
    (c.webOrigins ?? []).forEach((o: string, j: number) => {
      if (o === "+") for (const u of redirectUris) origins.add(new URL(u).origin);
      else if (o.includes("*")) note(`${p}.webOrigins[${j}]`, `web origin "${o}" has no equivalent (origins are matched exactly)`);
      else origins.add(o);
    });
    const secret = typeof c.secret === "string" && c.secret !== "" && !/^\*+$/.test(c.secret) && c.publicClient !== true ? c.secret : undefined;
    const mappers = (c.protocolMappers ?? []).map((m: Json, j: number) => convertMapper(m, `${p}.protocolMappers[${j}]`, note)).filter(Boolean);
    const defaults = (c.defaultClientScopes ?? []).filter((s: string, j: number) => known(s, scopeNames, `${p}.defaultClientScopes[${j}]`, note));
    if (mappers.length) {
      const name = `${c.clientId}-dedicated`;
      scopes.push({ id: randomUUID(), name, description: `Mappers of client ${c.clientId}`, protocol: "openid-connect", protocolMappers: mappers });
      scopeNames.add(name);
      defaults.push(name);
      note(`${p}.protocolMappers`, `the client's own mappers became its default client scope "${name}"`);
    }
    clients.push({
      id: c.id ?? randomUUID(), clientId: String(c.clientId), name: String(c.name ?? ""), description: String(c.description ?? ""),
      clientType: c.publicClient === true ? "PUBLIC" : "CONFIDENTIAL", enabled: c.enabled !== false,
      redirectUris, webOrigins: [...origins], grantTypes, requireConsent: c.consentRequired === true,
      backchannelLogoutUri: String(attrs["backchannel.logout.url"] ?? ""),
      backchannelLogoutSessionRequired: attrs["backchannel.logout.session.required"] === "true",
      ...requestObjectSettings(attrs, p, note),
      // Keycloak 26's standard token exchange switch (RFC 8693), which it offers confidential clients only.
      ...(attrs["standard.token.exchange.enabled"] === "true" && c.publicClient !== true ? { standardTokenExchangeEnabled: true } : {}),
      ...tokenSigningAlgs(attrs, p, note),
      ...(secret ? { secret } : {}),
      defaultClientScopes: defaults,
      optionalClientScopes: (c.optionalClientScopes ?? []).filter((s: string, j: number) => known(s, scopeNames, `${p}.optionalClientScopes[${j}]`, note)),
      roles: [],
    });
  });
  return { clients, samlServiceProviders };
}

function samlClient(c: Json, p: string, note: Note): Json {
  const a = (c.attributes ?? {}) as Json;
  const cert = a["saml.signing.certificate"] as string | undefined;
  if (a["saml.encrypt"] === "true") note(`${p}.attributes["saml.encrypt"]`, "encrypted assertions have no equivalent");
  return {
    id: c.id ?? randomUUID(), entityId: String(c.clientId), name: String(c.name || c.clientId), enabled: c.enabled !== false,
    acsUrl: String(a.saml_assertion_consumer_url_post ?? a.saml_assertion_consumer_url_redirect ?? (c.redirectUris ?? [])[0] ?? c.adminUrl ?? ""),
    ...(a.saml_single_logout_service_url_post ? { sloUrl: String(a.saml_single_logout_service_url_post) } : {}),
    ...(cert ? { certificate: `-----BEGIN CERTIFICATE-----\n${cert.replace(/(.{64})/g, "$1\n").trim()}\n-----END CERTIFICATE-----\n` } : {}),
    nameIdFormat: NAME_ID[String(a.saml_name_id_format ?? "username")] ?? NAME_ID.unspecified,
    signAssertions: a["saml.assertion.signature"] === "true", signResponses: a["saml.server.signature"] !== "false",
    attributeStatements: {},
    ...(a["saml.client.signature"] !== undefined ? { requireSignedRequests: a["saml.client.signature"] === "true" && !!cert } : {}),
  };
}

function uris(list: string[], rootUrl: unknown, path: string, note: Note): string[] {
  const out: string[] = [];
  list.forEach((u, j) => {
    const abs = u.startsWith("/") && typeof rootUrl === "string" && rootUrl ? rootUrl.replace(/\/$/, "") + u : u;
    if (abs.includes("*")) note(`${path}[${j}]`, `redirect URI "${u}" has no equivalent: Tessera matches redirect URIs exactly (RFC 9700 section 4.1.3)`);
    else if (abs.startsWith("/")) note(`${path}[${j}]`, `relative redirect URI "${u}" has no equivalent without the client's rootUrl`);
    else out.push(abs);
  });
  return out;
}

function known(scope: string, names: Set<string>, path: string, note: Note): boolean {
  if (names.has(scope)) return true;
  note(path, `client scope "${scope}" is not in the document (or has no equivalent)`);
  return false;
}

const TOKEN_SIGNING_ALGS = new Set(["RS256", "PS256", "ES256", "EdDSA"]);

/**
 * Keycloak's per-client token signature algorithms: `id.token.signed.response.alg` (OIDC
 * Registration 2's id_token_signed_response_alg) and `access.token.signed.response.alg`. One Tessera
 * cannot sign with (RS384, ES512, HS256, ...) is noted and the realm's is used instead.
 */
function tokenSigningAlgs(attrs: Json, p: string, note: Note): Json {
  const out: Json = {};
  for (const [attr, field] of [["id.token.signed.response.alg", "idTokenSignedResponseAlg"], ["access.token.signed.response.alg", "accessTokenSignedResponseAlg"]] as const) {
    const alg = attrs[attr];
    if (typeof alg !== "string" || alg === "") continue;
    if (TOKEN_SIGNING_ALGS.has(alg)) out[field] = alg;
    else note(`${p}.attributes["${attr}"]`, `signature algorithm "${alg}" is not supported: the realm's algorithm is used`);
  }
  return out;
}

const REQUEST_OBJECT_ALGS = new Set(["any", "none", "RS256", "PS256", "ES256", "EdDSA"]);

/**
 * Keycloak's request object and PAR attributes (RFC 9101, RFC 9126): the signature algorithm, the
 * PAR requirement, and the keys when given by value (`use.jwks.string`); a `jwks.url` is noted,
 * since keys are only taken by value.
 */
function requestObjectSettings(attrs: Json, p: string, note: Note): Json {
  const out: Json = { requirePushedAuthorizationRequests: attrs["require.pushed.authorization.requests"] === "true" };
  // Keycloak's "DPoP bound access tokens" switch (RFC 9449).
  if (attrs["dpop.bound.access.tokens"] === "true") out.dpopBoundAccessTokens = true;
  const alg = attrs["request.object.signature.alg"];
  if (typeof alg === "string" && alg !== "") {
    if (REQUEST_OBJECT_ALGS.has(alg)) out.requestObjectSignatureAlg = alg;
    else note(`${p}.attributes["request.object.signature.alg"]`, `request object algorithm "${alg}" is not supported: any supported signed algorithm is accepted`);
  }
  if (attrs["use.jwks.string"] === "true" && typeof attrs["jwks.string"] === "string") {
    try {
      out.jwks = JSON.parse(attrs["jwks.string"]);
    } catch {
      note(`${p}.attributes["jwks.string"]`, "the key set is not JSON: not carried over");
    }
  } else if (attrs["use.jwks.url"] === "true" && attrs["jwks.url"]) {
    note(`${p}.attributes["jwks.url"]`, "keys are taken by value only: set the client's jwks");
  }
  return out;
}
