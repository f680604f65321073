import { randomBytes } from "node:crypto";
import { adaptersUnderTest } from "../../../kit/src/store/adapters-under-test.js";
import { openStore } from "../../../kit/src/store/open-store.js";
import { recordQueryPlans, selectsFrom } from "../../../kit/src/store/sqlite-query-plans.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
import type { Store } from "../../../kit/src/store/port.js";
import { RevokedTokenRepository, type IssuedToken } from "./revoked-token-repository.js";

/**
 * The access-token deny list on both store adapters: SQLite always, a MongoDB-wire server when
 * TESSERA_TEST_MONGODB_URI is set (its own database, dropped after).
 */
const adapters = adaptersUnderTest("RevokedTokenRepository");

describe.each(adapters)("RevokedTokenRepository (%s)", (_name, open) => {
  const clock = new TestClock();
  let store: Store;
  let repo: RevokedTokenRepository;
  let realm: string;
  const token = (over: Partial<IssuedToken> = {}): IssuedToken => ({ jti: "0189a0b0-0000-7000-8000-000000000001", issuedAt: 5_000, userId: "u1", clientId: "app", ...over });

  beforeAll(async () => {
    store = await open(clock);
    repo = await RevokedTokenRepository.open(store);
  });
  afterAll(() => store.close());
  beforeEach(() => {
    // A realm per test: the Mongo database is shared by the tests of a run.
    realm = `r-${randomBytes(4).toString("hex")}`;
  });

  it("revokes one token by jti until it expires", async () => {
    await repo.add(realm, token().jti, clock.now() + 60_000);
    expect(await repo.isRevoked(realm, token())).toBe(true);
    expect(await repo.isRevoked(realm, token({ jti: "0189a0b0-0000-7000-8000-000000000002" }))).toBe(false);
    expect(await repo.isRevoked(`${realm}-other`, token())).toBe(false);
    clock.advance(60_000);
    expect(await repo.isRevoked(realm, token())).toBe(false);
  });

  it("revokes a user's or a client's tokens issued at or before the mark, not later ones nor others'", async () => {
    await repo.revokeIssuedUpTo(realm, { kind: "user", id: "u1" }, 5_000);
    expect(await repo.isRevoked(realm, token({ issuedAt: 4_999 }))).toBe(true);
    expect(await repo.isRevoked(realm, token({ issuedAt: 5_000 }))).toBe(true);
    expect(await repo.isRevoked(realm, token({ issuedAt: 5_001 }))).toBe(false);
    expect(await repo.isRevoked(realm, token({ issuedAt: 1, userId: "u2" }))).toBe(false);
    await repo.revokeIssuedUpTo(realm, { kind: "client", id: "app" }, 7_000);
    expect(await repo.isRevoked(realm, token({ issuedAt: 6_000, userId: "u2" }))).toBe(true);
    expect(await repo.isRevoked(realm, token({ issuedAt: 6_000, userId: "u2", clientId: "other" }))).toBe(false);
    // A user id equal to a clientId is another holder.
    expect(await repo.isRevoked(realm, token({ issuedAt: 6_000, userId: "app", clientId: "other" }))).toBe(false);
  });

  it("only moves a mark forward: an earlier event handled late never lowers it", async () => {
    await repo.revokeIssuedUpTo(realm, { kind: "client", id: "app" }, 2_000);
    await repo.revokeIssuedUpTo(realm, { kind: "client", id: "app" }, 1_000);
    expect(await repo.isRevoked(realm, token({ issuedAt: 1_500 }))).toBe(true);
    await repo.revokeIssuedUpTo(realm, { kind: "client", id: "app" }, 3_000);
    expect(await repo.isRevoked(realm, token({ issuedAt: 2_500 }))).toBe(true);
    expect(await repo.isRevoked(realm, token({ issuedAt: 3_001 }))).toBe(false);
    await Promise.all([4_000, 9_000, 6_000].map((at) => repo.revokeIssuedUpTo(realm, { kind: "user", id: "u9" }, at)));
    expect(await repo.isRevoked(realm, token({ issuedAt: 8_999, userId: "u9", clientId: "x" }))).toBe(true);
    expect(await repo.isRevoked(realm, token({ issuedAt: 9_001, userId: "u9", clientId: "x" }))).toBe(false);
  });

  it("keeps marks through the expiry sweep, and drops both kinds with the realm", async () => {
    await repo.revokeIssuedUpTo(realm, { kind: "user", id: "u1" }, 5_000);
    await repo.add(realm, "0189a0b0-0000-7000-8000-0000000000ff", clock.now() + 1_000);
    clock.advance(10 * 365 * 86_400_000);
    await store.sweepExpired();
    expect(await repo.isRevoked(realm, token({ issuedAt: 4_000 }))).toBe(true);
    await repo.add(realm, token().jti, clock.now() + 60_000);
    expect(await repo.deleteRealm(`${realm}-other`)).toBe(0);
    expect(await repo.deleteRealm(realm)).toBe(2);
    expect(await repo.isRevoked(realm, token({ issuedAt: 4_000 }))).toBe(false);
  });
});

describe("RevokedTokenRepository check on SQLite", () => {
  it("is one read by primary key for the jti, the user and the client", async () => {
    const recording = recordQueryPlans(selectsFrom("revoked_access_tokens"));
    const store = await openStore({ kind: "sqlite", path: ":memory:", sweepIntervalMs: 0 });
    try {
      const repo = await RevokedTokenRepository.open(store);
      await repo.revokeIssuedUpTo("r1", { kind: "user", id: "u1" }, 5_000);
      recording.plans.length = 0;
      expect(await repo.isRevoked("r1", { jti: "j", issuedAt: 1, userId: "u1", clientId: "app" })).toBe(true);
      expect(recording.plans.map((p) => p.plan)).toEqual([expect.stringMatching(/^SEARCH revoked_access_tokens USING INDEX sqlite_autoindex_revoked_access_tokens_1 \(_id=\?\)$/)]);
    } finally {
      recording.stop();
      await store.close();
    }
  });
});
