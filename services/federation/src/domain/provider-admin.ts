import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { Outbox } from "../../../kit/src/bus/outbox.js";
import { adminEventMessage } from "../../../kit/src/events/admin-events.js";
import { expectFields, recordWriteKind } from "../../../kit/src/events/audited-write.js";
import type { ProviderRepository } from "../store/provider-repository.js";
import { USER_FEDERATION_PROVIDER } from "../events/federation-admin-events.js";
import { auditedWrite } from "./audited-write.js";
import type { RealmLookup, RealmRef } from "./realm-ref.js";
import { bindCredentialAad, newProviderRecord, providerFields, providerView, type ProviderInput, type ProviderRecord, type SyncResultRecord } from "./provider.js";
import { checkCreateInput, checkUpdateInput } from "./provider-rules.js";
import type { DirectoryUsers } from "./directory-users.js";

/**
 * LDAP provider administration (spec 2.10, 4.11). Each write stages its admin event in the
 * federation service's outbox with it (kit events/audited-write.ts). The bind credential is sealed
 * under the master key, bound to the provider's id, and never returned.
 */
export class ProviderAdmin {
  private readonly kind = recordWriteKind("federation.provider", (realmId, id) => this.repo.findById(realmId, id), providerFields);

  constructor(
    private readonly repo: ProviderRepository,
    private readonly realms: RealmLookup,
    private readonly users: DirectoryUsers,
    private readonly secrets: SecretBox,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    outbox.register(this.kind);
  }

  async create(realmName: string, input: ProviderInput): Promise<ProviderRecord> {
    checkCreateInput(input);
    const realm = await this.realms.get(realmName);
    const id = randomUUID();
    const p = newProviderRecord(input, { id, realmId: realm.id, realm: realm.name }, this.seal(id, input.bindCredential as string), this.clock.now());
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id, expect: "present" },
      { operationType: "CREATE", resourceType: USER_FEDERATION_PROVIDER, path: path(realm, id), representation: providerView(p) },
      async () => {
        await this.unique(() => this.repo.insert(p), p.name);
        return true;
      });
    return p;
  }

  async list(realmName: string): Promise<ProviderRecord[]> {
    const realm = await this.realms.get(realmName);
    return this.repo.listByPriority(realm.id);
  }

  async get(realmName: string, id: string): Promise<ProviderRecord> {
    const realm = await this.realms.get(realmName);
    return this.find(realm, id);
  }

  async find(realm: RealmRef, id: string): Promise<ProviderRecord> {
    const p = await this.repo.findById(realm.id, id);
    if (!p) throw notFound(id);
    return p;
  }

  /** PUT, partial (DESIGN 7): only the fields sent change. */
  async update(realmName: string, id: string, input: ProviderInput): Promise<ProviderRecord> {
    checkUpdateInput(input);
    const realm = await this.realms.get(realmName);
    const current = await this.find(realm, id);
    const now = this.clock.now();
    const { bindCredential, name, ...rest } = input;
    const set: Partial<ProviderRecord> = { ...(definedOnly(rest) as Partial<ProviderRecord>), updatedAt: now };
    if (name !== undefined) {
      set.name = name.trim();
      set.nameKey = set.name.toLowerCase();
    }
    if (bindCredential !== undefined) set.bindCredential = this.seal(id, bindCredential);
    if (input.syncPeriod !== undefined && input.syncPeriod !== current.syncPeriod) {
      set.nextSyncAt = input.syncPeriod > 0 ? now + input.syncPeriod * 1000 : 0;
    }
    if (input.changedSyncPeriod !== undefined && input.changedSyncPeriod !== current.changedSyncPeriod) {
      set.nextChangedSyncAt = input.changedSyncPeriod > 0 ? now + input.changedSyncPeriod * 1000 : 0;
    }
    const expected: ProviderRecord = { ...current, ...set };
    let updated = null as ProviderRecord | null;
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id, expect: expectFields(providerFields, expected) },
      { operationType: "UPDATE", resourceType: USER_FEDERATION_PROVIDER, path: path(realm, id), representation: providerView(expected) },
      async () => (updated = await this.unique(() => this.repo.update(realm.id, id, set), set.name ?? "")) !== null);
    if (!updated) throw notFound(id);
    return updated;
  }

  /**
   * Removes the provider, then the users it imported, as Keycloak does when a user storage
   * provider is removed: they came from the directory server and have no password here. The
   * answer is the deleted provider (spec 4.11).
   */
  async delete(realmName: string, id: string): Promise<ProviderRecord> {
    const realm = await this.realms.get(realmName);
    let deleted = null as ProviderRecord | null;
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id, expect: "absent" },
      { operationType: "DELETE", resourceType: USER_FEDERATION_PROVIDER, path: path(realm, id) },
      async () => (deleted = await this.repo.deleteById(realm.id, id)) !== null);
    if (!deleted) throw notFound(id);
    const removed = await this.users.removeAll(realm.name, id);
    this.logger.info({ realm: realm.name, provider: id, removedUsers: removed }, "removed the users of a deleted LDAP provider");
    return deleted;
  }

  /** The Admin API's sync, recorded as Keycloak records none per imported user: one ACTION with the counts. */
  async recordSync(realmName: string, id: string, result: SyncResultRecord): Promise<void> {
    const realm = await this.realms.get(realmName);
    if (!realm.adminEventsEnabled) return;
    const { created, updated, failed, removed } = result;
    await this.outbox.send([adminEventMessage("federation", {
      realm: realm.name, operationType: "ACTION", resourceType: USER_FEDERATION_PROVIDER, resourcePath: `${path(realm, id)}/sync`,
      representation: { created, updated, failed, removed },
    }, this.clock.now(), randomUUID())]);
  }

  /**
   * The bind credential in clear, for a connection; never leaves the service. "" for a provider
   * imported without one (LdapSession refuses to bind with it).
   */
  credentialOf(p: ProviderRecord): string {
    return p.bindCredential ? this.secrets.open(p.bindCredential, bindCredentialAad(p._id)) : "";
  }

  private seal(id: string, credential: string): string {
    return this.secrets.seal(credential, bindCredentialAad(id));
  }

  private async unique<T>(write: () => Promise<T>, name: string): Promise<T> {
    try {
      return await write();
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`user federation provider "${name}" already exists`, "name");
      throw e;
    }
  }
}

export function notFound(id: string): IamError {
  return IamError.notFound(`user federation provider "${id}"`, "federation_provider_not_found");
}

function path(realm: RealmRef, id: string): string {
  return `realms/${realm.name}/user-federation/${id}`;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
