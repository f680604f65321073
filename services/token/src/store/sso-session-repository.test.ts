import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { recordQueryPlans, selectsFrom } from "../../../kit/src/store/sqlite-query-plans.js";
import { SsoSessionRepository } from "./sso-session-repository.js";
import type { SsoSessionRecord } from "../domain/sso-session.js";

/** A user's sessions (admin list, revoke all, user disabled or deleted) come through the user's index, not a walk of the realm. */
describe("SsoSessionRepository indexes", () => {
  let recording: ReturnType<typeof recordQueryPlans>;
  let store: SqliteStore;
  let repo: SsoSessionRepository;

  beforeEach(async () => {
    recording = recordQueryPlans(selectsFrom("sso_sessions"));
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0 });
    repo = await SsoSessionRepository.open(store);
    for (let i = 0; i < 40; i++) {
      await repo.insert({
        _id: `s${i}`, realmId: "r1", realmName: "acme", userId: `u${i % 4}`, username: `user${i % 4}`, cookieHash: `c${i}`,
        authTime: 1, amr: ["pwd"], clientIds: [], ipAddress: "127.0.0.1", createdAt: 100 - i, lastSeenAt: 1, expiresAt: Date.now() + 60_000,
      } as unknown as SsoSessionRecord);
    }
  });

  afterEach(async () => {
    recording.stop();
    await store.close();
  });

  it("lists one user's sessions oldest first through (realmId, userId, createdAt)", async () => {
    expect((await repo.listByUser("r1", "u1")).map((s) => s._id)).toEqual(["s37", "s33", "s29", "s25", "s21", "s17", "s13", "s9", "s5", "s1"]);
    expect(recording.plans.map((p) => p.plan)).toEqual([expect.stringContaining("USING INDEX sso_sessions__realmId_1_userId_1_createdAt_1")]);
  });

  it("lists only those created up to a time through the same index, the bound a range on createdAt", async () => {
    // u1's sessions were created at 99, 95, ..., 63: up to 75 are s37 (63) ... s25 (75).
    expect((await repo.listByUser("r1", "u1", 75)).map((s) => s._id)).toEqual(["s37", "s33", "s29", "s25"]);
    expect((await repo.listByUser("r1", "u1", 62)).map((s) => s._id)).toEqual([]);
    expect(recording.plans.map((p) => p.plan)).toEqual([
      expect.stringContaining("USING INDEX sso_sessions__realmId_1_userId_1_createdAt_1 (<expr>=? AND <expr>=? AND <expr><?)"),
    ]);
  });
});

/** The refresh's keep-alive write (sso-session-keep-alive.ts): conditional, by primary key, never reviving an ended session. */
describe("SsoSessionRepository.extend", () => {
  const clock = { t: 1_000_000, now(): number { return this.t; } };
  let recording: ReturnType<typeof recordQueryPlans>;
  let store: SqliteStore;
  let repo: SsoSessionRepository;
  const session = (id: string, expiresAt: number) => ({
    _id: id, realmId: "r1", realmName: "acme", userId: "u1", username: "user1", cookieHash: `c-${id}`,
    authTime: 1, amr: ["pwd"], clientIds: ["web"], ipAddress: "127.0.0.1", createdAt: 1, lastSeenAt: 1, expiresAt,
  });

  beforeEach(async () => {
    clock.t = 1_000_000;
    recording = recordQueryPlans(selectsFrom("sso_sessions"));
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0, clock });
    repo = await SsoSessionRepository.open(store);
  });

  afterEach(async () => {
    recording.stop();
    await store.close();
  });

  it("moves the end later, never earlier, and looks the session up by its primary key", async () => {
    await repo.insert(session("s1", 1_600_000));
    expect(await repo.extend("r1", "s1", 1_100_000, 1_900_000)).toMatchObject({ lastSeenAt: 1_100_000, expiresAt: 1_900_000 });
    // A racing refresh that read the clock a moment earlier leaves the later end alone.
    expect(await repo.extend("r1", "s1", 1_099_000, 1_899_000)).toMatchObject({ lastSeenAt: 1_100_000, expiresAt: 1_900_000 });
    expect(await repo.findById("r1", "s1")).toMatchObject({ lastSeenAt: 1_100_000, expiresAt: 1_900_000 });
    expect(await repo.extend("r2", "s1", 1_100_000, 2_000_000)).toBeNull();
    expect(recording.plans.map((p) => p.plan)).not.toContainEqual(expect.stringMatching(/\bSCAN\b/));
    expect(recording.plans.map((p) => p.plan)).toContainEqual(expect.stringContaining("USING INDEX sqlite_autoindex_sso_sessions_1 (_id=?)"));
  });

  it("does not bring back a session that ended or expired", async () => {
    await repo.insert(session("gone", 1_600_000));
    await repo.remove("r1", "gone");
    expect(await repo.extend("r1", "gone", 1_100_000, 2_000_000)).toBeNull();
    await repo.insert(session("idle", 1_600_000));
    clock.t = 1_600_000;
    expect(await repo.extend("r1", "idle", 1_600_000, 2_400_000)).toBeNull();
    clock.t = 1_000_000;
    // Still the old end: the write did not touch it.
    expect(await repo.findById("r1", "idle")).toMatchObject({ expiresAt: 1_600_000 });
  });
});

/** A deleted client leaves the realm's SSO sessions (the `client.updated` consumer, oauth-consumers.ts). */
describe("SsoSessionRepository.forgetClient", () => {
  let recording: ReturnType<typeof recordQueryPlans>;
  let store: SqliteStore;
  let repo: SsoSessionRepository;
  const session = (id: string, realmId: string, clientIds: string[]) => ({
    _id: id, realmId, realmName: realmId, userId: "u1", username: "user1", cookieHash: `c-${id}`,
    authTime: 1, amr: ["pwd"], clientIds, ipAddress: "127.0.0.1", createdAt: 1, lastSeenAt: 1, expiresAt: Date.now() + 60_000,
  });

  beforeEach(async () => {
    recording = recordQueryPlans(selectsFrom("sso_sessions"));
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0 });
    repo = await SsoSessionRepository.open(store);
  });

  afterEach(async () => {
    recording.stop();
    await store.close();
  });

  it("takes the client out of the realm's sessions that name it, in one write, through the realm's index", async () => {
    await repo.insert(session("s1", "r1", ["web", "app"]));
    await repo.insert(session("s2", "r1", ["app"]));
    await repo.insert(session("s3", "r1", ["web"]));
    await repo.insert(session("s4", "r2", ["web", "app"]));
    recording.plans.length = 0;
    expect(await repo.forgetClient("r1", "app")).toBe(2);
    const clientsOf = async (realmId: string, id: string) => (await repo.findById(realmId, id))?.clientIds;
    expect([await clientsOf("r1", "s1"), await clientsOf("r1", "s2"), await clientsOf("r1", "s3"), await clientsOf("r2", "s4")])
      .toEqual([["web"], [], ["web"], ["web", "app"]]);
    expect(await repo.forgetClient("r1", "app")).toBe(0);
    // SQLite cannot index array elements (IndexSpec.multikey): the realm's index narrows, each session's own clientIds is read.
    const plan = recording.plans.find((p) => p.sql.includes("json_each"))!.plan;
    expect(plan).toMatch(/^SEARCH sso_sessions USING INDEX sso_sessions__realmId_1_(userId_1_)?createdAt_1 \(<expr>=\?\) \| SCAN json_each EXISTS VIRTUAL TABLE/);
    expect(plan).not.toMatch(/SCAN sso_sessions/);
  });
});
