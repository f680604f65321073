import type { Collection, Store } from "../../../kit/src/store/port.js";
import { countWrites, type WriteCounter } from "../../../kit/src/store/write-counted.js";
import type { ClientRecord } from "../domain/client.js";

/** The realm's clients; `clientId` is unique per realm. */
export class ClientRepository {
  private constructor(private readonly clients: Collection<ClientRecord>) {}

  /** `writes` counts this repository's writes for a read cache (WriteCounter). */
  static async open(store: Store, writes?: WriteCounter): Promise<ClientRepository> {
    const clients = await store.collection<ClientRecord>({
      name: "clients",
      indexes: [
        { fields: ["realmId", "clientId"], unique: true }, { fields: ["realmId", "createdAt"] },
        { fields: ["realmId", "browserFlowOverride"] }, { fields: ["realmId", "directGrantFlowOverride"] },
      ],
    });
    return new ClientRepository(writes ? countWrites(clients, writes) : clients);
  }

  /** Throws IamError alreadyExists when the clientId is taken in the realm. */
  insert(client: ClientRecord): Promise<void> {
    return this.clients.insert(client);
  }

  findByClientId(realmId: string, clientId: string): Promise<ClientRecord | null> {
    return this.clients.findOne({ realmId, clientId });
  }

  /** Clients whose browser or direct-grant flow override names the alias (a flow in use cannot go). */
  async findByFlowOverride(realmId: string, alias: string): Promise<ClientRecord[]> {
    const [browser, direct] = await Promise.all([
      this.clients.find({ realmId, browserFlowOverride: alias }, { limit: 20 }),
      this.clients.find({ realmId, directGrantFlowOverride: alias }, { limit: 20 }),
    ]);
    return [...new Map([...browser, ...direct].map((c) => [c._id, c])).values()];
  }

  findById(realmId: string, id: string): Promise<ClientRecord | null> {
    return this.clients.findOne({ realmId, _id: id });
  }

  findByIds(realmId: string, ids: string[]): Promise<ClientRecord[]> {
    return ids.length ? this.clients.find({ realmId, _id: { $in: ids } }) : Promise.resolve([]);
  }

  list(realmId: string): Promise<ClientRecord[]> {
    return this.clients.find({ realmId }, { sort: [["createdAt", 1]] });
  }

  update(realmId: string, id: string, set: Partial<ClientRecord>): Promise<ClientRecord | null> {
    return this.clients.findOneAndUpdate({ realmId, _id: id }, { $set: set });
  }

  delete(realmId: string, id: string): Promise<ClientRecord | null> {
    return this.clients.findOneAndDelete({ realmId, _id: id });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.clients.deleteMany({ realmId });
  }
}
