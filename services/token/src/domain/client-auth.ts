import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { ClientCredentials, ClientDirectory, ClientInfo, SecretVerifier } from "./client-directory.js";
import { AssertionRefused, type ClientAssertions } from "./client-assertion.js";

export interface PresentedClient {
  clientId: string;
  clientSecret: string;
  /** RFC 7521 section 4.2's client_assertion_type and client_assertion ("" when not sent). */
  clientAssertionType?: string;
  clientAssertion?: string;
  /** The realm's issuer as this request addresses it: what an assertion's `aud` must name. */
  issuer?: string;
}

/** The methods that present the secret itself (Keycloak's "client-secret" takes both). */
const SECRET_METHODS = new Set(["client_secret_basic", "client_secret_post"]);

/** Checked against when there is no verifier, so unknown clients cost the same hash and compare. */
const DUMMY: SecretVerifier = { salt: randomBytes(16), digest: randomBytes(32) };

/**
 * Client authentication at the protocol endpoints (RFC 6749 section 2.3): client_secret_basic and
 * client_secret_post are checked here, in constant time, against the salted SHA-256 verifier the
 * ClientDirectory caches (docs/performance.md: no directory RPC per token request when
 * warm; the directory's AuthenticateClient stays for other callers). PUBLIC clients authenticate
 * with "none" (their clientId only) and may not send a secret. Every failure is `invalid_client`
 * (section 5.2), rendered 401. Callers have already refused unknown and disabled realms.
 */
export class ClientAuth {
  constructor(private readonly clients: ClientDirectory, private readonly assertions?: ClientAssertions) {}

  /**
   * The authenticated client; answered at once, not as a promise, when the client's credentials are
   * in the cache: on the token endpoint's hot path every promise costs a hook call under Node 20's
   * AsyncLocalStorage (docs/performance.md). Throws or rejects with `invalid_client`.
   */
  authenticate(realm: string, presented: PresentedClient | undefined): ClientInfo | Promise<ClientInfo> {
    if (presented?.clientAssertion || presented?.clientAssertionType) return this.byAssertion(realm, presented);
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
    // A client registered for a JWT method cannot fall back to its secret (OIDC Core 1.0 section 9).
    const bySecret = found !== null && SECRET_METHODS.has(found.info.tokenEndpointAuthMethod);
    const verifier = found?.verifier ?? DUMMY;
    const digest = createHash("sha256").update(verifier.salt).update(secret, "utf8").digest();
    const match = verifier.digest.length === digest.length && timingSafeEqual(digest, verifier.digest) && found?.verifier !== undefined && secret !== "";
    if (!found || !match || !found.info.enabled || !bySecret) throw invalidClient("client authentication failed");
    return found.info;
  }

  /**
   * private_key_jwt or client_secret_jwt (RFC 7523 section 2.2). The refusal says nothing of
   * which check failed (RFC 6749 section 5.2 invalid_client; the reason would help a forger).
   */
  private async byAssertion(realm: string, presented: PresentedClient): Promise<ClientInfo> {
    if (!this.assertions || presented.clientSecret) throw invalidClient("client authentication failed");
    try {
      return await this.assertions.authenticate(realm, presented.issuer ?? "", presented.clientAssertionType ?? "", presented.clientAssertion ?? "", presented.clientId);
    } catch (e) {
      // Anything else (the store, the directory) is the server's failure, not the client's.
      if (e instanceof AssertionRefused) throw invalidClient("client authentication failed");
      throw e;
    }
  }
}

export function invalidClient(message: string): IamError {
  return IamError.oauth("invalid_client", message, "unauthenticated");
}
