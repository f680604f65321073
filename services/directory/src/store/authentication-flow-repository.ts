import type { Collection, Store } from "../../../kit/src/store/port.js";
import type { FlowRecord } from "../domain/authentication-flow.js";

/** A realm's authentication flows; the alias is unique per realm, the list in alias order. */
export class AuthenticationFlowRepository {
  private constructor(private readonly flows: Collection<FlowRecord>) {}

  static async open(store: Store): Promise<AuthenticationFlowRepository> {
    return new AuthenticationFlowRepository(await store.collection<FlowRecord>({
      name: "authentication_flows",
      indexes: [{ fields: ["realmId", "alias"], unique: true }],
    }));
  }

  /** Throws IamError alreadyExists when the alias is taken in the realm. */
  insert(f: FlowRecord): Promise<void> {
    return this.flows.insert(f);
  }

  findById(realmId: string, id: string): Promise<FlowRecord | null> {
    return this.flows.findOne({ _id: id, realmId });
  }

  findByAlias(realmId: string, alias: string): Promise<FlowRecord | null> {
    return this.flows.findOne({ realmId, alias });
  }

  page(realmId: string, skip: number, limit: number): Promise<FlowRecord[]> {
    return this.flows.find({ realmId }, { sort: [["alias", 1]], skip, limit });
  }

  all(realmId: string): Promise<FlowRecord[]> {
    return this.flows.find({ realmId }, { sort: [["alias", 1]] });
  }

  update(realmId: string, id: string, set: Partial<FlowRecord>): Promise<FlowRecord | null> {
    return this.flows.findOneAndUpdate({ _id: id, realmId }, { $set: set });
  }

  delete(realmId: string, id: string): Promise<boolean> {
    return this.flows.deleteMany({ _id: id, realmId }).then((n) => n > 0);
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.flows.deleteMany({ realmId });
  }
}
