import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { Outbox } from "../../../kit/src/bus/outbox.js";
import { expectFields, recordWriteKind } from "../../../kit/src/events/audited-write.js";
import type { ProviderRepository } from "../store/provider-repository.js";
import type { MapperRepository } from "../store/mapper-repository.js";
import { auditedWrite } from "./audited-write.js";
import type { RealmLookup, RealmRef } from "./realm-ref.js";
import { notFound as providerNotFound } from "./provider-admin.js";
import { checkMapperInput, mapperView, MAPPER_TYPES, type IdpMapperInput, type IdpMapperRecord, type MapperType } from "./idp-mapper.js";

/** Keycloak's resource type of a mapper's admin events. */
export const IDENTITY_PROVIDER_MAPPER = "IDENTITY_PROVIDER_MAPPER";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const fields = (m: IdpMapperRecord) => ({ name: m.name, type: m.type, config: m.config });

/**
 * Identity provider mappers' administration (Keycloak's
 * /identity-provider/instances/{alias}/mappers). Each write stages its admin event with it, as
 * the provider's own writes do: a mapper grants roles and groups to whoever the upstream sends.
 */
export class MapperAdmin {
  private readonly kind = recordWriteKind("broker.identity-provider-mapper", (realmId, id) => this.mappers.findById(realmId, id), fields);

  constructor(
    private readonly mappers: MapperRepository,
    private readonly providers: ProviderRepository,
    private readonly realms: RealmLookup,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.kind);
  }

  /** The provider must exist (404 otherwise); the types do not depend on it. */
  async typesFor(realmName: string, alias: string): Promise<readonly MapperType[]> {
    await this.provider(await this.realms.get(realmName), alias);
    return MAPPER_TYPES;
  }

  async create(realmName: string, alias: string, input: IdpMapperInput): Promise<IdpMapperRecord> {
    const realm = await this.realms.get(realmName);
    await this.provider(realm, alias);
    const checked = checkMapperInput(input, { alias });
    const id = randomUUID();
    const m: IdpMapperRecord = { _id: id, realmId: realm.id, alias, ...checked, createdAt: this.clock.now() };
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id, expect: "present" },
      { operationType: "CREATE", resourceType: IDENTITY_PROVIDER_MAPPER, path: path(realm, alias, id), representation: mapperView(m) }, async () => {
        await unique(() => this.mappers.insert(m), checked.name);
        return true;
      });
    return m;
  }

  async list(realmName: string, alias: string): Promise<IdpMapperRecord[]> {
    const realm = await this.realms.get(realmName);
    await this.provider(realm, alias);
    return this.mappers.listByProvider(realm.id, alias);
  }

  async get(realmName: string, alias: string, id: string): Promise<IdpMapperRecord> {
    const realm = await this.realms.get(realmName);
    await this.provider(realm, alias);
    return this.find(realm, alias, id);
  }

  /** Replaces name, type and config (Keycloak's PUT takes the whole representation). */
  async update(realmName: string, alias: string, id: string, input: IdpMapperInput): Promise<IdpMapperRecord> {
    const realm = await this.realms.get(realmName);
    await this.provider(realm, alias);
    const current = await this.find(realm, alias, id);
    const checked = checkMapperInput(input, { alias, id });
    const expected: IdpMapperRecord = { ...current, ...checked };
    let updated: IdpMapperRecord | null = null;
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id, expect: expectFields(fields, expected) },
      { operationType: "UPDATE", resourceType: IDENTITY_PROVIDER_MAPPER, path: path(realm, alias, id), representation: mapperView(expected) },
      async () => (updated = await unique(() => this.mappers.replace(realm.id, id, checked), checked.name)) !== null);
    if (!updated) throw notFound(id);
    return updated;
  }

  async delete(realmName: string, alias: string, id: string): Promise<void> {
    const realm = await this.realms.get(realmName);
    await this.provider(realm, alias);
    await this.find(realm, alias, id);
    let deleted: IdpMapperRecord | null = null;
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id, expect: "absent" },
      { operationType: "DELETE", resourceType: IDENTITY_PROVIDER_MAPPER, path: path(realm, alias, id) },
      async () => (deleted = await this.mappers.deleteById(realm.id, id)) !== null);
    if (!deleted) throw notFound(id);
  }

  private async provider(realm: RealmRef, alias: string): Promise<void> {
    if (!(await this.providers.findByAlias(realm.id, alias))) throw providerNotFound(alias);
  }

  private async find(realm: RealmRef, alias: string, id: string): Promise<IdpMapperRecord> {
    const m = UUID.test(id) ? await this.mappers.findById(realm.id, id) : null;
    if (!m || m.alias !== alias) throw notFound(id);
    return m;
  }
}

function notFound(id: string): IamError {
  return IamError.notFound(`identity provider mapper "${id}"`, "mapper_not_found");
}

function path(realm: RealmRef, alias: string, id: string): string {
  return `realms/${realm.name}/identity-providers/${alias}/mappers/${id}`;
}

/** The name is unique per provider: the unique index decides, so two racing writes cannot both win. */
async function unique<T>(write: () => Promise<T>, name: string): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`mapper with name "${name}" already exists`, "name");
    throw e;
  }
}
