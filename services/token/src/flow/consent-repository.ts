import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/** Scopes a user granted a client (OIDC Core 1.0 section 3.1.2.4), remembered per user + client. */
export interface ConsentRecord extends Doc {
  realmId: string;
  userId: string;
  clientId: string;
  /** Names of the client scopes consented to, those the consent page listed (consent-scopes.ts). */
  scopes: string[];
  createdAt: number;
  updatedAt: number;
}

/** The `consents` collection. */
export class ConsentRepository {
  private constructor(private readonly consents: Collection<ConsentRecord>) {}

  static async open(store: Store): Promise<ConsentRepository> {
    return new ConsentRepository(await store.collection<ConsentRecord>({
      name: "consents",
      indexes: [{ fields: ["realmId", "userId"] }, { fields: ["realmId", "clientId", "createdAt"] }],
    }));
  }

  private static id(realmId: string, userId: string, clientId: string): string {
    return `${realmId}:${userId}:${clientId}`;
  }

  async granted(realmId: string, userId: string, clientId: string): Promise<string[]> {
    return (await this.consents.get(ConsentRepository.id(realmId, userId, clientId)))?.scopes ?? [];
  }

  /** Adds scopes to what the user granted the client. */
  async grant(realmId: string, userId: string, clientId: string, scopes: string[], now: number): Promise<void> {
    const _id = ConsentRepository.id(realmId, userId, clientId);
    const existing = await this.consents.get(_id);
    const all = [...new Set([...(existing?.scopes ?? []), ...scopes])];
    await this.consents.upsert({ _id, realmId, userId, clientId, scopes: all, createdAt: existing?.createdAt ?? now, updatedAt: now });
  }

  /** A user's consents, by client id (the account console's Applications; a handful per user). */
  async listUser(realmId: string, userId: string): Promise<ConsentRecord[]> {
    const found = await this.consents.find({ realmId, userId });
    return found.sort((a, b) => (a.clientId < b.clientId ? -1 : a.clientId > b.clientId ? 1 : 0));
  }

  /** Forgets what the user granted the client; false when there was nothing. */
  async revoke(realmId: string, userId: string, clientId: string): Promise<boolean> {
    return this.consents.delete(ConsentRepository.id(realmId, userId, clientId));
  }

  /**
   * A deleted client's consents, those given up to `upTo` (the deletion's time): a client created
   * again under the same clientId is another client, which the users have not consented to (as
   * Keycloak drops a deleted client's consents). Later ones belong to the new client.
   */
  deleteClient(realmId: string, clientId: string, upTo: number): Promise<number> {
    return this.consents.deleteMany({ realmId, clientId, createdAt: { $lte: upTo } });
  }

  /** A deleted user's consents (user ids are never reused, so no time bound is needed). */
  deleteUser(realmId: string, userId: string): Promise<number> {
    return this.consents.deleteMany({ realmId, userId });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.consents.deleteMany({ realmId });
  }
}
