import { fromBinary } from "@bufbuild/protobuf";
import { AdminEventSchema } from "../../../../gen/iam/audit/v1/audit_pb.js";
import { MemoryBus } from "../../../kit/src/bus/memory-bus.js";
import type { Bus, BusMessage } from "../../../kit/src/bus/port.js";
import { Outbox } from "../../../kit/src/bus/outbox.js";
import { recorder, waitUntil } from "../../../kit/src/bus/bus-test-kit.js";
import { adminEventSubject } from "../../../kit/src/events/admin-events.js";
import { createLogger } from "../../../kit/src/logger.js";
import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
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
  const realm = { _id: "r1", name: "acme", adminEventsEnabled: true } as RealmRecord;
  const logger = createLogger("test", "silent");
  let clock: TestClock;
  let store: SqliteStore;
  let bus: MemoryBus;
  let users: UserRepository;
  let memberships: MembershipRepository;
  let credentials: CredentialRepository;
  let removal: UserRemoval;
  let failNextPublish = false;
  const published: string[] = [];
  /** Whether the user's record was still there when each event went out. */
  const recordAtPublish: boolean[] = [];

  /** A process's UserRemoval over the shared store, publishing through `via`. */
  async function removalOver(via: Bus): Promise<{ removal: UserRemoval; outbox: Outbox }> {
    const outbox = await Outbox.open(store, via, clock, logger, { relayIntervalMs: 0 });
    credentials = await CredentialRepository.open(store);
    return { removal: new UserRemoval(users, credentials, memberships, await RoleMappingReader.open(store), new UserEvents(outbox, clock), outbox, clock), outbox };
  }

  beforeEach(async () => {
    clock = new TestClock();
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0, clock });
    bus = new MemoryBus({ path: ":memory:", logger, pruneIntervalMs: 0 });
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
    removal = (await removalOver(bus)).removal;
    published.length = 0;
    recordAtPublish.length = 0;
    await users.insert({ _id: "u1", realmId: "r1", username: "alice", usernameKey: "alice", createdAt: 1 } as UserRecord);
    await memberships.add({ realmId: "r1", groupId: "g1", userId: "u1", usernameKey: "alice", createdAt: 1 });
    await credentials.setPassword({ realmId: "r1", userId: "u1", hash: "$argon2id$stand-in", temporary: false, createdAt: 1 });
  });
  afterEach(async () => {
    await bus.close();
    await store.close();
  });

  it("removes the record first, then its password and memberships, and announces user.deleted", async () => {
    expect(await removal.remove(realm, "u1")).toBe(true);
    // Gone before the announcement: a cache the event drops cannot refill with the user.
    expect(recordAtPublish).toEqual([false]);
    expect(await users.findById("r1", "u1")).toBeNull();
    expect(await credentials.findPassword("r1", "u1")).toBeNull();
    expect(await memberships.deleteWhere({ realmId: "r1", userId: "u1" })).toBe(0);
    expect(published).toEqual([USER_DELETED]);
    expect(await removal.remove(realm, "u1")).toBe(false);
    expect(published).toEqual([USER_DELETED]);
  });

  it("announces the Admin API's delete with its DELETE admin event", async () => {
    expect(await removal.remove(realm, "u1", { adminEvent: true })).toBe(true);
    expect(published).toEqual([USER_DELETED, adminEventSubject("directory")]);
  });

  it("answers a removal whose user.deleted the bus refused, and the relay announces it once the bus takes it", async () => {
    const { removal: r, outbox } = await removalOver(bus);
    failNextPublish = true;
    expect(await r.remove(realm, "u1")).toBe(true);
    await outbox.settled();
    expect(await users.findById("r1", "u1")).toBeNull();
    expect(await credentials.findPassword("r1", "u1")).toBeNull();
    expect(published).toEqual([]);
    // Handed back to the relay at once: no lease to wait for.
    expect(await outbox.relay()).toBe(1);
    expect(published).toEqual([USER_DELETED]);
    expect(await r.remove(realm, "u1")).toBe(false);
    expect(published).toEqual([USER_DELETED]);
  });

  it("after a crash between the removal and its announcement, the next process finishes it: password and memberships go, user.deleted and the admin event go out", async () => {
    const hung = Object.create(bus) as Bus;
    hung.publish = () => new Promise<BusMessage>(() => undefined);
    const crashed = await removalOver(hung);
    // It dies right after the record went: before the password, memberships and announcement.
    credentials.deleteUser = () => new Promise<void>(() => undefined);
    void crashed.removal.remove(realm, "u1", { adminEvent: true });
    await waitUntil("the store to show it", async () => (await users.findById("r1", "u1")) === null);
    const delivered = recorder();
    await bus.subscribe({ durable: "test-removals", subject: "iam.>" }, delivered.handler);

    // The process that comes next: a relay on start, once the crashed one's lease has run out.
    const next = await removalOver(bus);
    expect(await credentials.findPassword("r1", "u1")).not.toBeNull();
    clock.advance(30_000);
    expect(await next.outbox.relay()).toBe(1);
    expect(await credentials.findPassword("r1", "u1")).toBeNull();
    expect(await memberships.deleteWhere({ realmId: "r1", userId: "u1" })).toBe(0);
    await waitUntil("both events", () => delivered.got.length === 2);
    expect(delivered.got.map((m) => m.subject)).toEqual([USER_DELETED, adminEventSubject("directory")]);
    const admin = fromBinary(AdminEventSchema, (delivered.got[1] as BusMessage).payload);
    expect({ id: admin.id, realm: admin.realm, op: admin.operationType, path: admin.resourcePath }).toEqual({
      id: delivered.got[1]?.id, realm: "acme", op: "DELETE", path: "users/u1",
    });
    expect(await next.outbox.relay()).toBe(0);
  });
});
