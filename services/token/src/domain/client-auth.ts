import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { ClientCredentials, ClientDirectory, ClientInfo, SecretVerifier } from "./client-directory.js";

export interface PresentedClient {
  clientId: string;
  clientSecret: string;
}

/** Checked against when there is no verifier, so unknown clients cost the same hash and compare. */
const DUMMY: SecretVerifier = { salt: randomBytes(16), digest: randomBytes(32) };

/**
 * Client authentication at the protocol endpoints (RFC 6749 section 2.3): client_secret_basic and
 * client_secret_post are checked here, in constant time, against the salted SHA-256 verifier the
 * ClientDirectory caches (issue 4, performance design: no directory RPC per token request when
 * warm; the directory's AuthenticateClient stays for other callers). PUBLIC clients authenticate
 * with "none" (their clientId only) and may not send a secret. Every failure is `invalid_client`
 * (section 5.2), rendered 401. Callers have already refused unknown and disabled realms.
 */
export class ClientAuth {
  constructor(private readonly clients: ClientDirectory) {}

  /**
   * The authenticated client; answered at once, not as a promise, when the client's credentials are
   * in the cache: on the token endpoint's hot path every promise costs a hook call under Node 20's
   * AsyncLocalStorage (issue 4, performance design). Throws or rejects with `invalid_client`.
   */
  authenticate(realm: string, presented: PresentedClient | undefined): ClientInfo | Promise<ClientInfo> {
    const clientId = presented?.clientId ?? "";
    if (!clientId) throw invalidClient("client authentication required");
    const cached = this.clients.cachedCredentials(realm, clientId);
    if (cached) return this.check(cached, presented?.clientSecret ?? "");
    return this.clients.credentials(realm, clientId).then((found) => this.check(found, presented?.clientSecret ?? ""));
  }

  private check(found: ClientCredentials | null, secret: string): ClientInfo {
    if (found?.info.clientType === "PUBLIC") {
      if (secret || !found.info.enabled) throw invalidClient("client authentication failed");
      return found.info;
    }
    const verifier = found?.verifier ?? DUMMY;
    const digest = createHash("sha256").update(verifier.salt).update(secret, "utf8").digest();
    const match = verifier.digest.length === digest.length && timingSafeEqual(digest, verifier.digest) && found?.verifier !== undefined && secret !== "";
    if (!found || !match || !found.info.enabled) throw invalidClient("client authentication failed");
    return found.info;
  }
}

export function invalidClient(message: string): IamError {
  return IamError.oauth("invalid_client", message, "unauthenticated");
}
