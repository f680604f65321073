import { Code, ConnectError } from "@connectrpc/connect";
import { IamError } from "../../../kit/src/errors.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { Problem, UserFederationProviderDoc } from "../../../kit/src/realm-transfer/document-schema.js";
import type { RealmLookup } from "./realm-ref.js";
import type { ProviderRepository } from "../store/provider-repository.js";
import { bindCredentialAad, newProviderRecord, type ProviderInput, type ProviderRecord } from "./provider.js";
import { checkCreateInput } from "./provider-rules.js";

export interface FederationPart {
  userFederationProviders?: UserFederationProviderDoc[] | undefined;
}

/** Stands in for a credential left out of the document, so the create rules check everything else. */
const ABSENT_CREDENTIAL = "absent";

/**
 * The federation service's part of a realm export and import (DESIGN 3): the realm's LDAP
 * providers as the Admin API shows them, without their sync state (the imported realm's syncs
 * start afresh on its own schedule). The bind credential is opened only with includeSecrets and
 * is otherwise absent; a provider imported without one is kept with none set (it binds to
 * nothing until an admin sets it) and noted. Ids are kept.
 */
export class FederationTransfer {
  constructor(
    private readonly realms: RealmLookup,
    private readonly repo: ProviderRepository,
    private readonly secrets: SecretBox,
    private readonly now: () => number,
  ) {}

  async export(realmId: string, includeSecrets: boolean): Promise<UserFederationProviderDoc[]> {
    return (await this.repo.listByPriority(realmId)).map((p) => providerDoc(p, includeSecrets && p.bindCredential
      ? this.secrets.open(p.bindCredential, bindCredentialAad(p._id)) : undefined));
  }

  /** Every problem of the part, each with its path in the document; nothing is written. */
  async validate(part: FederationPart, realmName: string): Promise<Problem[]> {
    const problems: Problem[] = [];
    const names = new Map<string, number>();
    const ids = new Map<string, number>();
    for (const [i, doc] of (part.userFederationProviders ?? []).entries()) {
      const p = `$.userFederationProviders[${i}]`;
      try {
        const input = inputOf(doc);
        checkCreateInput({ ...input, bindCredential: input.bindCredential ?? ABSENT_CREDENTIAL });
      } catch (e) {
        if (!(e instanceof IamError)) throw e;
        problems.push({ path: e.field ? `${p}.${e.field}` : p, message: e.message });
      }
      // Names are unique in a realm regardless of case, as on the Admin API.
      const key = doc.name.trim().toLowerCase();
      if (names.has(key)) problems.push({ path: `${p}.name`, message: `name "${doc.name}" is also used at $.userFederationProviders[${names.get(key)}]` });
      else names.set(key, i);
      if (ids.has(doc.id)) problems.push({ path: `${p}.id`, message: `id is also used at $.userFederationProviders[${ids.get(doc.id)}]` });
      else ids.set(doc.id, i);
    }
    for (const r of await this.repo.findByIds([...ids.keys()])) {
      if (await this.heldByAnotherRealm(r, realmName)) problems.push({ path: `$.userFederationProviders[${ids.get(r._id)}].id`, message: `id "${r._id}" belongs to realm "${r.realm}"` });
    }
    return problems;
  }

  /** Writes the providers under the staging realm's id; answers what the report should say. */
  async import(realmId: string, realmName: string, part: FederationPart): Promise<Problem[]> {
    const notes: Problem[] = [];
    for (const [i, doc] of (part.userFederationProviders ?? []).entries()) {
      const input = inputOf(doc);
      const sealed = input.bindCredential ? this.secrets.seal(input.bindCredential, bindCredentialAad(doc.id)) : "";
      await this.repo.putImported(newProviderRecord(input, { id: doc.id, realmId, realm: realmName }, sealed, this.now()));
      if (!sealed) {
        notes.push({
          path: `$.userFederationProviders[${i}].bindCredential`,
          message: `no bind credential in the document (exported without includeSecrets): set it with PUT /admin/realms/${realmName}/user-federation/${doc.id}; until then the provider cannot bind, sync or log users in`,
        });
      }
    }
    return notes;
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

/** The provider as the Admin API shows it (providerView) without its sync state, and the credential when given. */
function providerDoc(p: ProviderRecord, bindCredential: string | undefined): UserFederationProviderDoc {
  return {
    id: p._id, name: p.name, providerType: p.providerType, enabled: p.enabled, priority: p.priority,
    connectionUrl: p.connectionUrl, bindDn: p.bindDn, ...(bindCredential !== undefined ? { bindCredential } : {}), usersDn: p.usersDn,
    userObjectClass: p.userObjectClass, usernameLdapAttr: p.usernameLdapAttr, uuidLdapAttr: p.uuidLdapAttr,
    emailLdapAttr: p.emailLdapAttr, firstNameLdapAttr: p.firstNameLdapAttr, lastNameLdapAttr: p.lastNameLdapAttr,
    syncMode: p.syncMode, syncPeriod: p.syncPeriod, changedSyncPeriod: p.changedSyncPeriod, importEnabled: p.importEnabled,
    connectionTimeout: p.connectionTimeout, vanishedUsers: p.vanishedUsers,
  };
}

function inputOf(doc: UserFederationProviderDoc): ProviderInput {
  const { id: _id, ...fields } = doc;
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as ProviderInput;
}
