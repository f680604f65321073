import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { pino } from "pino";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { openBus } from "../../../kit/src/bus/open-bus.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { ServiceProviderRepository } from "../store/service-provider-repository.js";
import { IdpKeyRepository } from "../store/idp-key-repository.js";
import type { ServiceProviderRecord } from "../domain/service-provider.js";
import type { IdpKeyRecord } from "../domain/idp-key.js";
import { SsoStore } from "../sso/sso-store.js";
import { REALM_DELETED, startSamlConsumers } from "./consumers.js";

describe("saml consumers: iam.directory.v1.realm.deleted", () => {
  let store: SqliteStore;
  let bus: Bus;
  let subs: Subscription[];
  let sps: ServiceProviderRepository;
  let keys: IdpKeyRepository;
  let sso: SsoStore;

  beforeEach(async () => {
    store = new SqliteStore({ path: ":memory:" });
    bus = await openBus({ kind: "memory", path: ":memory:" });
    sps = await ServiceProviderRepository.open(store);
    keys = await IdpKeyRepository.open(store);
    sso = await SsoStore.open(store);
    subs = await startSamlConsumers(bus, sps, keys, pino({ level: "silent" }), sso);
  });
  afterEach(async () => {
    await Promise.all(subs.map((s) => s.stop()));
    await bus.close();
    await store.close();
  });

  const sp = (id: string, realmId: string, createdAt: number, entityId = `urn:${id}`): ServiceProviderRecord => ({
    _id: id, realmId, realm: "acme", entityId, name: id, enabled: true, acsUrl: "https://a.test/acs",
    nameIdFormat: "x", signAssertions: true, signResponses: true, attributeStatements: {}, createdAt, updatedAt: createdAt,
  });
  const key = (id: string, realmId: string, createdAt: number): IdpKeyRecord => ({
    _id: id, realmId, realm: "acme", slot: realmId, status: "ACTIVE", algorithm: "RSA-SHA256", certificate: "c",
    privateKeySealed: "v1:x", subject: "CN=acme", notBefore: 0, notAfter: 1, fingerprintSha256: "f", createdAt,
  });

  it("drops the realm's SPs and keys created up to deleted_at, and nothing of other realms", async () => {
    await sps.insert(sp("a", "r1", 1000));
    await sps.insert(sp("late", "r1", 3000));
    await sps.insert(sp("b", "r2", 1000));
    await keys.insert(key("k1", "r1", 1000));
    await keys.insert(key("k2", "r2", 1000));
    const payload = toBinary(RealmDeletedSchema, create(RealmDeletedSchema, {
      realmId: "r1", realmName: "acme", deletedAt: timestampFromMs(2000),
    }));
    await bus.publish(REALM_DELETED, payload);
    await bus.publish(REALM_DELETED, payload); // redelivery is harmless
    const until = Date.now() + 5000;
    const done = async () => (await sps.listByCreation("r1")).length === 1 && (await keys.findActive("r1")) === null;
    while (!(await done()) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect((await sps.listByCreation("r1")).map((s) => s._id)).toEqual(["late"]);
    expect((await sps.listByCreation("r2")).map((s) => s._id)).toEqual(["b"]);
    expect(await keys.findActive("r1")).toBeNull();
    expect((await keys.findActive("r2"))?._id).toBe("k2");
  });

  it("drops the realm's pending AuthnRequests and SAML sessions (SLO records), and nothing of other realms", async () => {
    const now = Date.now();
    const pending = (id: string, realmId: string) => ({
      _id: id, realmId, realm: "acme", spId: "a", requestId: `_${id}`, acsUrl: "https://a.test/acs", relayState: "",
      nameIdPolicyFormat: "", forceAuthn: false, createdAt: now, expiresAt: now + 60_000,
    });
    const session = (realmId: string) => ({
      _id: `${realmId}:s1:a`, realmId, userId: "u", sessionIndex: "s1", spId: "a", spEntityId: "urn:a", nameId: "n",
      nameIdFormat: "x", createdAt: now, expiresAt: now + 60_000,
    });
    await sso.savePending(pending("p1", "r1"));
    await sso.savePending(pending("p2", "r2"));
    await sso.saveSession(session("r1"));
    await sso.saveSession(session("r2"));
    await bus.publish(REALM_DELETED, toBinary(RealmDeletedSchema, create(RealmDeletedSchema, {
      realmId: "r1", realmName: "acme", deletedAt: timestampFromMs(now),
    })));
    const until = Date.now() + 5000;
    while ((await sso.sessionsOf("r1", "s1")).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(await sso.sessionsOf("r1", "s1")).toEqual([]);
    expect(await sso.consumePending("r1", "p1")).toBeNull();
    expect((await sso.sessionsOf("r2", "s1")).map((s) => s._id)).toEqual(["r2:s1:a"]);
    expect((await sso.consumePending("r2", "p2"))?._id).toBe("p2");
  });
});
