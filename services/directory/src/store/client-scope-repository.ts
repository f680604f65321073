import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";
import { countWrites, type WriteCounter } from "../../../kit/src/store/write-counted.js";
import type { ClientScopeRecord, ProtocolMapperRecord } from "../domain/client-scope.js";

/**
 * A mapper as stored: config keys such as "claim.name" hold dots, which stored documents may not
 * have in keys (store port), so the config rests as a list of {key, value} objects (not [key, value]
 * pairs: FerretDB v1 refuses nested arrays).
 */
interface StoredMapper extends Doc {
  realmId: string;
  scopeId: string;
  name: string;
  mapperType: string;
  protocol: string;
  config: Array<{ key: string; value: string }>;
  createdAt: number;
}

const storedConfig = (config: Record<string, string>) => Object.entries(config).map(([key, value]) => ({ key, value }));
const toStored = (m: ProtocolMapperRecord): StoredMapper => ({ ...m, config: storedConfig(m.config) });
const fromStored = (m: StoredMapper): ProtocolMapperRecord => ({
  ...m, config: Object.fromEntries(m.config.map((e) => [e.key, e.value])) as Record<string, string>,
});

/** Client scopes and their protocol mappers (a mapper lives and dies with its scope). */
export class ClientScopeRepository {
  private constructor(
    private readonly scopes: Collection<ClientScopeRecord>,
    private readonly mappers: Collection<StoredMapper>,
  ) {}

  /** `writes` counts this repository's writes for a read cache (WriteCounter). */
  static async open(store: Store, writes?: WriteCounter): Promise<ClientScopeRepository> {
    const scopes = await store.collection<ClientScopeRecord>({
      name: "client_scopes",
      indexes: [{ fields: ["realmId", "name"], unique: true }],
    });
    const mappers = await store.collection<StoredMapper>({
      name: "protocol_mappers",
      indexes: [{ fields: ["realmId", "scopeId", "name"], unique: true }],
    });
    return writes
      ? new ClientScopeRepository(countWrites(scopes, writes), countWrites(mappers, writes))
      : new ClientScopeRepository(scopes, mappers);
  }

  insertScope(s: ClientScopeRecord): Promise<void> {
    return this.scopes.insert(s);
  }

  findScope(realmId: string, id: string): Promise<ClientScopeRecord | null> {
    return this.scopes.findOne({ realmId, _id: id });
  }

  findScopesByIds(realmId: string, ids: string[]): Promise<ClientScopeRecord[]> {
    return ids.length ? this.scopes.find({ realmId, _id: { $in: ids } }, { sort: [["name", 1]] }) : Promise.resolve([]);
  }

  findScopesByNames(realmId: string, names: string[]): Promise<ClientScopeRecord[]> {
    return names.length ? this.scopes.find({ realmId, name: { $in: names } }) : Promise.resolve([]);
  }

  listScopes(realmId: string): Promise<ClientScopeRecord[]> {
    return this.scopes.find({ realmId }, { sort: [["name", 1]] });
  }

  updateScope(realmId: string, id: string, set: Partial<ClientScopeRecord>): Promise<ClientScopeRecord | null> {
    return this.scopes.findOneAndUpdate({ realmId, _id: id }, { $set: set });
  }

  async deleteScope(realmId: string, id: string): Promise<boolean> {
    const n = await this.scopes.deleteMany({ realmId, _id: id });
    await this.mappers.deleteMany({ realmId, scopeId: id });
    return n > 0;
  }

  insertMapper(m: ProtocolMapperRecord): Promise<void> {
    return this.mappers.insert(toStored(m));
  }

  async findMapper(realmId: string, scopeId: string, id: string): Promise<ProtocolMapperRecord | null> {
    const m = await this.mappers.findOne({ realmId, scopeId, _id: id });
    return m && fromStored(m);
  }

  async mappersOf(realmId: string, scopeIds: string[]): Promise<ProtocolMapperRecord[]> {
    if (!scopeIds.length) return [];
    return (await this.mappers.find({ realmId, scopeId: { $in: scopeIds } }, { sort: [["createdAt", 1]] })).map(fromStored);
  }

  async updateMapper(realmId: string, scopeId: string, id: string, set: Partial<ProtocolMapperRecord>): Promise<ProtocolMapperRecord | null> {
    const { config, ...rest } = set;
    const m = await this.mappers.findOneAndUpdate({ realmId, scopeId, _id: id }, {
      $set: { ...rest, ...(config ? { config: storedConfig(config) } : {}) },
    });
    return m && fromStored(m);
  }

  async deleteMapper(realmId: string, scopeId: string, id: string): Promise<boolean> {
    return (await this.mappers.deleteMany({ realmId, scopeId, _id: id })) > 0;
  }

  async deleteRealm(realmId: string): Promise<number> {
    return (await this.scopes.deleteMany({ realmId })) + (await this.mappers.deleteMany({ realmId }));
  }
}
