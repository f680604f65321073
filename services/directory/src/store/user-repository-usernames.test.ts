import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
import type { UserRecord } from "../domain/user.js";
import { UserRepository } from "./user-repository.js";
import { MembershipRepository } from "./membership-repository.js";
import { UpgradeRepository } from "./upgrade-repository.js";
import { backfillUsernameKeys } from "../domain/username-key-backfill.js";
import { captureLogger } from "../../../kit/src/bus/bus-test-kit.js";

/** A user as stored before usernames were NFKC-normalised: the username as given, its key lower-cased. */
const legacy = (id: string, username: string) => ({
  _id: id, realmId: "r1", username, usernameKey: username.toLowerCase(), email: "", emailKey: `none:${id}`, firstName: "", lastName: "",
  enabled: true, emailVerified: false, requirePasswordReset: false, serviceAccountClientId: "", attributes: {}, createdAt: 1, updatedAt: 1,
}) as UserRecord;

// Existing users are kept through the NFKC change (domain/username.ts): no migration, and a
// lookup by username (login, the Admin API's ?username=, uniqueness) still finds them.
describe("UserRepository.findByUsername across the NFKC change", () => {
  let store: SqliteStore;
  let users: UserRepository;
  beforeEach(async () => {
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0, clock: new TestClock() });
    users = await UserRepository.open(store);
    await users.insert(legacy("u-full", "ｆｕｌｌ"));
    await users.insert(legacy("u-bob", "Bob"));
  });
  afterEach(async () => store.close());

  it("finds a user stored under its lower-cased fullwidth key by the name as it was given, in any case", async () => {
    expect((await users.findByUsername("r1", "ｆｕｌｌ"))?._id).toBe("u-full");
    expect((await users.findByUsername("r1", "ＦＵＬＬ"))?._id).toBe("u-full");
  });

  it("finds an ASCII username as before: its key is the same under both rules", async () => {
    expect((await users.findByUsername("r1", "BOB"))?._id).toBe("u-bob");
    expect(await users.findByUsername("r1", "nobody")).toBeNull();
  });
});

// The start-up upkeep: old keys become NFKC keys, usernames stay as they are, a collision stays put.
describe("backfillUsernameKeys", () => {
  let store: SqliteStore;
  let users: UserRepository;
  let memberships: MembershipRepository;
  beforeEach(async () => {
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0, clock: new TestClock() });
    users = await UserRepository.open(store);
    memberships = await MembershipRepository.open(store);
  });
  afterEach(async () => store.close());

  it("moves a fullwidth user's key to its NFKC form once, so a new carol is a conflict, and keeps a colliding one on its old key", async () => {
    await users.insert(legacy("u-carol", "ｃａｒｏｌ"));
    await users.insert(legacy("u-dan", "dan"));
    await users.insert(legacy("u-dan-wide", "ｄａｎ"));
    await users.insert(legacy("u-plain", "Plain"));
    await memberships.add({ realmId: "r1", groupId: "g1", userId: "u-carol", usernameKey: "ｃａｒｏｌ", createdAt: 1 });
    const log = captureLogger();
    const d = { users, memberships, upgrades: await UpgradeRepository.open(store), now: () => 5, logger: log.logger };
    expect(await backfillUsernameKeys(d, 2)).toBe(1);
    const carol = await users.findById("r1", "u-carol");
    expect({ username: carol?.username, key: carol?.usernameKey }).toEqual({ username: "ｃａｒｏｌ", key: "carol" });
    expect((await users.findByUsername("r1", "carol"))?._id).toBe("u-carol");
    expect((await users.findByUsername("r1", "ｃａｒｏｌ"))?._id).toBe("u-carol");
    // "ｄａｎ" normalises to the key "dan" already has: it keeps its own, and is still found by it.
    expect((await users.findById("r1", "u-dan-wide"))?.usernameKey).toBe("ｄａｎ");
    expect(log.records.some((r) => r.userId === "u-dan-wide")).toBe(true);
    expect((await users.findById("r1", "u-plain"))?.usernameKey).toBe("plain");
    // Done once: a second start reads the mark only.
    await users.insert(legacy("u-late", "ｌａｔｅ"));
    expect(await backfillUsernameKeys(d, 2)).toBe(0);
  });
});
