import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { EventSink } from "../../../kit/src/bus/outbox.js";
import { loginEventMessage } from "../../../kit/src/events/login-events.js";
import { randomToken, safeEqual, sha256Hex } from "../../../kit/src/crypto/random.js";
import type { ClientAdmin } from "./client-admin.js";
import type { ClientRecord } from "./client.js";
import type { RealmRecord } from "./realm.js";
import type { RealmAccess } from "./realm-access.js";
import type { RegistrationAdmin } from "./registration-admin.js";
import { asRegistrationError, invalidMetadata, readRegistration, registrationView } from "./registration-metadata.js";
import type { InitialAccessTokenRepository } from "../store/initial-access-token-repository.js";
import type { ClientRegistrationRecord, ClientRegistrationRepository } from "../store/client-registration-repository.js";
import type { RegistrationPolicyRepository } from "../store/registration-policy-repository.js";

type Metadata = Record<string, unknown>;

const invalidToken = (description: string) => IamError.oauth("invalid_token", description, "unauthenticated");

/**
 * Dynamic client registration (RFC 7591) and its management (RFC 7592). Clients are created,
 * changed and deleted through ClientAdmin, so the same rules, admin events and cache drops apply
 * as to the Admin API's. Tokens are random 256-bit values stored as their SHA-256.
 */
export class DynamicRegistration {
  constructor(
    private readonly realms: RealmAccess,
    private readonly clients: ClientAdmin,
    private readonly admin: RegistrationAdmin,
    private readonly initialTokens: InitialAccessTokenRepository,
    private readonly registrations: ClientRegistrationRepository,
    private readonly policies: RegistrationPolicyRepository,
    private readonly events: EventSink,
    private readonly clock: Clock,
  ) {}

  /**
   * RFC 7591 section 3. The initial access token's use and a slot under the realm's cap are each
   * taken by one conditional update, after the metadata passed, and given back if the client is
   * not created: of two registrations racing for a token's last use exactly one registers.
   */
  async register(realmName: string, initialToken: string, metadata: Metadata): Promise<Metadata> {
    const realm = await this.enabledRealm(realmName);
    const auth = { auth_method: initialToken ? "initial_access_token" : "anonymous" };
    try {
      const answer = await this.registerIn(realm, initialToken, metadata);
      await this.record(realm, "CLIENT_REGISTER", String(answer.client_id), auth);
      return answer;
    } catch (e) {
      if (e instanceof IamError) await this.record(realm, "CLIENT_REGISTER_ERROR", "", auth, e.oauthError ?? e.reason);
      throw e;
    }
  }

  private async registerIn(realm: RealmRecord, initialToken: string, metadata: Metadata): Promise<Metadata> {
    const realmName = realm.name;
    const policy = await this.admin.policyOf(realm);
    if (initialToken) {
      const found = await this.initialTokens.findByHash(sha256Hex(initialToken));
      if (!found || found.realmId !== realm._id) throw invalidToken("the initial access token is not valid (unknown, expired or of another realm)");
      if (found.remainingCount <= 0) throw invalidToken("the initial access token has no registrations left");
    } else if (!policy.anonymousRegistrationAllowed) {
      throw invalidToken("an initial access token is required: the realm does not allow anonymous registration");
    }
    const request = readRegistration(metadata, policy);
    let takenFrom: string | undefined;
    if (initialToken) {
      const taken = await this.initialTokens.takeUse(sha256Hex(initialToken));
      if (!taken || taken.realmId !== realm._id) throw invalidToken("the initial access token has no registrations left");
      takenFrom = taken._id;
    }
    const giveBack = async () => { if (takenFrom) await this.initialTokens.returnUse(takenFrom); };
    if (!(await this.policies.reserveSlot(realm._id, policy.maxClients))) {
      await giveBack();
      throw new IamError({
        code: "permissionDenied", reason: "access_denied", oauthError: "access_denied",
        message: `the realm allows at most ${policy.maxClients} dynamically registered clients`,
      });
    }
    let created: { client: ClientRecord; secret?: string };
    try {
      created = await this.clients.create(realmName, { clientId: randomUUID(), ...request.client });
    } catch (e) {
      await this.policies.releaseSlot(realm._id);
      await giveBack();
      throw asRegistrationError(e);
    }
    const token = randomToken();
    const now = this.clock.now();
    try {
      await this.registrations.insert({
        _id: created.client._id, realmId: realm._id, clientId: created.client.clientId, tokenHash: sha256Hex(token),
        extra: request.extra, createdAt: now, updatedAt: now,
      });
    } catch (e) {
      await this.clients.delete(realmName, created.client.clientId).catch(() => undefined);
      await this.policies.releaseSlot(realm._id);
      throw e;
    }
    return registrationView(created.client, request.extra, token, created.secret);
  }

  /** RFC 7592 section 2.1. The token presented is answered back: it stays current until a PUT. */
  async read(realmName: string, clientId: string, token: string): Promise<Metadata> {
    const { realm, client, registration } = await this.authorize(realmName, clientId, token);
    await this.record(realm, "CLIENT_INFO", clientId);
    return registrationView(client, registration.extra, token);
  }

  /**
   * RFC 7592 section 2.2: the metadata sent replaces the registered one (members left out take
   * their defaults), checked as at registration, and the registration access token rotates.
   */
  async update(realmName: string, clientId: string, token: string, metadata: Metadata): Promise<Metadata> {
    const { realm, client, registration } = await this.authorize(realmName, clientId, token);
    if (metadata.client_id !== clientId) throw invalidMetadata("client_id must be sent and be the client's own (RFC 7592 section 2.2)");
    // RFC 7592 section 2.2: a client_secret sent must be the one issued; it is never changed here.
    if (metadata.client_secret !== undefined) {
      const current = this.clients.openSecret(client);
      if (typeof metadata.client_secret !== "string" || current === undefined || !safeEqual(metadata.client_secret, current)) {
        throw invalidMetadata("client_secret must be the client's current secret (RFC 7592 section 2.2)");
      }
    }
    const request = readRegistration(metadata, await this.admin.policyOf(realm));
    if (request.client.clientType !== client.clientType) {
      throw invalidMetadata(`token_endpoint_auth_method cannot change between "none" and a method that authenticates the client`);
    }
    // The token rotates first, by a conditional update on the old one: of two updates sent with
    // the same token exactly one goes on to change the client. A refused change puts it back.
    const next = randomToken();
    const rotated = await this.registrations.replace(registration._id, registration.tokenHash, {
      tokenHash: sha256Hex(next), extra: request.extra, updatedAt: this.clock.now(),
    });
    if (!rotated) throw invalidToken("the registration access token is not valid for this client");
    const c = request.client;
    let updated: ClientRecord;
    try {
      updated = await this.clients.update(realmName, clientId, {
        name: c.name, redirectUris: c.redirectUris, grantTypes: c.grantTypes, tokenEndpointAuthMethod: c.tokenEndpointAuthMethod,
        jwks: c.jwks ?? {}, jwksUri: c.jwksUri ?? "", backchannelLogoutUri: c.backchannelLogoutUri ?? "",
        requestObjectSignatureAlg: c.requestObjectSignatureAlg ?? "", requirePushedAuthorizationRequests: c.requirePushedAuthorizationRequests ?? false,
      });
    } catch (e) {
      await this.registrations.replace(registration._id, sha256Hex(next), {
        tokenHash: registration.tokenHash, extra: registration.extra, updatedAt: registration.updatedAt,
      });
      throw asRegistrationError(e);
    }
    await this.record(realm, "CLIENT_UPDATE", clientId);
    return registrationView(updated, request.extra, next);
  }

  /** RFC 7592 section 2.3: the client goes, and with it the token. */
  async delete(realmName: string, clientId: string, token: string): Promise<void> {
    const { realm, registration } = await this.authorize(realmName, clientId, token);
    await this.clients.delete(realmName, clientId);
    await this.forget(realm._id, registration._id);
    await this.record(realm, "CLIENT_DELETE", clientId);
  }

  /** A disabled realm is, to its protocol endpoints, no realm (as the token service answers). */
  private async enabledRealm(realmName: string): Promise<RealmRecord> {
    const realm = await this.realms.byName(realmName);
    if (!realm.enabled) throw IamError.notFound("realm", "realm_not_found");
    return realm;
  }

  /**
   * A realm event under Keycloak's names (CLIENT_REGISTER, CLIENT_INFO, CLIENT_UPDATE,
   * CLIENT_DELETE, CLIENT_REGISTER_ERROR) where the realm records them; never a token or secret.
   */
  private async record(realm: RealmRecord, type: string, clientId: string, details: Record<string, string> = { auth_method: "registration_access_token" }, error?: string): Promise<void> {
    if (!realm.eventsEnabled) return;
    await this.events.send([loginEventMessage("directory", {
      realm: realm.name, type, retentionSeconds: realm.eventsExpiration, details,
      ...(clientId ? { clientId } : {}), ...(error ? { error } : {}),
    }, this.clock.now(), randomUUID())]);
  }

  /** Drops a deleted client's registration (also when the Admin API deleted it), freeing its slot once. */
  async forget(realmId: string, clientRecordId: string): Promise<void> {
    if (await this.registrations.delete(clientRecordId)) await this.policies.releaseSlot(realmId);
  }

  /**
   * The client a registration access token manages. Any mismatch (unknown token, another client,
   * a client gone) is 401 invalid_token, never 404 (RFC 7592 section 2.1).
   */
  private async authorize(realmName: string, clientId: string, token: string): Promise<{ realm: RealmRecord; client: ClientRecord; registration: ClientRegistrationRecord }> {
    if (!token) throw invalidToken("a registration access token is required");
    const realm = await this.enabledRealm(realmName);
    const registration = await this.registrations.findByTokenHash(sha256Hex(token));
    if (!registration || registration.realmId !== realm._id || registration.clientId !== clientId) {
      throw invalidToken("the registration access token is not valid for this client");
    }
    const client = await this.clients.require(realm, clientId).catch(() => null);
    if (!client || client._id !== registration._id) throw invalidToken("the registration access token is not valid for this client");
    return { realm, client, registration };
  }
}
