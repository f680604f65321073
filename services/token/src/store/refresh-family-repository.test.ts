import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { recordQueryPlans, selectsFrom } from "../../../kit/src/store/sqlite-query-plans.js";
import { RefreshFamilyRepository } from "./refresh-family-repository.js";
import type { RefreshFamilyRecord } from "../domain/refresh-family.js";

/**
 * The lookups that end sessions (logout: one SSO session's families; user disabled or deleted: one
 * user's; client deleted or disabled: one client's) and the realm's session listing (spec 4.7) must
 * use an index on what they look for, not walk the realm: checked on SQLite's query plan for the
 * statements the repository actually runs.
 */
describe("RefreshFamilyRepository indexes", () => {
  let recording: ReturnType<typeof recordQueryPlans>;
  let store: SqliteStore;
  let repo: RefreshFamilyRepository;
  const plans = () => recording.plans.map((p) => p.plan);

  beforeEach(async () => {
    recording = recordQueryPlans(selectsFrom("refresh_families"));
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0 });
    repo = await RefreshFamilyRepository.open(store);
    for (let i = 0; i < 50; i++) {
      await repo.insert({
        _id: `f${i}`, realmId: "r1", userId: `u${i % 5}`, clientId: i % 3 === 0 ? "app" : "web", ssoSessionId: `s${i % 10}`, offline: i % 7 === 0,
        sid: `s${i % 10}`, scope: "openid", currentHash: `h${i}`, previousHashes: [], authTime: 1, amr: ["pwd"], createdAt: i, expiresAt: Date.now() + 60_000,
      } as unknown as RefreshFamilyRecord);
    }
  });

  afterEach(async () => {
    recording.stop();
    await store.close();
  });

  it("finds one SSO session's online families through (realmId, ssoSessionId, offline, createdAt)", async () => {
    const found = await repo.list({ realmId: "r1", ssoSessionId: "s3", offline: false });
    expect(found.map((f) => f._id)).toEqual(["f3", "f13", "f23", "f33", "f43"]);
    expect(plans()).toEqual([expect.stringContaining("USING INDEX refresh_families__realmId_1_ssoSessionId_1_offline_1_createdAt_1 (<expr>=? AND <expr>=? AND <expr>=?)")]);
  });

  it("finds one user's families, all, online or offline, through (realmId, userId, offline, createdAt)", async () => {
    expect((await repo.list({ realmId: "r1", userId: "u2" })).map((f) => f._id)).toEqual(["f2", "f7", "f12", "f17", "f22", "f27", "f32", "f37", "f42", "f47"]);
    expect((await repo.list({ realmId: "r1", userId: "u0", offline: true })).map((f) => f._id)).toEqual(["f0", "f35"]);
    expect(plans()).toEqual([
      expect.stringContaining("USING INDEX refresh_families__realmId_1_userId_1_offline_1_createdAt_1 (<expr>=? AND <expr>=?)"),
      expect.stringContaining("USING INDEX refresh_families__realmId_1_userId_1_offline_1_createdAt_1 (<expr>=? AND <expr>=? AND <expr>=?)"),
    ]);
  });

  it("finds one user's families started up to a time through the user's index: the user's families, not the realm's", async () => {
    expect((await repo.list({ realmId: "r1", userId: "u2", createdUpTo: 22 })).map((f) => f._id)).toEqual(["f2", "f7", "f12", "f17", "f22"]);
    expect((await repo.list({ realmId: "r1", userId: "u0", offline: false, createdUpTo: 30 })).map((f) => f._id)).toEqual(["f5", "f10", "f15", "f20", "f25", "f30"]);
    expect(plans()).toEqual([
      expect.stringContaining("USING INDEX refresh_families__realmId_1_userId_1_offline_1_createdAt_1 (<expr>=? AND <expr>=?)"),
      expect.stringContaining("USING INDEX refresh_families__realmId_1_userId_1_offline_1_createdAt_1 (<expr>=? AND <expr>=? AND <expr>=? AND <expr><?)"),
    ]);
  });

  it("reads a page of the realm's OAuth sessions through (realmId, offline, createdAt), never its offline families", async () => {
    const page = await repo.families.find({ realmId: "r1", offline: false }, { sort: [["createdAt", 1], ["_id", 1]], skip: 2, limit: 3 });
    expect(page.map((f) => f._id)).toEqual(["f3", "f4", "f5"]);
    // The sort's first key comes from the index: only the `_id` tie-break is sorted apart.
    expect(plans()).toEqual(["SEARCH refresh_families USING INDEX refresh_families__realmId_1_offline_1_createdAt_1 (<expr>=? AND <expr>=?) | USE TEMP B-TREE FOR LAST TERM OF ORDER BY"]);
  });

  it("removes one client's families started up to a time through (realmId, clientId, createdAt)", async () => {
    const deletes = recordQueryPlans((sql) => sql.trimStart().startsWith('DELETE FROM "refresh_families"'));
    try {
      expect(await repo.removeClient("r1", "app", 30)).toBe(11);
      expect(deletes.plans.map((p) => p.plan)).toEqual([expect.stringContaining("USING INDEX refresh_families__realmId_1_clientId_1_createdAt_1")]);
    } finally {
      deletes.stop();
    }
    expect((await repo.list({ realmId: "r1", clientId: "app" })).map((f) => f._id)).toEqual(["f33", "f36", "f39", "f42", "f45", "f48"]);
    expect(await repo.list({ realmId: "r1", clientId: "web" })).toHaveLength(33);
  });
});

/** A store created by the version before: the indexes this one replaced are dropped, so a family is written to four again. */
describe("RefreshFamilyRepository on a store created before", () => {
  it("drops (realmId, createdAt) and the user's and session's indexes without offline, keeping the families", async () => {
    const store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0 });
    try {
      const before = await store.collection({
        name: "refresh_families", ttl: true,
        indexes: [{ fields: ["realmId", "userId", "createdAt"] }, { fields: ["realmId", "ssoSessionId", "createdAt"] }, { fields: ["realmId", "clientId", "createdAt"] }, { fields: ["realmId", "createdAt"] }],
      });
      await before.insert({ _id: "f1", realmId: "r1", userId: "u1", offline: false, createdAt: 1, expiresAt: Date.now() + 60_000 });
      const repo = await RefreshFamilyRepository.open(store);
      expect(store.statement(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'refresh_families' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all()).toEqual([
        { name: "refresh_families__expiresAt_1" },
        { name: "refresh_families__realmId_1_clientId_1_createdAt_1" },
        { name: "refresh_families__realmId_1_offline_1_createdAt_1" },
        { name: "refresh_families__realmId_1_ssoSessionId_1_offline_1_createdAt_1" },
        { name: "refresh_families__realmId_1_userId_1_offline_1_createdAt_1" },
      ]);
      expect((await repo.list({ realmId: "r1", userId: "u1", offline: false })).map((f) => f._id)).toEqual(["f1"]);
    } finally {
      await store.close();
    }
  });
});
