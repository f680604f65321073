import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { OutboxKind, Outbox } from "../../../kit/src/bus/outbox.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import { randomToken, sha256Hex } from "../../../kit/src/crypto/random.js";
import { auditedWrite } from "./audited-write.js";
import { isBuiltinFlow } from "../../../kit/src/authentication-flows/flow-model.js";
import { expectFields, recordWriteKind } from "../../../kit/src/events/audited-write.js";
import {
  clientView, DEFAULT_GRANT_TYPES, type ClientCreateInput, type ClientRecord, type ClientUpdateInput,
} from "./client.js";
import {
  checkBackchannelUri, checkRequestObjectAlg, checkClientId, checkClientText, checkGrantTypes, checkRedirectUri, checkTypeAndGrants, checkTokenExchange, checkTokenSigningAlg,
  checkUriList, checkWebOrigin, resolveClientType,
} from "./client-rules.js";
import { checkClientProfile, checkProfileConsistency } from "./client-profile.js";
import { resolveAuthMethod } from "./client-auth-method.js";
import type { RealmRecord } from "./realm.js";
import type { RealmAccess } from "./realm-access.js";
import type { ServiceAccounts } from "./service-accounts.js";
import type { ClientCascade } from "./client-cascade.js";
import type { UserRecord } from "./user.js";
import type { ClientRepository } from "../store/client-repository.js";
import { directoryAdminEvent } from "../events/directory-admin-events.js";
import { clientUpdatedEvent } from "../events/client-events.js";

/** What the outbox keeps of a client's deletion or disabling until it is announced (no secret). */
interface ClientSnapshot {
  realmId: string;
  realmName: string;
  client: Pick<ClientRecord, "_id" | "clientId" | "enabled">;
}

/** A client and, right after creation or regeneration only, its secret in clear. */
export interface ClientWithSecret {
  client: ClientRecord;
  secret?: string;
}

/** Client administration (spec 1.11, 2.3, 4.3). */
export class ClientAdmin {
  constructor(
    private readonly repo: ClientRepository,
    private readonly realms: RealmAccess,
    private readonly serviceAccounts: ServiceAccounts,
    private readonly cascade: ClientCascade,
    private readonly outbox: Outbox,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.removalKind);
    outbox.register(this.disableKind);
    outbox.register(this.secretKind);
    outbox.register(this.adminKind);
  }

  async create(realmName: string, input: ClientCreateInput): Promise<ClientWithSecret> {
    const realm = await this.realms.byName(realmName);
    const clientId = checkClientId(input.clientId);
    const clientType = resolveClientType(input);
    checkClientText(input);
    const grantTypes = input.grantTypes !== undefined ? checkGrantTypes(input.grantTypes) : [...DEFAULT_GRANT_TYPES];
    checkTypeAndGrants(clientType, grantTypes);
    const authMethod = resolveAuthMethod(clientType, input);
    const now = this.clock.now();
    const id = randomUUID();
    const client: ClientRecord = {
      _id: id, realmId: realm._id, clientId,
      name: input.name ?? "", description: input.description ?? "", clientType,
      enabled: input.enabled ?? true,
      redirectUris: checkUriList("redirectUris", input.redirectUris ?? [], checkRedirectUri),
      webOrigins: checkUriList("webOrigins", input.webOrigins ?? [], checkWebOrigin),
      grantTypes, requireConsent: input.requireConsent ?? false,
      backchannelLogoutUri: checkBackchannelUri(input.backchannelLogoutUri ?? ""),
      // Keycloak's default: the logout token carries the session id.
      backchannelLogoutSessionRequired: input.backchannelLogoutSessionRequired ?? true,
      ...authMethod,
      requestObjectSignatureAlg: checkRequestObjectAlg(input.requestObjectSignatureAlg ?? ""),
      requirePushedAuthorizationRequests: input.requirePushedAuthorizationRequests ?? false,
      dpopBoundAccessTokens: input.dpopBoundAccessTokens ?? false,
      dpopNonceRequired: input.dpopNonceRequired ?? false,
      standardTokenExchangeEnabled: checkTokenExchange(clientType, input.standardTokenExchangeEnabled ?? false),
      idTokenSignedResponseAlg: checkTokenSigningAlg("idTokenSignedResponseAlg", input.idTokenSignedResponseAlg ?? ""),
      accessTokenSignedResponseAlg: checkTokenSigningAlg("accessTokenSignedResponseAlg", input.accessTokenSignedResponseAlg ?? ""),
      clientProfile: checkClientProfile(input.clientProfile ?? ""),
      ...(await this.flowOverrides(realm._id, input)),
      createdAt: now, updatedAt: now,
    };
    checkProfileConsistency(client);
    let secret: string | undefined;
    if (clientType === "CONFIDENTIAL") {
      secret = randomToken();
      client.secretSealed = this.secrets.seal(secret, secretAad(id));
    }
    await auditedWrite(this.outbox, this.adminKind, realm, { realmId: realm._id, id, expect: "present" },
      { operationType: "CREATE", resourceType: "CLIENT", path: clientPath(client), representation: clientView(client) }, async () => {
        try {
          await this.repo.insert(client);
        } catch (e) {
          if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`client "${clientId}" already exists`, "clientId");
          throw e;
        }
        try {
          if (grantTypes.includes("client_credentials")) await this.serviceAccounts.ensure(realm, client);
          await this.cascade.assignDefaultScopes(realm, client);
        } catch (e) {
          await this.cascade.deleteClient(realm, client);
          await this.repo.delete(realm._id, id);
          throw e;
        }
        return true;
      });
    return { client, ...(secret !== undefined ? { secret } : {}) };
  }

  async list(realmName: string): Promise<ClientRecord[]> {
    const realm = await this.realms.byName(realmName);
    return this.repo.list(realm._id);
  }

  /** From the store past the realm cache: GetClient's answer, which the gateway caches (CORS). */
  async get(realmName: string, clientId: string): Promise<ClientRecord> {
    const realm = await this.realms.current(realmName);
    return this.require(realm, clientId);
  }

  async require(realm: RealmRecord, clientId: string): Promise<ClientRecord> {
    const client = await this.repo.findByClientId(realm._id, clientId);
    if (!client) throw IamError.notFound(`client "${clientId}"`, "client_not_found");
    return client;
  }

  async update(realmName: string, clientId: string, input: ClientUpdateInput): Promise<ClientRecord> {
    const realm = await this.realms.byName(realmName);
    const current = await this.require(realm, clientId);
    checkClientText(input);
    const set: Partial<ClientRecord> = { updatedAt: this.clock.now() };
    if (input.name !== undefined) set.name = input.name;
    if (input.description !== undefined) set.description = input.description;
    if (input.enabled !== undefined) set.enabled = input.enabled;
    if (input.requireConsent !== undefined) set.requireConsent = input.requireConsent;
    if (input.redirectUris !== undefined) set.redirectUris = checkUriList("redirectUris", input.redirectUris, checkRedirectUri);
    if (input.webOrigins !== undefined) set.webOrigins = checkUriList("webOrigins", input.webOrigins, checkWebOrigin);
    if (input.backchannelLogoutUri !== undefined) set.backchannelLogoutUri = checkBackchannelUri(input.backchannelLogoutUri);
    if (input.requestObjectSignatureAlg !== undefined) set.requestObjectSignatureAlg = checkRequestObjectAlg(input.requestObjectSignatureAlg);
    if (input.requirePushedAuthorizationRequests !== undefined) set.requirePushedAuthorizationRequests = input.requirePushedAuthorizationRequests;
    if (input.dpopBoundAccessTokens !== undefined) set.dpopBoundAccessTokens = input.dpopBoundAccessTokens;
    if (input.dpopNonceRequired !== undefined) set.dpopNonceRequired = input.dpopNonceRequired;
    if (input.standardTokenExchangeEnabled !== undefined) set.standardTokenExchangeEnabled = checkTokenExchange(current.clientType, input.standardTokenExchangeEnabled);
    if (input.idTokenSignedResponseAlg !== undefined) set.idTokenSignedResponseAlg = checkTokenSigningAlg("idTokenSignedResponseAlg", input.idTokenSignedResponseAlg);
    if (input.accessTokenSignedResponseAlg !== undefined) set.accessTokenSignedResponseAlg = checkTokenSigningAlg("accessTokenSignedResponseAlg", input.accessTokenSignedResponseAlg);
    // An empty set clears the keys (stored as no keys, shown as absent).
    if (input.grantTypes !== undefined) {
      set.grantTypes = checkGrantTypes(input.grantTypes);
      checkTypeAndGrants(current.clientType, set.grantTypes);
    }
    const authInput = { tokenEndpointAuthMethod: input.tokenEndpointAuthMethod, clientAuthenticatorType: input.clientAuthenticatorType, jwks: input.jwks, jwksUri: input.jwksUri };
    if (Object.values(authInput).some((v) => v !== undefined)) Object.assign(set, resolveAuthMethod(current.clientType, authInput, current));
    if (input.clientProfile !== undefined) set.clientProfile = checkClientProfile(input.clientProfile);
    Object.assign(set, await this.flowOverrides(realm._id, input));
    // The settings after the update, not only the fields sent, must agree with the profile.
    checkProfileConsistency({ ...current, ...set });
    let updated = null as ClientRecord | null;
    const write = async (): Promise<boolean> => (updated = await this.repo.update(realm._id, current._id, set)) !== null;
    // Disabling revokes the client's tokens and sessions (client.updated), announced through the outbox.
    const disabling = current.enabled && set.enabled === false;
    const expected: ClientRecord = { ...current, ...set };
    await auditedWrite(this.outbox, this.adminKind, realm, { realmId: realm._id, id: current._id, expect: expectFields(clientView, expected) },
      { operationType: "UPDATE", resourceType: "CLIENT", path: clientPath(current), representation: clientView(expected) }, async () => {
        if (disabling) await this.disable(realm, current, write);
        else await write();
        if (!updated) return false;
        // Before client.updated goes out, so no cache refilled on it misses the service account.
        const hadSa = current.grantTypes.includes("client_credentials");
        const hasSa = updated.grantTypes.includes("client_credentials");
        if (!hadSa && hasSa) await this.serviceAccounts.ensure(realm, updated);
        // Keycloak removes the service-account user when service accounts are turned off.
        if (hadSa && !hasSa) await this.serviceAccounts.remove(realm, updated);
        return true;
      },
      // The cache drop goes with the write (a disable stages its own, which also revokes).
      disabling ? undefined : (stamp) => [clientUpdatedEvent(realm, expected, false, stamp.id("event"))]);
    if (!updated) throw IamError.notFound(`client "${clientId}"`, "client_not_found");
    return updated;
  }

  /**
   * `client.updated` (deleted) and the DELETE admin event are staged in the outbox, so a crash
   * after the record went still announces them (outbox.ts). The record goes first, so that
   * no cache refilled after the announcement (the token service's client cache) can find the
   * client again. If the rest fails (the bus down), the record is put back before the error goes
   * out, as UserRemoval does, so the admin's retry finds the client and finishes: without that the
   * retry was 404 and the token service never heard of the deletion, so the client's tokens stayed
   * active.
   */
  async delete(realmName: string, clientId: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    const client = await this.require(realm, clientId);
    let deleted = null as ClientRecord | null;
    const snapshot: ClientSnapshot = { realmId: realm._id, realmName: realm.name, client: { _id: client._id, clientId: client.clientId, enabled: client.enabled } };
    const removed = await this.outbox.write({
      kind: this.removalKind,
      snapshot,
      announce: (s, stamp) => [
        clientUpdatedEvent({ _id: s.realmId, name: s.realmName }, s.client, true, stamp.id("event")),
        ...directoryAdminEvent(realm, "DELETE", "CLIENT", clientPath(client), stamp),
      ],
      apply: async () => ((deleted = await this.repo.delete(realm._id, client._id)) ? snapshot : null),
      rest: () => this.cascade.deleteClient(realm, client),
      undo: async () => { if (deleted) await this.repo.insert(deleted).catch(() => undefined); }, // taken meanwhile: the retry is 404 then
    });
    if (!removed) throw IamError.notFound(`client "${clientId}"`, "client_not_found");
  }

  /** Runs `write`, which disables the client, with `client.updated` (disabled) staged in the outbox. */
  private async disable(realm: RealmRecord, client: ClientRecord, write: () => Promise<boolean>): Promise<void> {
    const snapshot: ClientSnapshot = { realmId: realm._id, realmName: realm.name, client: { _id: client._id, clientId: client.clientId, enabled: false } };
    await this.outbox.write({
      kind: this.disableKind,
      snapshot,
      announce: (s, stamp) => [clientUpdatedEvent({ _id: s.realmId, name: s.realmName }, s.client, false, stamp.id("event"))],
      apply: async () => ((await write()) ? snapshot : null),
    });
  }

  /** The relay announces an interrupted disable while the client is still disabled; no rest to it. */
  private readonly disableKind: OutboxKind<ClientSnapshot> = {
    name: "directory.client-disabled",
    applied: async (s) => (await this.repo.findById(s.realmId, s.client._id))?.enabled === false,
  };

  /** How the outbox's relay finishes a deletion a crash interrupted: the cascade, unless the realm went too. */
  private readonly removalKind: OutboxKind<ClientSnapshot> = {
    name: "directory.client",
    applied: async (s) => (await this.repo.findById(s.realmId, s.client._id)) === null,
    finish: async (s) => {
      // A deleted realm takes its clients' roles, mappings and users with it (realm-deleted-consumer.ts);
      // one recreated under the name is another realm, whose service accounts are not this client's.
      const realm = await this.realms.byName(s.realmName).catch((e: unknown) => {
        if (e instanceof IamError && e.code === "notFound") return null;
        throw e;
      });
      if (realm && realm._id === s.realmId) await this.cascade.deleteClient(realm, s.client);
    },
  };

  /** A client created or updated through the Admin API, as the relay finds it (its view as the write leaves it). */
  private readonly adminKind = recordWriteKind("directory.client-admin", (realmId, id) => this.repo.findById(realmId, id), clientView);

  /** A secret regeneration, as the relay finds it: the client sealing the new secret (a digest of the sealed value, never the secret). */
  private readonly secretKind: OutboxKind<{ realmId: string; clientRecordId: string; sealedDigest: string }> = {
    name: "directory.client-secret",
    applied: async (s) => {
      const sealed = (await this.repo.findById(s.realmId, s.clientRecordId))?.secretSealed;
      return sealed !== undefined && sha256Hex(sealed) === s.sealedDigest;
    },
  };

  /** A credential change, so its admin event is staged with it (auditedWrite). */
  async regenerateSecret(realmName: string, clientId: string): Promise<ClientWithSecret> {
    const realm = await this.realms.byName(realmName);
    const client = await this.require(realm, clientId);
    if (client.clientType !== "CONFIDENTIAL") {
      throw IamError.invalid("clientType", "a PUBLIC client has no secret", "public_client");
    }
    const secret = randomToken();
    const set = { secretSealed: this.secrets.seal(secret, secretAad(client._id)), updatedAt: this.clock.now() };
    let updated = null as ClientRecord | null;
    await auditedWrite(this.outbox, this.secretKind, realm, { realmId: realm._id, clientRecordId: client._id, sealedDigest: sha256Hex(set.secretSealed) },
      // The client as the write leaves it (the view never shows the secret).
      { operationType: "ACTION", resourceType: "CLIENT", path: `${clientPath(client)}/client-secret`, representation: clientView({ ...client, ...set }) },
      async () => (updated = await this.repo.update(realm._id, client._id, set)) !== null,
      // The old secret's cached verifier drops with the write, not after it.
      (stamp) => [clientUpdatedEvent(realm, client, false, stamp.id("event"))]);
    if (!updated) throw IamError.notFound(`client "${clientId}"`, "client_not_found");
    return { client: updated, secret };
  }

  /** From the store past the realm cache: the token service caches the answer (client_credentials). */
  /** Whether an authentication flow alias exists in a realm (flow-admin.ts); built-in aliases only until wired. */
  flowExists: (realmId: string, alias: string) => Promise<boolean> = async (_realmId, alias) => isBuiltinFlow(alias);

  /** The flow overrides sent: "" clears one, any other value names a flow of the realm. */
  private async flowOverrides(realmId: string, input: ClientUpdateInput): Promise<Partial<ClientRecord>> {
    const out: Partial<ClientRecord> = {};
    for (const field of ["browserFlowOverride", "directGrantFlowOverride"] as const) {
      const alias = input[field];
      if (alias === undefined) continue;
      if (alias !== "" && !(await this.flowExists(realmId, alias))) {
        throw IamError.invalid(field, `${field}: no authentication flow with alias "${alias}" in this realm`);
      }
      out[field] = alias;
    }
    return out;
  }

  async serviceAccountUser(realmName: string, clientId: string): Promise<UserRecord> {
    const realm = await this.realms.current(realmName);
    const client = await this.require(realm, clientId);
    const user = client.grantTypes.includes("client_credentials") ? await this.serviceAccounts.find(realm, client) : null;
    if (!user) throw IamError.notFound(`service-account user of client "${clientId}"`, "service_account_not_found");
    return user;
  }

  /** The secret in clear, for AuthenticateClient only. */
  openSecret(client: ClientRecord): string | undefined {
    return client.secretSealed ? this.secrets.open(client.secretSealed, secretAad(client._id)) : undefined;
  }
}

/** Binds the sealed secret to its client (SecretBox associated data). */
function secretAad(id: string): string {
  return `client:${id}:secret`;
}

function clientPath(c: ClientRecord): string {
  return `clients/${c._id}`;
}
