import { createHash, randomBytes } from "node:crypto";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import { safeEqual, sha256Hex } from "../../../kit/src/crypto/random.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { IdentityProviderRecord } from "../domain/identity-provider.js";
import type { RealmRef } from "../domain/realm-ref.js";
import type { ProviderRepository } from "../store/provider-repository.js";
import type { AccountLinkBinding, LoginStateRecord, LoginStateRepository } from "../store/login-state-repository.js";
import { BrokerFailure, invalidState } from "./broker-failure.js";
import type { UpstreamClient } from "./upstream-client.js";
import type { UpstreamProfile } from "./upstream-profile.js";

/** What a parked state carries back to the callback: a login transaction's, or an account link's. */
export type StateBinding = { transactionId: string; csrfToken: string } | { link: AccountLinkBinding };

/**
 * The round trip to an upstream provider that brokered logins and account links share: the start
 * parks a state (single use: consumed atomically at the callback; signed: its id travels with a
 * MAC under the master key; browser-bound: the SHA-256 of the browser-binding cookie) with a
 * nonce and a PKCE verifier; the callback consumes it and gets the upstream account.
 */
export class UpstreamLeg {
  constructor(
    private readonly providers: ProviderRepository,
    private readonly states: LoginStateRepository,
    private readonly upstream: UpstreamClient,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    private readonly cfg: { publicUrl: string; stateTtlMs: number },
  ) {}

  /** An enabled, configured provider of the realm, or the BrokerFailure that says why not. */
  async provider(realm: RealmRef, alias: string): Promise<IdentityProviderRecord> {
    const p = await this.providers.findByAlias(realm.id, alias);
    if (!p) throw new BrokerFailure("identity_provider_not_found", `No identity provider "${alias}" in this realm.`, 404);
    if (!p.enabled) throw new BrokerFailure("identity_provider_disabled", `The identity provider "${alias}" is disabled.`, 400);
    // A provider imported from a document exported without includeSecrets has none until an
    // admin sets it: the upstream would refuse the code exchange anyway.
    if (p.clientSecretSealed === "") throw new BrokerFailure("identity_provider_not_configured", `The identity provider "${alias}" has no client secret set.`, 400);
    return p;
  }

  /**
   * Parks the state and answers the upstream's authorization URL (OIDC Core 3.1.2.1 nonce, RFC 7636
   * S256). `loginHint` goes along when the provider passes it (UpstreamClient.authorizationUrl).
   */
  async begin(realm: RealmRef, p: IdentityProviderRecord, browserId: string, binding: StateBinding, loginHint = ""): Promise<string> {
    const id = randomBytes(16).toString("base64url");
    const nonce = randomBytes(16).toString("base64url");
    const codeVerifier = randomBytes(32).toString("base64url");
    const now = this.clock.now();
    const bound = "link" in binding ? { transactionId: "", csrfToken: "", link: binding.link } : binding;
    await this.states.park({
      _id: id, realmId: realm.id, providerId: p._id, alias: p.alias, browserHash: sha256Hex(browserId),
      ...bound, nonce, codeVerifier, createdAt: now, expiresAt: now + this.cfg.stateTtlMs,
    });
    const state = `${id}.${this.secrets.mac("broker-state", `${realm.id}|${p.alias}|${id}`)}`;
    const challenge = createHash("sha256").update(codeVerifier).digest("base64url");
    return this.upstream.authorizationUrl(p, { state, nonce, challenge, redirectUri: this.callbackUrl(realm, p), loginHint });
  }

  /** The callback's state, consumed: refused when forged, unknown, expired, replayed or from another browser. */
  async consume(realm: RealmRef, alias: string, browserId: string, state: string): Promise<LoginStateRecord> {
    const [id = "", tag = ""] = state.split(".");
    if (!id || !tag || !this.secrets.verifyMac("broker-state", `${realm.id}|${alias}|${id}`, tag)) {
      throw invalidState("The login state is not valid. Please start again.");
    }
    const st = await this.states.consume(id);
    if (!st) throw invalidState("The login state is unknown, expired or was already used. Please start again.");
    if (!safeEqual(st.browserHash, sha256Hex(browserId))) throw invalidState("The login was started in another browser. Please start again.");
    return st;
  }

  /** The upstream account of the authorization response the state was consumed for. */
  async finish(realm: RealmRef, st: LoginStateRecord, alias: string, q: { code: string; error: string; iss: string }): Promise<{ p: IdentityProviderRecord; profile: UpstreamProfile }> {
    const p = await this.provider(realm, alias);
    if (p._id !== st.providerId) throw invalidState("The identity provider changed during the login. Please start again.");
    // RFC 9207 section 2.4: an authorization response naming another issuer is a mix-up, refused.
    if (q.iss && p.issuer && q.iss !== p.issuer) {
      throw new BrokerFailure("issuer_mismatch", "The authorization response came from another issuer.", 400);
    }
    // RFC 6749 section 4.1.2.1: the upstream refused or failed the authorization.
    if (q.error) {
      const error = q.error === "access_denied" ? "access_denied" : "identity_provider_error";
      throw new BrokerFailure(error, "The identity provider did not complete the login.", 400, `upstream_${q.error.slice(0, 64)}`);
    }
    if (!q.code) throw invalidState("The identity provider sent no authorization code.");
    return { p, profile: await this.upstream.profile(p, q.code, st.codeVerifier, this.callbackUrl(realm, p), st.nonce) };
  }

  callbackUrl(realm: RealmRef, p: IdentityProviderRecord): string {
    return `${this.cfg.publicUrl.replace(/\/+$/, "")}/realms/${encodeURIComponent(realm.name)}/broker/${encodeURIComponent(p.alias)}/callback`;
  }
}
