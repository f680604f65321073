import type { KeyRing } from "../domain/key-ring.js";
import { issuerOf, type FlowRealm } from "./flow-realms.js";

/** What an id_token_hint tells the authorization and logout endpoints. */
export interface IdTokenHint {
  sub: string;
  /** The client the ID token was issued to (azp, else the first aud). */
  clientId: string;
  /** The SSO session it belongs to; "" when the token carries none. */
  sid: string;
}

/**
 * Reads an id_token_hint (OIDC Core 1.0 section 3.1.2.1; RP-Initiated Logout 1.0 section 2): a
 * token this realm signed, for this realm's issuer, and an ID token: Tessera's access tokens verify
 * with the same keys, and one of them must not stand in for an ID token (their `typ` is "Bearer",
 * an ID token's "ID", as in Keycloak). Expiry is not checked: an expired ID token is still a valid
 * hint. Null when the hint is not valid.
 */
export async function readIdTokenHint(keys: KeyRing, realm: FlowRealm, baseUrl: string, token: string): Promise<IdTokenHint | null> {
  try {
    const claims = await keys.verifySignature(realm, token);
    if (claims.iss !== issuerOf(baseUrl, realm.name) || typeof claims.sub !== "string" || claims.typ !== "ID") return null;
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const clientId = typeof claims.azp === "string" ? claims.azp : String(aud[0] ?? "");
    return { sub: claims.sub, clientId, sid: typeof claims.sid === "string" ? claims.sid : "" };
  } catch {
    return null;
  }
}
