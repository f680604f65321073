import type { Collection, Store } from "../../../kit/src/store/port.js";

/** A local user's link to an upstream account: (alias, upstream subject) names one local user. */
export interface FederatedLinkRecord {
  [key: string]: unknown;
  _id: string;
  realmId: string;
  userId: string;
  alias: string;
  /** The provider's id: a provider deleted and created again under the same alias does not inherit its links. */
  providerId: string;
  /** The upstream `sub` (GitHub: the numeric account id). */
  subject: string;
  /** The upstream username, as last seen. */
  username: string;
  createdAt: number;
}

/** Federated identity links, named by intent. */
export class LinkRepository {
  private constructor(private readonly links: Collection<FederatedLinkRecord>) {}

  static async open(store: Store): Promise<LinkRepository> {
    const links = await store.collection<FederatedLinkRecord>({
      name: "broker_federated_links",
      indexes: [
        { fields: ["realmId", "alias", "subject"], unique: true },
        // One link per user and provider, as Keycloak.
        { fields: ["realmId", "userId", "alias"], unique: true },
      ],
    });
    return new LinkRepository(links);
  }

  /** Throws IamError alreadyExists when the upstream account or the user is linked already. */
  insert(link: FederatedLinkRecord): Promise<void> {
    return this.links.insert(link);
  }

  /** An imported realm's links, validated first (no two name one account or one user and provider). */
  insertMany(links: FederatedLinkRecord[]): Promise<void> {
    return this.links.insertMany(links);
  }

  findBySubject(realmId: string, alias: string, subject: string): Promise<FederatedLinkRecord | null> {
    return this.links.findOne({ realmId, alias, subject });
  }

  listByUser(realmId: string, userId: string): Promise<FederatedLinkRecord[]> {
    return this.links.find({ realmId, userId }, { sort: [["alias", 1]] });
  }

  /** The links of a page of users (a realm export's). */
  listByUsers(realmId: string, userIds: string[]): Promise<FederatedLinkRecord[]> {
    return userIds.length ? this.links.find({ realmId, userId: { $in: userIds } }, { sort: [["alias", 1]] }) : Promise.resolve([]);
  }

  deleteOne(realmId: string, userId: string, alias: string): Promise<FederatedLinkRecord | null> {
    return this.links.findOneAndDelete({ realmId, userId, alias });
  }

  setUsername(id: string, username: string): Promise<number> {
    return this.links.update({ _id: id }, { $set: { username } });
  }

  deleteUser(realmId: string, userId: string): Promise<number> {
    return this.links.deleteMany({ realmId, userId });
  }

  /** Links of an earlier provider under this alias (its deletion's cleanup did not finish). */
  deleteStale(realmId: string, alias: string, providerId: string): Promise<number> {
    return this.links.deleteMany({ realmId, alias, providerId: { $ne: providerId } });
  }

  deleteProvider(realmId: string, alias: string): Promise<number> {
    return this.links.deleteMany({ realmId, alias });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.links.deleteMany({ realmId });
  }
}
