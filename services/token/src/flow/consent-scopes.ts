import type { ClientInfo } from "../domain/client-directory.js";
import { grantableScopes } from "../domain/offline-access.js";
import { baseScopeName } from "../../../kit/src/validation/organization-scope.js";

/** A scope on the consent page: its name (what a consent records) and the text shown for it. */
export interface ConsentScope {
  name: string;
  text: string;
}

/**
 * What a consent to this request covers (OIDC Core 1.0 section 3.1.2.4: the user consents to what
 * the client will receive). The tokens carry the client's default scopes and the requested
 * optional ones (the directory's ClaimsResolver; `offline_access` only for a client with refresh
 * tokens, offline-access.ts), so those of them the consent screen lists (Keycloak's "Display on
 * consent screen"), in the client's order. `openid` is the protocol, not a client scope.
 */
export function consentScopesOf(client: ClientInfo, scope: string): ConsentScope[] {
  // `organization:<alias>` asks for the client scope "organization" (organization-scope.ts).
  const requested = new Set(grantableScopes(scope.split(" ").filter(Boolean), client).map(baseScopeName));
  return client.scopes
    .filter((s) => s.onConsentScreen && (s.isDefault || requested.has(s.name)))
    .map((s) => ({ name: s.name, text: s.consentText }));
}
