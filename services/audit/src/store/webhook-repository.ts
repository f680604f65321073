import type { Collection, Store } from "../../../kit/src/store/port.js";
import type { WebhookRecord } from "../domain/webhook.js";

/** A realm's webhooks. */
export class WebhookRepository {
  private constructor(private readonly hooks: Collection<WebhookRecord>) {}

  static async open(store: Store): Promise<WebhookRepository> {
    return new WebhookRepository(await store.collection<WebhookRecord>({
      name: "webhooks",
      indexes: [{ fields: ["realmId", "createdAt"] }, { fields: ["realm", "enabled"] }],
    }));
  }

  insert(w: WebhookRecord): Promise<void> {
    return this.hooks.insert(w);
  }

  async findById(realmId: string, id: string): Promise<WebhookRecord | null> {
    const w = await this.hooks.get(id);
    return w && w.realmId === realmId ? w : null;
  }

  /** The webhook a delivery belongs to, whatever its realm (the dispatcher's read). */
  byId(id: string): Promise<WebhookRecord | null> {
    return this.hooks.get(id);
  }

  listByCreation(realmId: string, first: number, max: number): Promise<WebhookRecord[]> {
    return this.hooks.find({ realmId }, { sort: [["createdAt", 1]], skip: first, limit: max });
  }

  /** The enabled webhooks of a realm, by name: events carry the realm's name. */
  enabledIn(realm: string): Promise<WebhookRecord[]> {
    return this.hooks.find({ realm, enabled: true }, { limit: 1000 });
  }

  update(realmId: string, id: string, set: Partial<WebhookRecord>): Promise<WebhookRecord | null> {
    return this.hooks.findOneAndUpdate({ _id: id, realmId }, { $set: set });
  }

  /**
   * A rotation: the secret changes only if it is still the one the rotation read (a conditional
   * update), so of two concurrent rotations one wins and the other is told, rather than the
   * loser's new secret being shown and never used.
   */
  rotate(realmId: string, id: string, expectedSealed: string, set: Partial<WebhookRecord>): Promise<WebhookRecord | null> {
    return this.hooks.findOneAndUpdate({ _id: id, realmId, secretSealed: expectedSealed }, { $set: set });
  }

  async deleteById(realmId: string, id: string): Promise<boolean> {
    return (await this.hooks.deleteMany({ _id: id, realmId })) > 0;
  }

  /** Writes an imported webhook under its kept id, taking over one left by the realm it replaces. */
  putImported(w: WebhookRecord): Promise<void> {
    return this.hooks.upsert(w);
  }

  async idsOfRealm(realmId: string): Promise<string[]> {
    return (await this.hooks.find({ realmId }, { sort: [["createdAt", 1]] })).map((w) => w._id);
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.hooks.deleteMany({ realmId });
  }
}
