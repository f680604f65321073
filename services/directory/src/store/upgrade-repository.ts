import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

interface UpgradeDone extends Doc {
  doneAt: number;
}

/**
 * Start-up upgrades of stored data that ran to completion, one document per upgrade name, so a
 * finished upgrade costs one read by id at each start instead of its search for work.
 */
export class UpgradeRepository {
  private constructor(private readonly upgrades: Collection<UpgradeDone>) {}

  static async open(store: Store): Promise<UpgradeRepository> {
    return new UpgradeRepository(await store.collection<UpgradeDone>({ name: "store_upgrades" }));
  }

  async isDone(name: string): Promise<boolean> {
    return (await this.upgrades.get(name)) !== null;
  }

  async markDone(name: string, at: number): Promise<void> {
    await this.upgrades.upsert({ _id: name, doneAt: at });
  }
}
