import { MemoryBus } from "../../../kit/src/bus/memory-bus.js";
import type { BusMessage } from "../../../kit/src/bus/port.js";
import { createLogger } from "../../../kit/src/logger.js";
import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { systemClock } from "../../../kit/src/store/port.js";
import { USER_DELETED, UserEvents } from "../events/user-events.js";
import { CredentialRepository } from "../store/credential-repository.js";
import { MembershipRepository } from "../store/membership-repository.js";
import { RoleMappingReader } from "../store/role-mapping-reader.js";
import { UserRepository } from "../store/user-repository.js";
import type { RealmRecord } from "./realm.js";
import type { UserRecord } from "./user.js";
import { UserRemoval } from "./user-removal.js";

/** UserRemoval on the real SQLite store and in-process bus; the bus refuses one publish on demand. */
describe("UserRemoval", () => {
  const realm = { _id: "r1", name: "acme" } as RealmRecord;
  let store: SqliteStore;
  let bus: MemoryBus;
  let users: UserRepository;
  let memberships: MembershipRepository;
  let removal: UserRemoval;
  let failNextPublish = false;
  const published: string[] = [];
  /** Whether the user's record was still there when each event went out. */
  const recordAtPublish: boolean[] = [];

  beforeEach(async () => {
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0 });
    bus = new MemoryBus({ path: ":memory:", logger: createLogger("test", "silent"), pruneIntervalMs: 0 });
    const publish = bus.publish.bind(bus);
    bus.publish = async (subject, payload, options): Promise<BusMessage> => {
      if (failNextPublish) {
        failNextPublish = false;
        throw new Error("bus unavailable");
      }
      published.push(subject);
      recordAtPublish.push((await users.findById("r1", "u1")) !== null);
      return publish(subject, payload, options);
    };
    users = await UserRepository.open(store);
    memberships = await MembershipRepository.open(store);
    removal = new UserRemoval(users, await CredentialRepository.open(store), memberships, await RoleMappingReader.open(store), new UserEvents(bus, systemClock));
    published.length = 0;
    recordAtPublish.length = 0;
    await users.insert({ _id: "u1", realmId: "r1", username: "alice", usernameKey: "alice", createdAt: 1 } as UserRecord);
    await memberships.add({ realmId: "r1", groupId: "g1", userId: "u1", usernameKey: "alice", createdAt: 1 });
  });
  afterEach(async () => {
    await bus.close();
    await store.close();
  });

  it("removes the record first, then its memberships, and announces user.deleted", async () => {
    expect(await removal.remove(realm, "u1")).toBe(true);
    // Gone before the announcement: a cache the event drops cannot refill with the user.
    expect(recordAtPublish).toEqual([false]);
    expect(await users.findById("r1", "u1")).toBeNull();
    expect(await memberships.deleteWhere({ realmId: "r1", userId: "u1" })).toBe(0);
    expect(published).toEqual([USER_DELETED]);
    expect(await removal.remove(realm, "u1")).toBe(false);
    expect(published).toEqual([USER_DELETED]);
  });

  it("puts the user back when user.deleted cannot be published, so a retry finishes the removal", async () => {
    failNextPublish = true;
    await expect(removal.remove(realm, "u1")).rejects.toThrow("bus unavailable");
    expect(await users.findById("r1", "u1")).toMatchObject({ _id: "u1" });
    expect(published).toEqual([]);
    expect(await removal.remove(realm, "u1")).toBe(true);
    expect(published).toEqual([USER_DELETED]);
    expect(await users.findById("r1", "u1")).toBeNull();
  });
});
