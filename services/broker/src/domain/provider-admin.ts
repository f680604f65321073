import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { Outbox } from "../../../kit/src/bus/outbox.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { OutboundPolicy } from "../../../kit/src/outbound/address-policy.js";
import { expectFields, recordWriteKind } from "../../../kit/src/events/audited-write.js";
import type { ProviderRepository } from "../store/provider-repository.js";
import type { LinkRepository } from "../store/link-repository.js";
import type { MapperRepository } from "../store/mapper-repository.js";
import { auditedWrite } from "./audited-write.js";
import type { RealmLookup, RealmRef } from "./realm-ref.js";
import { newProviderRecord, PRESETS, providerView, secretAad, type IdentityProviderInput, type IdentityProviderRecord } from "./identity-provider.js";
import { checkCreateInput, checkUpdateInput, checkVerifiable } from "./provider-rules.js";

export const IDENTITY_PROVIDER = "IDENTITY_PROVIDER";

const fields = (p: IdentityProviderRecord): IdentityProviderRecord => p;

/**
 * Identity provider administration (spec 2.9, 4.10). Each write stages its admin event in the
 * broker's outbox with it (kit events/audited-write.ts): a provider's endpoints decide whom the
 * realm trusts to log users in, so a crash must not keep such a change and lose its record.
 */
export class ProviderAdmin {
  private readonly kind = recordWriteKind("broker.identity-provider", (realmId, id) => this.repo.findById(realmId, id), fields);

  constructor(
    private readonly repo: ProviderRepository,
    private readonly links: LinkRepository,
    private readonly mappers: MapperRepository,
    private readonly realms: RealmLookup,
    private readonly outbox: Outbox,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    private readonly policy: OutboundPolicy,
  ) {
    outbox.register(this.kind);
  }

  async create(realmName: string, input: IdentityProviderInput): Promise<IdentityProviderRecord> {
    checkCreateInput(input, this.policy);
    const realm = await this.realms.get(realmName);
    const id = randomUUID();
    const alias = input.alias as string;
    const sealed = this.secrets.seal(input.clientSecret as string, secretAad({ realmId: realm.id, _id: id }));
    const p = newProviderRecord(input, { id, realmId: realm.id, realm: realm.name }, sealed, this.clock.now());
    checkVerifiable(p);
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id, expect: "present" },
      { operationType: "CREATE", resourceType: IDENTITY_PROVIDER, path: path(realm, alias), representation: providerView(p) }, async () => {
        await this.unique(() => this.repo.insert(p), alias);
        return true;
      });
    return p;
  }

  async list(realmName: string): Promise<IdentityProviderRecord[]> {
    const realm = await this.realms.get(realmName);
    return this.repo.listByCreation(realm.id);
  }

  async get(realmName: string, alias: string): Promise<IdentityProviderRecord> {
    const realm = await this.realms.get(realmName);
    return this.find(realm, alias);
  }

  async update(realmName: string, alias: string, input: IdentityProviderInput): Promise<IdentityProviderRecord> {
    const realm = await this.realms.get(realmName);
    const current = await this.find(realm, alias);
    checkUpdateInput(current, input, this.policy);
    const { alias: _a, providerType: _t, clientSecret, userinfoUrl, jwksUrl, issuer, ...rest } = input;
    const set: Partial<IdentityProviderRecord> = { ...definedOnly(rest), updatedAt: this.clock.now() };
    if (set.defaultScopes !== undefined) set.defaultScopes = set.defaultScopes.trim() || PRESETS[current.providerType].defaultScopes;
    if (set.displayName !== undefined && !set.displayName) set.displayName = current.alias;
    const unset: string[] = [];
    for (const [k, v] of [["userinfoUrl", userinfoUrl], ["jwksUrl", jwksUrl], ["issuer", issuer]] as const) {
      if (v === "") unset.push(k);
      else if (v !== undefined) set[k] = v;
    }
    if (clientSecret !== undefined) set.clientSecretSealed = this.secrets.seal(clientSecret, secretAad(current));
    const expected: IdentityProviderRecord = { ...current, ...set };
    for (const k of unset) delete (expected as Record<string, unknown>)[k];
    checkVerifiable(expected);
    let updated: IdentityProviderRecord | null = null;
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id: current._id, expect: expectFields(fields, expected) },
      { operationType: "UPDATE", resourceType: IDENTITY_PROVIDER, path: path(realm, alias), representation: providerView(expected) },
      async () => (updated = await this.repo.update(realm.id, current._id, set, unset)) !== null);
    if (!updated) throw notFound(alias);
    return updated;
  }

  /** Deletes the provider, its links and its mappers (as Keycloak's removal does); answers the deleted provider (spec 4.10). */
  async delete(realmName: string, alias: string): Promise<IdentityProviderRecord> {
    const realm = await this.realms.get(realmName);
    const current = await this.find(realm, alias);
    let deleted: IdentityProviderRecord | null = null;
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id: current._id, expect: "absent" },
      { operationType: "DELETE", resourceType: IDENTITY_PROVIDER, path: path(realm, alias) },
      async () => (deleted = await this.repo.deleteById(realm.id, current._id)) !== null);
    if (!deleted) throw notFound(alias);
    await this.links.deleteProvider(realm.id, alias);
    await this.mappers.deleteProvider(realm.id, alias);
    return deleted;
  }

  private async find(realm: RealmRef, alias: string): Promise<IdentityProviderRecord> {
    const p = await this.repo.findByAlias(realm.id, alias);
    if (!p) throw notFound(alias);
    return p;
  }

  /** alias is unique per realm (spec 2.9): the unique index decides, so races cannot both win. */
  private async unique<T>(write: () => Promise<T>, alias: string): Promise<T> {
    try {
      return await write();
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") {
        throw IamError.conflict(`identity provider with alias "${alias}" already exists`, "alias");
      }
      throw e;
    }
  }
}

export function notFound(alias: string): IamError {
  return IamError.notFound(`identity provider "${alias}"`, "identity_provider_not_found");
}

function path(realm: RealmRef, alias: string): string {
  return `realms/${realm.name}/identity-providers/${alias}`;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
