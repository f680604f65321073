import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { Outbox } from "../../../kit/src/bus/outbox.js";
import { createLogger } from "../../../kit/src/logger.js";
import { MemoryBus } from "../../../kit/src/bus/memory-bus.js";
import { systemClock } from "../../../kit/src/store/port.js";
import { RealmRepository } from "../store/realm-repository.js";
import { UserRepository } from "../store/user-repository.js";
import { GroupRepository } from "../store/group-repository.js";
import { MembershipRepository } from "../store/membership-repository.js";
import { RoleMappingReader } from "../store/role-mapping-reader.js";
import { UserEvents } from "../events/user-events.js";
import { RealmLookup } from "./realm-lookup.js";
import { GroupAdmin } from "./group-admin.js";
import { backfillMemberOrder } from "./member-order-backfill.js";
import { UpgradeRepository } from "../store/upgrade-repository.js";
import type { RealmRecord } from "./realm.js";
import type { UserRecord } from "./user.js";

/** Members in username order, and the start-up backfill of memberships stored before they carried it. */
describe("group members order", () => {
  let store: SqliteStore;
  let bus: MemoryBus;
  let users: UserRepository;
  let groups: GroupAdmin;
  let backfill: (batch?: number) => Promise<number>;

  beforeEach(async () => {
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0 });
    bus = new MemoryBus({ path: ":memory:", pruneIntervalMs: 0 });
    const realms = await RealmRepository.open(store);
    await realms.insert({ _id: "r1", name: "acme", enabled: true, createdAt: 1 } as unknown as RealmRecord);
    users = await UserRepository.open(store);
    for (const [id, username] of [["u1", "zed"], ["u2", "amy"], ["u3", "bob"]]) {
      await users.insert({ _id: id, realmId: "r1", username, usernameKey: username, createdAt: 1 } as unknown as UserRecord);
    }
    const memberships = await MembershipRepository.open(store);
    const outbox = await Outbox.open(store, bus, systemClock, createLogger("test", "silent"), { relayIntervalMs: 0 });
    groups = new GroupAdmin(
      new RealmLookup(realms), await GroupRepository.open(store), memberships, users,
      await RoleMappingReader.open(store), new UserEvents(outbox, systemClock), outbox, systemClock,
    );
    const upgrades = await UpgradeRepository.open(store);
    backfill = (batch) => backfillMemberOrder({ memberships, users, upgrades, now: () => 42 }, batch);
  });
  /** Runs `change` right after the first read of user `id`, before the caller goes on with what it read. */
  function afterFirstRead(id: string, change: () => Promise<unknown>): void {
    const read = users.findById.bind(users);
    let first = true;
    users.findById = async (realmId, userId) => {
      const user = await read(realmId, userId);
      if (first && userId === id) {
        first = false;
        await change();
      }
      return user;
    };
  }

  afterEach(async () => {
    await bus.close();
    await store.close();
  });

  it("gives legacy memberships their member's username, drops those whose user is gone, and is then recorded as done", async () => {
    const g = await groups.create("acme", { name: "team" });
    const raw = await store.collection({ name: "group_memberships" });
    // As an older version stored them: no usernameKey, listed in joining order (zed, amy, bob).
    for (const [i, userId] of ["u1", "u2", "u3", "gone"].entries()) {
      await raw.insert({ _id: `${g.id}:${userId}`, realmId: "r1", groupId: g.id, userId, createdAt: i });
    }
    expect(await backfill(2)).toBe(4);
    expect((await groups.members("acme", g.id)).map((u) => u.username)).toEqual(["amy", "bob", "zed"]);
    expect(await raw.count({})).toBe(3);
    expect(await (await store.collection({ name: "store_upgrades" })).get("membership-username-key")).toEqual({ _id: "membership-username-key", doneAt: 42 });
    // Done: a later start does not search again (this legacy record is left as it is).
    await raw.insert({ _id: `${g.id}:late`, realmId: "r1", groupId: g.id, userId: "late", createdAt: 9 });
    expect(await backfill()).toBe(0);
    expect(await raw.count({})).toBe(4);
  });

  it("repairs, when the group is listed, memberships an older replica adds after the backfill is done (rolling upgrade)", async () => {
    const g = await groups.create("acme", { name: "team" });
    const other = await groups.create("acme", { name: "other" });
    expect(await backfill()).toBe(0);
    for (const u of ["u1", "u3"]) await groups.addMember("acme", u, g.id);
    await users.insert({ _id: "u4", realmId: "r1", username: "Carl", usernameKey: "carl", createdAt: 1 } as unknown as UserRecord);
    const raw = await store.collection({ name: "group_memberships" });
    // An older replica's writes: no usernameKey. They would sort first (amy, gone, bob, carl, zed order broken).
    for (const [userId, groupId] of [["u2", g.id], ["u4", g.id], ["gone", g.id], ["u2", other.id]] as const) {
      await raw.insert({ _id: `${groupId}:${userId}`, realmId: "r1", groupId, userId, createdAt: 5 });
    }
    expect((await groups.members("acme", g.id)).map((u) => u.username)).toEqual(["amy", "bob", "Carl", "zed"]);
    expect(await raw.get(`${g.id}:u4`)).toMatchObject({ usernameKey: "carl" });
    expect(await raw.get(`${g.id}:gone`)).toBeNull();
    // Only the listed group was touched; the other is repaired when it is listed.
    expect(await raw.get(`${other.id}:u2`)).not.toHaveProperty("usernameKey");
    expect((await groups.members("acme", other.id)).map((u) => u.username)).toEqual(["amy"]);
    expect(await raw.get(`${other.id}:u2`)).toMatchObject({ usernameKey: "amy" });
  });

  it("keeps the new username of a user renamed between the membership's read and its insert", async () => {
    const g = await groups.create("acme", { name: "team" });
    // The rename lands now: the user is updated, and there is no membership yet to rename.
    afterFirstRead("u2", () => users.update("r1", "u2", { username: "zoe", usernameKey: "zoe" }));
    await groups.addMember("acme", "u2", g.id);
    expect((await groups.members("acme", g.id)).map((u) => u.username)).toEqual(["zoe"]);
    const raw = await store.collection({ name: "group_memberships" });
    expect(await raw.get(`${g.id}:u2`)).toMatchObject({ usernameKey: "zoe" });
  });

  it("leaves no membership behind for a user deleted between the membership's read and its insert", async () => {
    const g = await groups.create("acme", { name: "team" });
    afterFirstRead("u3", () => users.deleteById("r1", "u3"));
    await expect(groups.addMember("acme", "u3", g.id)).rejects.toMatchObject({ code: "notFound", reason: "user_not_found" });
    expect(await (await store.collection({ name: "group_memberships" })).count({})).toBe(0);
  });

  it("lists members added now in username order, whatever the joining order", async () => {
    const g = await groups.create("acme", { name: "team" });
    for (const u of ["u1", "u3", "u2"]) await groups.addMember("acme", u, g.id);
    expect((await groups.members("acme", g.id)).map((u) => u.username)).toEqual(["amy", "bob", "zed"]);
    expect((await groups.members("acme", g.id, 1, 1)).map((u) => u.username)).toEqual(["bob"]);
  });
});
