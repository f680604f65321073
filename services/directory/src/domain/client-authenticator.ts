import { createHash, randomBytes } from "node:crypto";
import { compactVerify } from "jose";
import { IamError } from "../../../kit/src/errors.js";
import { randomToken, safeEqual } from "../../../kit/src/crypto/random.js";
import { authMethodOf, type ClientRecord } from "./client.js";
import type { ClientAdmin } from "./client-admin.js";
import type { RealmAccess } from "./realm-access.js";
import type { ClientRepository } from "../store/client-repository.js";
import type { ClientTokenConfigs } from "./client-token-configs.js";
import { consentText, onConsentScreen } from "./consent-screen.js";
import { introspectionDiffers } from "./claims-engine.js";

/** One of a client's scopes as the consent screen sees it (iam.directory.v1.ConsentScreenScope). */
export interface ConsentScreenScope {
  name: string;
  isDefault: boolean;
  onConsentScreen: boolean;
  consentText: string;
}

/** A client with a one-way verifier of its secret (see `verifier`). */
export interface ClientVerifier {
  client: ClientRecord;
  /** Empty for PUBLIC clients and clients without a secret. */
  salt: Buffer;
  /** SHA-256(salt || secret); empty with `salt`. */
  digest: Buffer;
  /** The names of the client's default and optional client scopes. */
  scopeNames: string[];
  /** The same scopes, in name order, for the consent screen. */
  scopes: ConsentScreenScope[];
  /** Some mapper of those scopes writes to introspection otherwise than to the access token. */
  introspectionClaimsDiffer: boolean;
}

/** Compared against when there is nothing to compare, so unknown clients take the same time. */
const DUMMY_SECRET = randomToken();

/**
 * Client authentication for the token service (RFC 6749 section 2.3.1). Every failure is the same
 * `invalid_client` (section 5.2): unknown realm or client, disabled realm or client, wrong or
 * missing secret.
 * A PUBLIC client has no secret and is identified by its clientId (it proves itself with PKCE);
 * a secret sent by a PUBLIC client is refused, as it signals a misconfigured caller.
 */
export class ClientAuthenticator {
  constructor(
    private readonly realms: RealmAccess,
    private readonly repo: ClientRepository,
    private readonly admin: ClientAdmin,
    private readonly configs: ClientTokenConfigs,
  ) {}

  async authenticate(realmName: string, clientId: string, secret: string): Promise<ClientRecord> {
    const realm = await this.realms.byName(realmName).catch((e: unknown) => {
      if (e instanceof IamError && e.code === "notFound") return null;
      throw e;
    });
    // A disabled realm authenticates nobody (its clients are as good as unknown).
    const client = realm?.enabled && clientId ? await this.repo.findByClientId(realm._id, clientId) : null;
    if (client?.clientType === "PUBLIC") {
      if (secret || !client.enabled) throw invalidClient();
      return client;
    }
    const stored = client ? this.admin.openSecret(client) : undefined;
    const match = safeEqual(secret, stored ?? DUMMY_SECRET) && stored !== undefined && secret !== "";
    // A client registered for a JWT method may not fall back to its secret (OIDC Core 1.0 section 9).
    const bySecret = client ? ["client_secret_basic", "client_secret_post"].includes(authMethodOf(client)) : false;
    if (!client || !match || !client.enabled || !bySecret) throw invalidClient();
    return client;
  }

  /**
   * Checks the HS256 signature of a client_secret_jwt assertion (RFC 7523 section 3 item 9, OIDC
   * Core 1.0 section 9: an HMAC keyed with the client secret's UTF-8 octets) for a client
   * registered for client_secret_jwt. Only the signature: the token service, which asked, checks
   * the claims and spends the jti. Every failure is the same invalid_client.
   */
  async verifyClientSecretJwt(realmName: string, clientId: string, assertion: string): Promise<void> {
    const realm = await this.realms.byName(realmName).catch((e: unknown) => {
      if (e instanceof IamError && e.code === "notFound") return null;
      throw e;
    });
    const client = realm?.enabled && clientId ? await this.repo.findByClientId(realm._id, clientId) : null;
    const secret = client?.enabled && authMethodOf(client) === "client_secret_jwt" ? this.admin.openSecret(client) : undefined;
    // Unknown clients cost the same HMAC as known ones.
    const key = Buffer.from(secret ?? DUMMY_SECRET, "utf8");
    const ok = await compactVerify(assertion, key, { algorithms: ["HS256"] }).then(() => true, () => false);
    if (!ok || !secret) throw invalidClient();
  }

  /**
   * The client and a salted SHA-256 verifier of its secret, for the token service's local check
   * (docs/performance.md: no AuthenticateClient RPC per token request). The secret is 256
   * random bits, so the digest cannot be inverted; it is not the secret, so a leak of the token
   * service's cache is not a usable credential; the per-reply salt defeats precomputed tables.
   * Unknown client or realm is NotFound. A disabled realm's clients are returned (as GetClient
   * does): the token service refuses disabled realms before it authenticates anyone.
   * Read from the store, not this replica's realm and token configuration caches: the token
   * service caches the answer (ClientDirectory), and refills its entry right after the event that
   * dropped it, perhaps from a replica that has not processed that event yet.
   */
  async verifier(realmName: string, clientId: string): Promise<ClientVerifier> {
    const realm = await this.realms.current(realmName).catch((e: unknown) => {
      if (e instanceof IamError && e.code === "notFound") return null;
      throw e;
    });
    const client = realm && clientId ? await this.repo.findByClientId(realm._id, clientId) : null;
    if (!client) throw IamError.notFound("client", "client_not_found");
    const config = await this.configs.current(realm!._id, clientId);
    const assigned = config?.scopes ?? [];
    const scopeNames = assigned.map((s) => s.scope.name);
    const scopes = assigned.map(({ scope, kind }) => ({
      name: scope.name, isDefault: kind === "default", onConsentScreen: onConsentScreen(scope), consentText: consentText(scope),
    }));
    const described = { scopeNames, scopes, introspectionClaimsDiffer: introspectionDiffers(config?.mappers ?? []) };
    const secret = client.clientType === "PUBLIC" ? undefined : this.admin.openSecret(client);
    if (!secret) return { client, salt: Buffer.alloc(0), digest: Buffer.alloc(0), ...described };
    const salt = randomBytes(16);
    return { client, salt, digest: createHash("sha256").update(salt).update(secret, "utf8").digest(), ...described };
  }
}

function invalidClient(): IamError {
  return new IamError({
    code: "unauthenticated", reason: "invalid_client", oauthError: "invalid_client", message: "client authentication failed",
  });
}
