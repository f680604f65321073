import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
import type { UserRecord } from "../domain/user.js";
import { UserRepository } from "./user-repository.js";

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
