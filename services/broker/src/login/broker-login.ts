import { randomBytes } from "node:crypto";
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
import type { UpstreamProfile } from "./upstream-profile.js";
import type { UpstreamLeg } from "./upstream-leg.js";
import type { AccountLinkFlow } from "./account-link-flow.js";

export interface BrowserCall {
  realm: string;
  alias: string;
  browserId: string;
  ipAddress: string;
}

export type BrokerResult =
  | { kind: "authenticated"; userId: string; transactionId: string; csrfToken: string; alias: string }
  | { kind: "confirm_link"; pending: string; username: string; providerDisplayName: string; message: string }
  | { kind: "error"; error: string; description: string; status: number }
  /** An account link's end: back to the linking client (Keycloak's client-initiated account linking). */
  | { kind: "redirect"; location: string };

/** How long the confirm-link page may stay open. */
const PENDING_LINK_TTL_MS = 10 * 60_000;
const WRONG_PASSWORD = "Invalid password.";

/**
 * Brokered login (spec 4.19): the start parks a state and sends the browser upstream (UpstreamLeg);
 * the callback consumes it, gets the upstream account and maps it to a local user. Failures are
 * answered as error pages, never as a redirect to the client. A state an account link parked is
 * handed to that flow (AccountLinkFlow).
 */
export class BrokerLogin {
  private readonly auth: Client<typeof AuthenticationService>;

  constructor(
    private readonly providers: ProviderRepository,
    private readonly states: LoginStateRepository,
    private readonly realms: RealmLookup,
    private readonly leg: UpstreamLeg,
    private readonly linking: AccountLinkFlow,
    private readonly accounts: AccountLinker,
    private readonly events: BrokerEvents,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
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
      const p = await this.leg.provider(realm, call.alias);
      if (!transactionId || !csrfToken || !call.browserId) throw invalidState("The login request is not valid. Please start again.");
      return { redirect: await this.leg.begin(realm, p, call.browserId, { transactionId, csrfToken }, loginHint.trim().slice(0, 255)) };
    } catch (e) {
      return this.failed(realm, call, "IDENTITY_PROVIDER_LOGIN_ERROR", e);
    }
  }

  async callback(call: BrowserCall, q: { state: string; code: string; error: string; iss: string; ssoCookie: string }): Promise<BrokerResult> {
    const realm = await this.realms.published(call.realm);
    try {
      const st = await this.leg.consume(realm, call.alias, call.browserId, q.state);
      // A state parked by the account link endpoint: that flow ends it, back at the linking client.
      if (st.link) return await this.linking.callback(realm, call, st, st.link, q);
      const { p, profile } = await this.leg.finish(realm, st, call.alias, q);
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
      const p = await this.leg.provider(realm, call.alias);
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
      const { claims, ...fields } = link.profile;
      const profile: UpstreamProfile = {
        subject: link.subject, username: link.upstreamUsername, emailVerified: false, ...fields,
        ...(claims ? { claims: JSON.parse(claims) as Record<string, unknown> } : {}),
      };
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
        // The mappers run when the link is confirmed, on the claims of this login.
        ...(profile.claims ? { claims: JSON.stringify(profile.claims) } : {}),
      },
      createdAt: now, expiresAt: now + PENDING_LINK_TTL_MS,
    };
    await this.states.parkLink(record);
    const pending = `${id}.${this.secrets.mac("broker-link", `${realm.id}|${p.alias}|${id}`)}`;
    return { kind: "confirm_link", pending, username, providerDisplayName: p.displayName, message: "" };
  }

  private async pendingLink(realm: RealmRef, p: IdentityProviderRecord, call: BrowserCall, pending: string): Promise<PendingLinkRecord> {
    const [id = "", tag = ""] = pending.split(".");
    if (!id || !tag || !this.secrets.verifyMac("broker-link", `${realm.id}|${p.alias}|${id}`, tag)) throw invalidState("The link request is not valid. Please start again.");
    const link = await this.states.findLink(id);
    if (!link || link.providerId !== p._id) throw invalidState("The link request is unknown, expired or was already used. Please start again.");
    if (!safeEqual(link.browserHash, sha256Hex(call.browserId))) throw invalidState("The login was started in another browser. Please start again.");
    return link;
  }

  private async failed(realm: RealmRef, call: BrowserCall, type: "IDENTITY_PROVIDER_LOGIN_ERROR" | "IDENTITY_PROVIDER_LINK_ACCOUNT_ERROR", e: unknown): Promise<BrokerResult> {
    if (!(e instanceof BrokerFailure)) throw e;
    this.count("error");
    await this.events.record(realm, { type, alias: call.alias, error: e.eventError, ipAddress: call.ipAddress });
    return { kind: "error", error: e.error, description: e.description, status: e.status };
  }
}
