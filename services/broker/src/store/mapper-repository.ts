import type { Collection, Store } from "../../../kit/src/store/port.js";
import type { IdpMapperRecord } from "../domain/idp-mapper.js";

/**
 * A mapper as stored: Keycloak's config keys have dots ("user.attribute"), which a document's
 * field names may not, so the config is a list of entries.
 */
interface StoredMapper {
  [key: string]: unknown;
  _id: string;
  realmId: string;
  alias: string;
  name: string;
  type: IdpMapperRecord["type"];
  config: Array<{ key: string; value: string }>;
  createdAt: number;
}

function toDoc(m: IdpMapperRecord): StoredMapper {
  return { ...m, config: entries(m.config) };
}

function fromDoc(d: StoredMapper | null): IdpMapperRecord | null {
  return d ? { ...d, config: Object.fromEntries(d.config.map((e) => [e.key, e.value])) } : null;
}

function entries(config: Record<string, string>): Array<{ key: string; value: string }> {
  return Object.entries(config).map(([key, value]) => ({ key, value }));
}

const all = (ds: StoredMapper[]) => ds.map((d) => fromDoc(d) as IdpMapperRecord);

/** Identity provider mappers, by realm and provider alias. */
export class MapperRepository {
  private constructor(private readonly mappers: Collection<StoredMapper>) {}

  static async open(store: Store): Promise<MapperRepository> {
    const mappers = await store.collection<StoredMapper>({
      name: "broker_idp_mappers",
      // A name is unique per provider (the admin console tells mappers apart by it).
      indexes: [{ fields: ["realmId", "alias", "name"], unique: true }, { fields: ["realmId", "alias", "createdAt"] }],
    });
    return new MapperRepository(mappers);
  }

  /** Throws IamError alreadyExists when the provider already has a mapper of this name. */
  insert(m: IdpMapperRecord): Promise<void> {
    return this.mappers.insert(toDoc(m));
  }

  listByProvider(realmId: string, alias: string): Promise<IdpMapperRecord[]> {
    return this.mappers.find({ realmId, alias }, { sort: [["createdAt", 1]] }).then(all);
  }

  listByRealm(realmId: string): Promise<IdpMapperRecord[]> {
    return this.mappers.find({ realmId }, { sort: [["createdAt", 1]] }).then(all);
  }

  findById(realmId: string, id: string): Promise<IdpMapperRecord | null> {
    return this.mappers.findOne({ _id: id, realmId }).then(fromDoc);
  }

  /** Mappers of any realm by id: an imported document's ids must not belong to another realm. */
  findByIds(ids: string[]): Promise<IdpMapperRecord[]> {
    return ids.length ? this.mappers.find({ _id: { $in: ids } }).then(all) : Promise.resolve([]);
  }

  putImported(m: IdpMapperRecord): Promise<void> {
    return this.mappers.upsert(toDoc(m));
  }

  /** Throws IamError alreadyExists when the new name is another mapper's. */
  replace(realmId: string, id: string, set: Pick<IdpMapperRecord, "name" | "type" | "config">): Promise<IdpMapperRecord | null> {
    return this.mappers.findOneAndUpdate({ _id: id, realmId }, { $set: { ...set, config: entries(set.config) } }).then(fromDoc);
  }

  deleteById(realmId: string, id: string): Promise<IdpMapperRecord | null> {
    return this.mappers.findOneAndDelete({ _id: id, realmId }).then(fromDoc);
  }

  deleteProvider(realmId: string, alias: string): Promise<number> {
    return this.mappers.deleteMany({ realmId, alias });
  }

  /** A deleted realm's mappers created up to `upTo` (RealmDeleted), as its providers. */
  deleteRealm(realmId: string, upTo: number): Promise<number> {
    return this.mappers.deleteMany({ realmId, createdAt: { $lte: upTo } });
  }
}
