import { createHash } from "node:crypto";
import { safeEqual } from "../../../kit/src/crypto/random.js";

/**
 * The hash of Keycloak's client-initiated account linking (Keycloak's LinkedAccountsResource and
 * IdentityBrokerService.clientInitiatedAccountLinking): base64url without padding of
 * SHA-256(nonce + sessionId + clientId + providerAlias), over the UTF-8 bytes. The session is the
 * SSO session (the access token's `sid`, Keycloak's `session_state`), so only the browser that
 * holds that session's cookie can use a link made for it.
 */
export function accountLinkHash(nonce: string, sessionId: string, clientId: string, alias: string): string {
  return createHash("sha256").update(`${nonce}${sessionId}${clientId}${alias}`, "utf8").digest("base64url");
}

/** Whether `hash` is the link hash of these values; padding (`=`) is tolerated as Keycloak's decoder does. */
export function accountLinkHashMatches(hash: string, nonce: string, sessionId: string, clientId: string, alias: string): boolean {
  return safeEqual(hash.replace(/=+$/, ""), accountLinkHash(nonce, sessionId, clientId, alias));
}
