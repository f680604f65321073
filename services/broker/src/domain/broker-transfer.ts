import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { IamError } from "../../../kit/src/errors.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { OutboundPolicy } from "../../../kit/src/outbound/address-policy.js";
import type { FederatedIdentityDoc, IdentityProviderDoc, IdentityProviderMapperDoc, Problem } from "../../../kit/src/realm-transfer/document-schema.js";
import type { RealmLookup } from "./realm-ref.js";
import type { ProviderRepository } from "../store/provider-repository.js";
import type { FederatedLinkRecord, LinkRepository } from "../store/link-repository.js";
import { newProviderRecord, secretAad, type IdentityProviderInput, type IdentityProviderRecord } from "./identity-provider.js";
import { checkCreateInput, checkVerifiable } from "./provider-rules.js";
import type { MapperRepository } from "../store/mapper-repository.js";
import { mapperProblems, mapperRecord } from "./mapper-transfer.js";
import { mapperView } from "./idp-mapper.js";

/** A user's links as the document holds them: `users[i]` keeps the document's index. */
export interface UserLinksDoc {
  id: string;
  federatedIdentities: FederatedIdentityDoc[];
}

export interface BrokerPart {
  identityProviders?: IdentityProviderDoc[] | undefined;
  identityProviderMappers?: IdentityProviderMapperDoc[] | undefined;
  users?: UserLinksDoc[] | undefined;
}

/** Stands in for a secret left out of the document, so the create rules check everything else. */
const ABSENT_SECRET = "absent";

/**
 * The broker's part of a realm export and import (DESIGN 3): identity providers, and each user's
 * links to them (Keycloak's `federatedIdentities`, merged into the document's users by the
 * gateway). The client secret is opened only with includeSecrets and is otherwise absent; a
 * provider imported without one is kept with none set (login through it is refused) and noted.
 * Provider ids are kept; links are named by (alias, upstream subject) and get new ids.
 */
export class BrokerTransfer {
  constructor(
    private readonly realms: RealmLookup,
    private readonly providers: ProviderRepository,
    private readonly links: LinkRepository,
    private readonly mappers: MapperRepository,
    private readonly secrets: SecretBox,
    private readonly policy: OutboundPolicy,
    private readonly now: () => number,
  ) {}

  async exportProviders(realmId: string, includeSecrets: boolean): Promise<IdentityProviderDoc[]> {
    return (await this.providers.listByCreation(realmId)).map((p) => providerDoc(p, includeSecrets ? this.secretOf(p) : undefined));
  }

  /** Keycloak's `identityProviderMappers`, ids kept. */
  async exportMappers(realmId: string): Promise<IdentityProviderMapperDoc[]> {
    return (await this.mappers.listByRealm(realmId)).map(mapperView);
  }

  /** The links of one page of exported users: user id -> {federatedIdentities}; users without links are left out. */
  async exportLinks(realmId: string, userIds: string[]): Promise<Record<string, { federatedIdentities: FederatedIdentityDoc[] }>> {
    const out: Record<string, { federatedIdentities: FederatedIdentityDoc[] }> = {};
    for (const l of await this.links.listByUsers(realmId, userIds)) {
      (out[l.userId] ??= { federatedIdentities: [] }).federatedIdentities.push({ identityProvider: l.alias, userId: l.subject, userName: l.username });
    }
    return out;
  }

  /** Every problem of the part, each with its path in the document; nothing is written. */
  async validate(part: BrokerPart, realmName: string): Promise<Problem[]> {
    const problems: Problem[] = [];
    const idps = part.identityProviders ?? [];
    const aliases = new Map<string, number>();
    const ids = new Map<string, number>();
    for (const [i, doc] of idps.entries()) {
      const p = `$.identityProviders[${i}]`;
      try {
        const input = inputOf(doc);
        checkCreateInput({ ...input, clientSecret: input.clientSecret ?? ABSENT_SECRET }, this.policy);
        checkVerifiable(newProviderRecord(input, { id: doc.id, realmId: "", realm: realmName }, "", 0));
      } catch (e) {
        if (!(e instanceof IamError)) throw e;
        problems.push({ path: e.field ? `${p}.${e.field}` : p, message: e.message });
      }
      if (aliases.has(doc.alias)) problems.push({ path: `${p}.alias`, message: `alias "${doc.alias}" is also used at $.identityProviders[${aliases.get(doc.alias)}]` });
      else aliases.set(doc.alias, i);
      if (ids.has(doc.id)) problems.push({ path: `${p}.id`, message: `id is also used at $.identityProviders[${ids.get(doc.id)}]` });
      else ids.set(doc.id, i);
    }
    for (const r of await this.providers.findByIds([...ids.keys()])) {
      if (await this.heldByAnotherRealm(r, realmName)) problems.push({ path: `$.identityProviders[${ids.get(r._id)}].id`, message: `id "${r._id}" belongs to realm "${r.realm}"` });
    }
    problems.push(...linkProblems(part.users ?? [], aliases));
    problems.push(...mapperProblems(part.identityProviderMappers ?? [], aliases));
    const mapperIds = new Map((part.identityProviderMappers ?? []).map((m, i) => [m.id, i]));
    for (const m of await this.mappers.findByIds([...mapperIds.keys()])) {
      const owner = await this.providers.findByAlias(m.realmId, m.alias);
      if (owner && (await this.heldByAnotherRealm(owner, realmName))) {
        problems.push({ path: `$.identityProviderMappers[${mapperIds.get(m._id)}].id`, message: `id "${m._id}" belongs to realm "${owner.realm}"` });
      }
    }
    return problems;
  }

  /** Writes the providers, then (later calls, in batches) the users' links, under the staging realm's id. */
  async import(realmId: string, realmName: string, part: BrokerPart, offset: number): Promise<Problem[]> {
    const notes: Problem[] = [];
    for (const [i, doc] of (part.identityProviders ?? []).entries()) {
      const input = inputOf(doc);
      const sealed = input.clientSecret ? this.secrets.seal(input.clientSecret, secretAad({ realmId, _id: doc.id })) : "";
      await this.providers.putImported(newProviderRecord(input, { id: doc.id, realmId, realm: realmName }, sealed, this.now()));
      if (!sealed) {
        notes.push({
          path: `$.identityProviders[${i}].clientSecret`,
          message: `no client secret in the document (exported without includeSecrets): set it with PUT /admin/realms/${realmName}/identity-providers/${doc.alias}; until then login through it is refused`,
        });
      }
    }
    const now = this.now();
    for (const [i, doc] of (part.identityProviderMappers ?? []).entries()) await this.mappers.putImported(mapperRecord(doc, realmId, now + i));
    if (part.users?.length) await this.importLinks(realmId, part.users, offset);
    return notes;
  }

  private async importLinks(realmId: string, users: UserLinksDoc[], offset: number): Promise<void> {
    const byAlias = new Map((await this.providers.listByCreation(realmId)).map((p) => [p.alias, p._id]));
    const now = this.now();
    const records: FederatedLinkRecord[] = [];
    for (const [i, u] of users.entries()) {
      for (const l of u.federatedIdentities) {
        const providerId = byAlias.get(l.identityProvider);
        // Validation resolved every alias against the document's providers, imported first.
        if (!providerId) throw IamError.invalid("json", `$.users[${offset + i}]: no identity provider "${l.identityProvider}" (validate first)`);
        records.push({ _id: randomUUID(), realmId, userId: u.id, alias: l.identityProvider, providerId, subject: l.userId, username: l.userName, createdAt: now });
      }
    }
    if (records.length) await this.links.insertMany(records);
  }

  private secretOf(p: IdentityProviderRecord): string | undefined {
    return p.clientSecretSealed ? this.secrets.open(p.clientSecretSealed, secretAad(p)) : undefined;
  }

  /**
   * An id is taken while the realm holding it lives under another name. The realm being replaced
   * (overwrite) hands its ids over, and a deleted realm's records, which its realm.deleted
   * consumer drops later, hold nothing.
   */
  private async heldByAnotherRealm(r: { realmId: string; realm: string }, realmName: string): Promise<boolean> {
    if (r.realm === realmName) return false;
    try {
      return (await this.realms.get(r.realm)).id === r.realmId;
    } catch (e) {
      if (e instanceof ConnectError && e.code === Code.NotFound) return false;
      throw e;
    }
  }
}

/** The provider as the Admin API shows it (providerView), with its id, and the secret when given. */
function providerDoc(p: IdentityProviderRecord, clientSecret: string | undefined): IdentityProviderDoc {
  return {
    id: p._id, alias: p.alias, displayName: p.displayName, providerType: p.providerType, enabled: p.enabled, clientId: p.clientId,
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    authorizationUrl: p.authorizationUrl, tokenUrl: p.tokenUrl,
    ...(p.userinfoUrl ? { userinfoUrl: p.userinfoUrl } : {}), ...(p.jwksUrl ? { jwksUrl: p.jwksUrl } : {}), ...(p.issuer ? { issuer: p.issuer } : {}),
    defaultScopes: p.defaultScopes, trustEmail: p.trustEmail, syncUserProfile: p.syncUserProfile, loginHint: p.loginHint === true,
  };
}

function inputOf(doc: IdentityProviderDoc): IdentityProviderInput {
  const { id: _id, ...fields } = doc;
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as IdentityProviderInput;
}

/**
 * The links' rules, as the broker's own store enforces them: each names a provider of the
 * document, an upstream account links one user, and a user has one link per provider.
 */
function linkProblems(users: UserLinksDoc[], aliases: Map<string, number>): Problem[] {
  const problems: Problem[] = [];
  const accounts = new Map<string, number>();
  for (const [i, u] of users.entries()) {
    const seen = new Set<string>();
    for (const [j, l] of (u.federatedIdentities ?? []).entries()) {
      const p = `$.users[${i}].federatedIdentities[${j}]`;
      if (!aliases.has(l.identityProvider)) {
        problems.push({ path: `${p}.identityProvider`, message: `no identity provider "${l.identityProvider}" in identityProviders` });
        continue;
      }
      if (seen.has(l.identityProvider)) problems.push({ path: `${p}.identityProvider`, message: `the user is linked to "${l.identityProvider}" twice` });
      seen.add(l.identityProvider);
      const key = `${l.identityProvider}\u0000${l.userId}`;
      if (accounts.has(key) && accounts.get(key) !== i) problems.push({ path: `${p}.userId`, message: `the account "${l.userId}" of "${l.identityProvider}" is also linked to $.users[${accounts.get(key)}]` });
      else accounts.set(key, i);
    }
  }
  return problems;
}
