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
});
