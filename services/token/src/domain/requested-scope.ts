import { baseScopeName } from "../../../kit/src/validation/organization-scope.js";
import type { ClientInfo } from "./client-directory.js";

/** RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

export function isScopeToken(name: string): boolean {
  return SCOPE_TOKEN.test(name);
}

/** The requested names (deduplicated, in order), or why the request is `invalid_scope`. */
export type RequestedScope = { ok: true; names: string[] } | { ok: false; description: string };

/**
 * The rule of the endpoints where a client asks for a scope before any user is known: the
 * authorization endpoint (RFC 6749 sections 3.3 and 4.1.2.1) and the device authorization endpoint
 * (RFC 8628 section 3.2, whose errors are RFC 6749 section 5.2's). A name must be `openid` or one of
 * the client's default or optional client scopes; anything else is refused up front, as Keycloak
 * does, rather than shown on the consent page and then refused by the token endpoint once the user
 * approved. The token endpoint still checks again at issue time (the client may have lost a scope).
 */
export function checkRequestedScope(client: ClientInfo, scope: string | undefined): RequestedScope {
  const names = [...new Set((scope ?? "").split(" ").filter(Boolean))];
  if (names.some((s) => !isScopeToken(s))) return { ok: false, description: "The scope is malformed." };
  // `organization:<alias>` is the dynamic form of the client scope "organization" (Keycloak 26).
  const unknown = names.filter((s) => s !== "openid" && !client.scopeNames.includes(baseScopeName(s)));
  if (unknown.length) return { ok: false, description: `Invalid scopes: ${unknown.join(" ")}.` };
  return { ok: true, names };
}
