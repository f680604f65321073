import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { pino } from "pino";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { UserDeletedSchema } from "../../../../gen/iam/directory/v1/user_pb.js";
import { openBus } from "../../../kit/src/bus/open-bus.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { ProviderRepository } from "../store/provider-repository.js";
import { LinkRepository } from "../store/link-repository.js";
import { LoginStateRepository } from "../store/login-state-repository.js";
import { MapperRepository } from "../store/mapper-repository.js";
import type { IdentityProviderRecord } from "../domain/identity-provider.js";
import { startBrokerConsumers } from "./consumers.js";

describe("broker consumers: realm.deleted and user.deleted", () => {
  let store: SqliteStore;
  let bus: Bus;
  let subs: Subscription[];
  let providers: ProviderRepository;
  let links: LinkRepository;
  let states: LoginStateRepository;
  let mappers: MapperRepository;

  beforeEach(async () => {
    store = new SqliteStore({ path: ":memory:" });
    bus = await openBus({ kind: "memory", path: ":memory:" });
    providers = await ProviderRepository.open(store);
    links = await LinkRepository.open(store);
    states = await LoginStateRepository.open(store);
    mappers = await MapperRepository.open(store);
    subs = await startBrokerConsumers(bus, providers, links, states, pino({ level: "silent" }), mappers);
  });
  afterEach(async () => {
    await Promise.all(subs.map((s) => s.stop()));
    await bus.close();
    await store.close();
  });

  const idp = (id: string, realmId: string, alias: string, createdAt: number): IdentityProviderRecord => ({
    _id: id, realmId, realm: "acme", alias, displayName: alias, providerType: "oidc", enabled: true, clientId: "c",
    clientSecretSealed: "v1:x", authorizationUrl: "https://a.test/auth", tokenUrl: "https://a.test/token", issuer: "https://a.test",
    defaultScopes: "openid", trustEmail: false, syncUserProfile: false, createdAt, updatedAt: createdAt,
  });
  const link = (id: string, realmId: string, userId: string, alias: string) => ({
    _id: id, realmId, userId, alias, providerId: `p-${alias}`, subject: `sub-${id}`, username: id, createdAt: 1,
  });
  const until = async (done: () => Promise<boolean>) => {
    const end = Date.now() + 5000;
    while (!(await done()) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  };

  it("drops a deleted realm's providers and mappers (created up to deleted_at) and links, and nothing of other realms", async () => {
    await providers.insert(idp("a", "r1", "up", 1000));
    await providers.insert(idp("late", "r1", "later", 3000));
    await providers.insert(idp("b", "r2", "up", 1000));
    await links.insert(link("l1", "r1", "u1", "up"));
    await links.insert(link("l2", "r2", "u2", "up"));
    const mapper = (id: string, realmId: string, createdAt: number) =>
      ({ _id: id, realmId, alias: "up", name: id, type: "oidc-hardcoded-role-idp-mapper" as const, config: { role: "x", syncMode: "INHERIT" }, createdAt });
    await mappers.insert(mapper("m1", "r1", 1000));
    await mappers.insert(mapper("m-late", "r1", 3000));
    await mappers.insert(mapper("m2", "r2", 1000));
    const payload = toBinary(RealmDeletedSchema, create(RealmDeletedSchema, { realmId: "r1", realmName: "acme", deletedAt: timestampFromMs(2000) }));
    await bus.publish("iam.directory.v1.realm.deleted", payload);
    await bus.publish("iam.directory.v1.realm.deleted", payload); // redelivery is harmless
    await until(async () => (await links.listByUser("r1", "u1")).length === 0);
    expect((await providers.listByCreation("r1")).map((p) => p._id)).toEqual(["late"]);
    expect((await links.listByUser("r1", "u1"))).toEqual([]);
    expect((await providers.listByCreation("r2")).map((p) => p._id)).toEqual(["b"]);
    expect((await links.listByUser("r2", "u2")).map((l) => l._id)).toEqual(["l2"]);
    await until(async () => (await mappers.listByRealm("r1")).length === 1);
    expect((await mappers.listByRealm("r1")).map((m) => m._id)).toEqual(["m-late"]);
    expect((await mappers.listByRealm("r2")).map((m) => m._id)).toEqual(["m2"]);
  });

  it("drops a deleted user's links only", async () => {
    await links.insert(link("l1", "r1", "u1", "up"));
    await links.insert(link("l2", "r1", "u1", "gh"));
    await links.insert(link("l3", "r1", "u2", "up"));
    await bus.publish("iam.directory.v1.user.deleted", toBinary(UserDeletedSchema, create(UserDeletedSchema, { realmId: "r1", realmName: "acme", userId: "u1" })));
    await until(async () => (await links.listByUser("r1", "u1")).length === 0);
    expect(await links.listByUser("r1", "u1")).toEqual([]);
    expect((await links.listByUser("r1", "u2")).map((l) => l._id)).toEqual(["l3"]);
    expect(await links.findBySubject("r1", "up", "sub-l3")).toMatchObject({ userId: "u2" });
  });
});
