import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { PasskeyRepository, type PasskeyRecord } from "./passkey-repository.js";

describe("PasskeyRepository", () => {
  let store: SqliteStore;
  let repo: PasskeyRepository;
  const key = (over: Partial<PasskeyRecord> = {}): PasskeyRecord => ({
    _id: "k1", realmId: "r1", userId: "u1", credentialId: "cred-1", publicKey: "pk", signCount: 5, transports: ["internal"],
    label: "Laptop", backedUp: false, createdAt: 1, lastUsedAt: 0, ...over,
  });

  beforeEach(async () => {
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0 });
    repo = await PasskeyRepository.open(store);
  });
  afterEach(() => store.close());

  it("refuses a credential id registered twice in a realm, and allows it in another realm", async () => {
    await repo.insert(key());
    await expect(repo.insert(key({ _id: "k2", userId: "u2" }))).rejects.toMatchObject({ code: "alreadyExists" });
    await expect(repo.insert(key({ _id: "k3", realmId: "r2" }))).resolves.toBeUndefined();
  });

  it("accepts only a counter that moves forward (WebAuthn section 7.2 step 21), once per value", async () => {
    await repo.insert(key());
    const stored = (await repo.findByCredentialId("r1", "cred-1"))!;
    expect(await repo.recordUse(stored, 5, 10)).toBe(false);
    expect(await repo.recordUse(stored, 4, 10)).toBe(false);
    expect(await repo.recordUse(stored, 6, 10)).toBe(true);
    // A second assertion read with the old counter (a race, or a clone) carrying the same value loses.
    expect(await repo.recordUse(stored, 6, 11)).toBe(false);
    expect(await repo.findByCredentialId("r1", "cred-1")).toMatchObject({ signCount: 6, lastUsedAt: 10 });
  });

  it("lets an authenticator without a counter (always 0) sign in, but not fall back to 0 once it counted", async () => {
    await repo.insert(key({ signCount: 0 }));
    const zero = (await repo.findByCredentialId("r1", "cred-1"))!;
    expect(await repo.recordUse(zero, 0, 10)).toBe(true);
    expect(await repo.recordUse(zero, 3, 11)).toBe(true);
    const counted = (await repo.findByCredentialId("r1", "cred-1"))!;
    expect(await repo.recordUse(counted, 0, 12)).toBe(false);
  });

  it("lists a user's passkeys oldest first and deletes them by user and realm", async () => {
    await repo.insert(key({ _id: "b", credentialId: "c-b", createdAt: 2 }));
    await repo.insert(key({ _id: "a", credentialId: "c-a", createdAt: 1 }));
    await repo.insert(key({ _id: "c", credentialId: "c-c", userId: "u2" }));
    expect((await repo.listByUser("r1", "u1")).map((k) => k._id)).toEqual(["a", "b"]);
    expect(await repo.delete("r1", "u2", "a")).toBe(false);
    expect(await repo.delete("r1", "u1", "a")).toBe(true);
    expect(await repo.deleteUser("r1", "u1")).toBe(true);
    expect(await repo.countByUser("r1", "u1")).toBe(0);
    expect(await repo.deleteRealm("r1")).toBe(1);
  });
});
