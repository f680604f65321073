import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import type { RealmRecord } from "../domain/realm.js";
import { REALM_CACHE_MS, RealmRepository } from "./realm-repository.js";

describe("RealmRepository cache", () => {
  let store: SqliteStore;
  let now = 0;
  const realm = (name: string, displayName: string) => ({ _id: `id-${name}`, name, displayName, createdAt: 1 }) as unknown as RealmRecord;
  /** Writes behind the repository's back, as another directory process would. */
  const elsewhere = async (name: string, displayName: string) => {
    const raw = await store.collection<RealmRecord>({ name: "realms" });
    await raw.update({ name }, { $set: { displayName } });
  };

  beforeEach(() => {
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0 });
    now = 0;
  });
  afterEach(() => store.close());

  it("is one repository per store, so a write through any slice drops the entry for all", async () => {
    const a = await RealmRepository.open(store, () => now);
    const b = await RealmRepository.open(store);
    expect(b).toBe(a);
    await a.insert(realm("acme", "Acme"));
    expect((await b.findByName("acme"))?.displayName).toBe("Acme");
    await a.updateByName("acme", { displayName: "Acme 2" });
    expect((await b.findByName("acme"))?.displayName).toBe("Acme 2");
    // A realm recreated under the name since it was read is another one: not deleted.
    expect(await a.deleteByNameAndId("acme", "id-other")).toBeNull();
    expect((await b.findByName("acme"))?.displayName).toBe("Acme 2");
    expect((await a.deleteByNameAndId("acme", "id-acme"))?.displayName).toBe("Acme 2");
    expect(await b.findByName("acme")).toBeNull();
  });

  it("serves a read from the cache for REALM_CACHE_MS, then reads again", async () => {
    const repo = await RealmRepository.open(store, () => now);
    await repo.insert(realm("acme", "Acme"));
    expect((await repo.findByName("acme"))?.displayName).toBe("Acme");
    await elsewhere("acme", "Changed elsewhere");
    now = REALM_CACHE_MS - 1;
    expect((await repo.findByName("acme"))?.displayName).toBe("Acme");
    now = REALM_CACHE_MS;
    expect((await repo.findByName("acme"))?.displayName).toBe("Changed elsewhere");
  });

  it("never caches an unknown name, and hands out frozen realms", async () => {
    const repo = await RealmRepository.open(store, () => now);
    expect(await repo.findByName("later")).toBeNull();
    const raw = await store.collection<RealmRecord>({ name: "realms" });
    await raw.insert(realm("later", "Later")); // created by another process
    const found = await repo.findByName("later");
    expect(found?.displayName).toBe("Later");
    expect(Object.isFrozen(found)).toBe(true);
    expect(() => { (found as { displayName: string }).displayName = "x"; }).toThrow(TypeError);
  });
});
