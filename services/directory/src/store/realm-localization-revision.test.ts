import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import type { RealmRecord } from "../domain/realm.js";
import { RealmRepository } from "./realm-repository.js";

// The compare-and-set under a realm's text overrides (RealmAdmin.changeLocalizationTexts): a write
// made from a revision another write has moved past is refused, so neither change is lost.
describe("RealmRepository.updateLocalization", () => {
  let store: SqliteStore;
  beforeEach(() => {
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0 });
  });
  afterEach(() => store.close());

  it("writes from the revision it read, and refuses a write from a revision since passed", async () => {
    const repo = await RealmRepository.open(store);
    await repo.insert({ _id: "id-acme", name: "acme", displayName: "Acme", createdAt: 1 } as unknown as RealmRecord);
    const first = await repo.updateLocalization("acme", 0, { localizationTexts: [{ locale: "de", key: "a", text: "A" }] });
    expect([first?.localizationRevision, first?.localizationTexts]).toEqual([1, [{ locale: "de", key: "a", text: "A" }]]);
    // A second writer that also read "never written" loses, and the first change stays.
    expect(await repo.updateLocalization("acme", 0, { localizationTexts: [{ locale: "de", key: "b", text: "B" }] })).toBeNull();
    expect(await repo.updateLocalization("acme", 2, { localizationTexts: [] })).toBeNull();
    const second = await repo.updateLocalization("acme", 1, { localizationTexts: [{ locale: "de", key: "a", text: "A" }, { locale: "de", key: "b", text: "B" }] });
    expect([second?.localizationRevision, second?.localizationTexts?.length]).toEqual([2, 2]);
    expect((await repo.findCurrentByName("acme"))?.localizationRevision).toBe(2);
  });
});
