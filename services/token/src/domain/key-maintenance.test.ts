import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { openStore } from "../../../kit/src/store/open-store.js";
import type { Store } from "../../../kit/src/store/port.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
import { SecretBox, generateMasterKey } from "../../../kit/src/crypto/secret-box.js";
import { MemoryBus } from "../../../kit/src/bus/memory-bus.js";
import { captureLogger } from "../../../kit/src/bus/bus-test-kit.js";
import { SigningKeyRepository } from "../store/signing-key-repository.js";
import { startTokenConsumers, REALM_DELETED } from "../events/consumers.js";
import { KeyRing } from "./key-ring.js";
import { KeyMaintenance } from "./key-maintenance.js";
import type { RealmResolver, RealmScope } from "./realm-scope.js";

const DAY = 86_400_000;
const acme: RealmScope = { id: "id-acme", name: "acme", enabled: true, tokenLifespanSeconds: 600 };

describe("key maintenance and the realm.deleted consumer", () => {
  let store: Store;
  let clock: TestClock;
  let ring: KeyRing;
  let realms: Map<string, RealmScope>;
  const resolver: RealmResolver = { resolve: async (name) => realms.get(name) ?? null };
  const { logger } = captureLogger();

  beforeEach(async () => {
    clock = new TestClock();
    store = await openStore({ kind: "sqlite", path: ":memory:", clock, sweepIntervalMs: 0 });
    ring = new KeyRing(await SigningKeyRepository.open(store), new SecretBox(generateMasterKey()), clock);
    realms = new Map([["acme", acme]]);
  });
  afterEach(async () => store.close());

  const statuses = async () => (await store.collection({ name: "signing_keys" }))
    .find({}, { sort: [["createdAt", 1]] }).then((d) => d.map((k) => k.status));

  it("rotates keys past TESSERA_KEY_ROTATION_DAYS, then retires them after notAfter", async () => {
    const m = new KeyMaintenance(ring, resolver, { rotationMs: 30 * DAY, checkIntervalMs: 0 }, logger);
    await ring.publishedKeys(acme);
    expect(await m.tick()).toBe(0);
    clock.advance(30 * DAY);
    expect(await m.tick()).toBe(1);
    expect(await statuses()).toEqual(["passive", "active"]);
    expect(await m.tick()).toBe(0);
    clock.advance(600_000);
    await m.tick();
    expect(await statuses()).toEqual(["retired", "active"]);
    expect(await ring.publishedKeys(acme)).toHaveLength(1);
  });

  it("skips keys of a realm that is gone or re-created under the same name", async () => {
    const m = new KeyMaintenance(ring, resolver, { rotationMs: DAY, checkIntervalMs: 0 }, logger);
    await ring.publishedKeys(acme);
    realms.set("acme", { ...acme, id: "id-acme-2" });
    clock.advance(DAY);
    expect(await m.tick()).toBe(0);
    realms.delete("acme");
    expect(await m.tick()).toBe(0);
    expect(await statuses()).toEqual(["active"]);
  });

  it("drops the realm's keys on iam.directory.v1.realm.deleted", async () => {
    const bus = new MemoryBus({ path: ":memory:", logger, clock, pruneIntervalMs: 0 });
    const other: RealmScope = { ...acme, id: "id-other", name: "other" };
    await ring.publishedKeys(acme);
    await ring.publishedKeys(other);
    const subs = await startTokenConsumers(bus, ring, logger);
    await bus.publish(REALM_DELETED, toBinary(RealmDeletedSchema, create(RealmDeletedSchema, {
      realmId: acme.id, realmName: acme.name, deletedAt: timestampFromMs(clock.now()),
    })));
    const keys = await store.collection({ name: "signing_keys" });
    let left = await keys.count({});
    for (let i = 0; i < 250 && left !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
      left = await keys.count({});
    }
    expect(left).toBe(1);
    expect(await keys.count({ realmId: other.id })).toBe(1);
    await Promise.all(subs.map((s) => s.stop()));
    await bus.close();
  });
});
