import { randomBytes } from "node:crypto";
import { adaptersUnderTest } from "../../../kit/src/store/adapters-under-test.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
import type { Store } from "../../../kit/src/store/port.js";
import type { RefreshFamilyRecord } from "../domain/refresh-family.js";
import type { SsoSessionRecord } from "../domain/sso-session.js";
import { RefreshFamilyRepository } from "./refresh-family-repository.js";
import { SsoSessionRepository } from "./sso-session-repository.js";

/**
 * A user's SSO sessions and refresh families created up to a time (password changed, user disabled:
 * SessionTerminator.endAllOfUser), on both store adapters: SQLite always, a MongoDB-wire server
 * when TESSERA_TEST_MONGODB_URI is set (its own database, dropped after). The query plans: the
 * repositories' SQLite tests beside this one.
 */
const adapters = adaptersUnderTest("user sessions up to a time");

describe.each(adapters)("a user's sessions created up to a time (%s)", (_name, open) => {
  const clock = new TestClock();
  let store: Store;
  let sessions: SsoSessionRepository;
  let families: RefreshFamilyRepository;
  const realm = `r-${randomBytes(4).toString("hex")}`;

  beforeAll(async () => {
    store = await open(clock);
    sessions = await SsoSessionRepository.open(store);
    families = await RefreshFamilyRepository.open(store);
    const expiresAt = clock.now() + 60_000;
    // u1 and u2 alternate, created at 1000, 1001, ...: the bound must neither spill to u2 nor past the time.
    for (let i = 0; i < 8; i++) {
      const userId = i % 2 === 0 ? "u1" : "u2";
      await sessions.insert({
        _id: `s${i}`, realmId: realm, realmName: "acme", userId, username: userId, cookieHash: `c-${realm}-${i}`, authTime: 1000 + i,
        amr: ["pwd"], clientIds: ["web"], ipAddress: "127.0.0.1", createdAt: 1000 + i, lastSeenAt: 1000 + i, expiresAt,
      } satisfies SsoSessionRecord);
      await families.insert({
        _id: `f${i}`, realmId: realm, realmName: "acme", clientId: "web", userId, username: userId, ssoSessionId: `s${i}`, sid: `s${i}`,
        offline: i % 4 === 0, scope: "openid", currentHash: `h${i}`, previousHashes: [], authTime: 1000 + i, amr: ["pwd"], ipAddress: "127.0.0.1",
        createdAt: 1000 + i, lastRefreshAt: 1000 + i, expiresAt,
      } satisfies RefreshFamilyRecord);
    }
  });
  afterAll(() => store.close());

  it("lists the SSO sessions created at or before the time, oldest first, and all without one", async () => {
    expect((await sessions.listByUser(realm, "u1", 1004)).map((s) => s._id)).toEqual(["s0", "s2", "s4"]);
    expect((await sessions.listByUser(realm, "u1", 999)).map((s) => s._id)).toEqual([]);
    expect((await sessions.listByUser(realm, "u1")).map((s) => s._id)).toEqual(["s0", "s2", "s4", "s6"]);
  });

  it("lists the refresh families started at or before the time, online only when asked", async () => {
    expect((await families.list({ realmId: realm, userId: "u1", createdUpTo: 1004 })).map((f) => f._id)).toEqual(["f0", "f2", "f4"]);
    expect((await families.list({ realmId: realm, userId: "u1", offline: false, createdUpTo: 1006 })).map((f) => f._id)).toEqual(["f2", "f6"]);
    expect((await families.list({ realmId: realm, userId: "u2", createdUpTo: 1000 })).map((f) => f._id)).toEqual([]);
  });
});
