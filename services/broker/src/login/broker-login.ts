import { createHash, randomBytes } from "node:crypto";
import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { AuthenticationService, AuthOutcome } from "../../../../gen/iam/directory/v1/authentication_pb.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import { safeEqual, sha256Hex } from "../../../kit/src/crypto/random.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { IdentityProviderRecord } from "../domain/identity-provider.js";
import type { RealmLookup, RealmRef } from "../domain/realm-ref.js";
import type { BrokerEvents } from "../events/broker-events.js";
import type { ProviderRepository } from "../store/provider-repository.js";
import type { LoginStateRepository, PendingLinkRecord } from "../store/login-state-repository.js";
import type { AccountLinker } from "./account-linker.js";
import { BrokerFailure, invalidState } from "./broker-failure.js";
import type { UpstreamClient } from "./upstream-client.js";
import type { UpstreamProfile } from "./upstream-profile.js";

export interface BrowserCall {
  realm: string;
  alias: string;
  browserId: string;
  ipAddress: string;
}

export type BrokerResult =
  | { kind: "authenticated"; userId: string; transactionId: string; csrfToken: string; alias: string }
  | { kind: "confirm_link"; pending: string; username: string; providerDisplayName: string; message: string }
  | { kind: "error"; error: string; description: string; status: number };

/** How long the confirm-link page may stay open. */
const PENDING_LINK_TTL_MS = 10 * 60_000;
const WRONG_PASSWORD = "Invalid password.";

/**
 * Brokered login (spec 4.19): the start parks a state (single use: consumed atomically at the
 * callback; signed: its id travels with a MAC under the master key; browser-bound: the SHA-256 of
 * the browser-binding cookie) with a nonce and a PKCE verifier; the callback consumes it, gets the
 * upstream account and maps it to a local user. Failures are answered as error pages, never as a
 * redirect to the client.
 */
export class BrokerLogin {
  private readonly auth: Client<typeof AuthenticationService>;

  constructor(
    private readonly providers: ProviderRepository,
    private readonly states: LoginStateRepository,
    private readonly realms: RealmLookup,
    private readonly upstream: UpstreamClient,
    private readonly accounts: AccountLinker,
    private readonly events: BrokerEvents,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    private readonly cfg: { publicUrl: string; stateTtlMs: number },
    directory: Transport,
    /** Counts a callback's or confirmation's result (tessera_broker_logins_total). */
    private readonly count: (result: "login" | "first_login" | "linked" | "confirm_link" | "error") => void = () => {},
  ) {
    this.auth = createClient(AuthenticationService, directory);
  }

  /** The enabled providers, for the login page's buttons. */
  async loginProviders(realmName: string): Promise<IdentityProviderRecord[]> {
    const realm = await this.realms.published(realmName);
    return this.providers.listEnabled(realm.id);
  }

  /** `loginHint`: who the user said they are (the client's login_hint, or the email typed), "" when unknown. */
  async start(call: BrowserCall, transactionId: string, csrfToken: string, loginHint = ""): Promise<{ redirect: string } | BrokerResult> {
    const realm = await this.realms.published(call.realm);
    try {
      const p = await this.provider(realm, call.alias);
      if (!transactionId || !csrfToken || !call.browserId) throw invalidState("The login request is not valid. Please start again.");
      const id = randomBytes(16).toString("base64url");
      const nonce = randomBytes(16).toString("base64url");
      const codeVerifier = randomBytes(32).toString("base64url");
      const now = this.clock.now();
      await this.states.park({
        _id: id, realmId: realm.id, providerId: p._id, alias: p.alias, browserHash: sha256Hex(call.browserId),
        transactionId, csrfToken, nonce, codeVerifier, createdAt: now, expiresAt: now + this.cfg.stateTtlMs,
      });
      const state = `${id}.${this.secrets.mac("broker-state", `${realm.id}|${p.alias}|${id}`)}`;
      const challenge = createHash("sha256").update(codeVerifier).digest("base64url");
      return { redirect: this.upstream.authorizationUrl(p, { state, nonce, challenge, redirectUri: this.callbackUrl(realm, p), loginHint: loginHint.trim().slice(0, 255) }) };
    } catch (e) {
      return this.failed(realm, call, "IDENTITY_PROVIDER_LOGIN_ERROR", e);
    }
  }

  async callback(call: BrowserCall, q: { state: string; code: string; error: string; iss: string }): Promise<BrokerResult> {
    const realm = await this.realms.published(call.realm);
    try {
      const st = await this.consumeState(realm, call, q.state);
      const p = await this.provider(realm, call.alias);
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
      const profile = await this.upstream.profile(p, q.code, st.codeVerifier, this.callbackUrl(realm, p), st.nonce);
      const resolved = await this.accounts.resolve(realm, p, profile);
      if (resolved.kind === "confirm") {
        this.count("confirm_link");
        return this.askToConfirm(realm, p, st, profile, resolved.user.id, resolved.user.username);
      }
      if (resolved.how === "created") await this.events.record(realm, { type: "IDENTITY_PROVIDER_FIRST_LOGIN", alias: p.alias, userId: resolved.userId, ipAddress: call.ipAddress });
      if (resolved.how === "linked") await this.events.record(realm, { type: "IDENTITY_PROVIDER_LINK_ACCOUNT", alias: p.alias, userId: resolved.userId, ipAddress: call.ipAddress, details: { link_method: "trusted_email" } });
      await this.events.record(realm, { type: "IDENTITY_PROVIDER_LOGIN", alias: p.alias, userId: resolved.userId, ipAddress: call.ipAddress });
      this.count(resolved.how === "created" ? "first_login" : resolved.how === "linked" ? "linked" : "login");
      return { kind: "authenticated", userId: resolved.userId, transactionId: st.transactionId, csrfToken: st.csrfToken, alias: p.alias };
    } catch (e) {
      return this.failed(realm, call, "IDENTITY_PROVIDER_LOGIN_ERROR", e);
    }
  }

  /** The confirm-link page's password: the directory's AuthenticatePassword (lockout and its counting apply). */
  async confirmLink(call: BrowserCall, pending: string, password: string): Promise<BrokerResult> {
    const realm = await this.realms.published(call.realm);
    try {
      const p = await this.provider(realm, call.alias);
      const link = await this.pendingLink(realm, p, call, pending);
      const res = await this.auth.authenticatePassword({ realm: realm.name, username: link.username, password, ipAddress: call.ipAddress });
      if (res.outcome !== AuthOutcome.OK || res.userId !== link.userId) {
        await this.events.record(realm, {
          type: "IDENTITY_PROVIDER_LINK_ACCOUNT_ERROR", alias: p.alias, userId: link.userId, ipAddress: call.ipAddress,
          error: res.eventError || "invalid_user_credentials",
        });
        return { kind: "confirm_link", pending, username: link.username, providerDisplayName: p.displayName, message: WRONG_PASSWORD };
      }
      if (!(await this.states.consumeLink(link._id))) throw invalidState("This link request was already used. Please start again.");
      const profile: UpstreamProfile = { subject: link.subject, username: link.upstreamUsername, emailVerified: false, ...link.profile };
      await this.accounts.linkConfirmed(realm, p, link.userId, profile);
      await this.events.record(realm, { type: "IDENTITY_PROVIDER_LINK_ACCOUNT", alias: p.alias, userId: link.userId, ipAddress: call.ipAddress, details: { link_method: "password" } });
      await this.events.record(realm, { type: "IDENTITY_PROVIDER_LOGIN", alias: p.alias, userId: link.userId, ipAddress: call.ipAddress });
      this.count("linked");
      return { kind: "authenticated", userId: link.userId, transactionId: link.transactionId, csrfToken: link.csrfToken, alias: p.alias };
    } catch (e) {
      return this.failed(realm, call, "IDENTITY_PROVIDER_LINK_ACCOUNT_ERROR", e);
    }
  }

  private async askToConfirm(
    realm: RealmRef, p: IdentityProviderRecord, st: { transactionId: string; csrfToken: string; browserHash: string },
    profile: UpstreamProfile, userId: string, username: string,
  ): Promise<BrokerResult> {
    const id = randomBytes(16).toString("base64url");
    const now = this.clock.now();
    const record: PendingLinkRecord = {
      _id: id, realmId: realm.id, providerId: p._id, alias: p.alias, browserHash: st.browserHash, transactionId: st.transactionId,
      csrfToken: st.csrfToken, userId, username, subject: profile.subject, upstreamUsername: profile.username ?? "",
      profile: {
        ...(profile.email ? { email: profile.email } : {}),
        ...(profile.firstName ? { firstName: profile.firstName } : {}),
        ...(profile.lastName ? { lastName: profile.lastName } : {}),
      },
      createdAt: now, expiresAt: now + PENDING_LINK_TTL_MS,
    };
    await this.states.parkLink(record);
    const pending = `${id}.${this.secrets.mac("broker-link", `${realm.id}|${p.alias}|${id}`)}`;
    return { kind: "confirm_link", pending, username, providerDisplayName: p.displayName, message: "" };
  }

  private async consumeState(realm: RealmRef, call: BrowserCall, state: string) {
    const [id = "", tag = ""] = state.split(".");
    if (!id || !tag || !this.secrets.verifyMac("broker-state", `${realm.id}|${call.alias}|${id}`, tag)) {
      throw invalidState("The login state is not valid. Please start again.");
    }
    const st = await this.states.consume(id);
    if (!st) throw invalidState("The login state is unknown, expired or was already used. Please start again.");
    if (!safeEqual(st.browserHash, sha256Hex(call.browserId))) throw invalidState("The login was started in another browser. Please start again.");
    return st;
  }

  private async pendingLink(realm: RealmRef, p: IdentityProviderRecord, call: BrowserCall, pending: string): Promise<PendingLinkRecord> {
    const [id = "", tag = ""] = pending.split(".");
    if (!id || !tag || !this.secrets.verifyMac("broker-link", `${realm.id}|${p.alias}|${id}`, tag)) throw invalidState("The link request is not valid. Please start again.");
    const link = await this.states.findLink(id);
    if (!link || link.providerId !== p._id) throw invalidState("The link request is unknown, expired or was already used. Please start again.");
    if (!safeEqual(link.browserHash, sha256Hex(call.browserId))) throw invalidState("The login was started in another browser. Please start again.");
    return link;
  }

  private async provider(realm: RealmRef, alias: string): Promise<IdentityProviderRecord> {
    const p = await this.providers.findByAlias(realm.id, alias);
    if (!p) throw new BrokerFailure("identity_provider_not_found", `No identity provider "${alias}" in this realm.`, 404);
    if (!p.enabled) throw new BrokerFailure("identity_provider_disabled", `The identity provider "${alias}" is disabled.`, 400);
    // A provider imported from a document exported without includeSecrets has none until an
    // admin sets it: the upstream would refuse the code exchange anyway.
    if (p.clientSecretSealed === "") throw new BrokerFailure("identity_provider_not_configured", `The identity provider "${alias}" has no client secret set.`, 400);
    return p;
  }

  private callbackUrl(realm: RealmRef, p: IdentityProviderRecord): string {
    return `${this.cfg.publicUrl.replace(/\/+$/, "")}/realms/${encodeURIComponent(realm.name)}/broker/${encodeURIComponent(p.alias)}/callback`;
  }

  private async failed(realm: RealmRef, call: BrowserCall, type: "IDENTITY_PROVIDER_LOGIN_ERROR" | "IDENTITY_PROVIDER_LINK_ACCOUNT_ERROR", e: unknown): Promise<BrokerResult> {
    if (!(e instanceof BrokerFailure)) throw e;
    this.count("error");
    await this.events.record(realm, { type, alias: call.alias, error: e.eventError, ipAddress: call.ipAddress });
    return { kind: "error", error: e.error, description: e.description, status: e.status };
  }
}
