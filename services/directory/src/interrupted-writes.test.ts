import { fromBinary } from "@bufbuild/protobuf";
import { createClient, createRouterTransport, Code, type Client } from "@connectrpc/connect";
import { RealmService, RealmDeletedSchema, RealmUpdatedSchema } from "../../../gen/iam/directory/v1/realm_pb.js";
import { ClientService, ClientUpdatedSchema } from "../../../gen/iam/directory/v1/client_pb.js";
import { HolderType, RoleService } from "../../../gen/iam/directory/v1/role_pb.js";
import { GroupService } from "../../../gen/iam/directory/v1/group_pb.js";
import { UserSecurityService } from "../../../gen/iam/directory/v1/user_security_pb.js";
import { ClientScopeService } from "../../../gen/iam/directory/v1/client_scope_pb.js";
import { AdminEventSchema } from "../../../gen/iam/audit/v1/audit_pb.js";
import { PasswordChangedSchema, ServiceAccountChangedSchema, UserDeletedSchema, UserDisabledSchema, UserService } from "../../../gen/iam/directory/v1/user_pb.js";
import { randomBytes } from "node:crypto";
import mongoose from "mongoose";
import { openStore } from "../../kit/src/store/open-store.js";
import { openBus } from "../../kit/src/bus/open-bus.js";
import { recorder, sleep, waitUntil } from "../../kit/src/bus/bus-test-kit.js";
import { createLogger } from "../../kit/src/logger.js";
import { createMetrics } from "../../kit/src/metrics.js";
import { SecretBox, generateMasterKey } from "../../kit/src/crypto/secret-box.js";
import { LazyTransport } from "../../kit/src/rpc/lazy-transport.js";
import { serverInterceptor } from "../../kit/src/rpc/server-interceptor.js";
import { SERVICE_NAMES, type ServiceModule, type ServiceName } from "../../kit/src/module.js";
import type { Clock, Doc, Store } from "../../kit/src/store/port.js";
import type { Bus, BusMessage } from "../../kit/src/bus/port.js";
import { buildDirectory } from "./module.js";
import { loadDirectoryConfig } from "./config.js";

/**
 * Deletions, disables and password changes that a crash interrupted, finished by the process that
 * starts next (outbox.ts). The crash: a publish that never returns, so the first process stops
 * where it stood. The next process: a second directory module on the same store and bus, whose
 * clock is past the first one's lease, as a restart's would be; its start runs the relay.
 */
/**
 * The stores these run on: SQLite, and a MongoDB-wire server (a database per test, dropped after)
 * when TESSERA_TEST_MONGODB_URI is set, so the relay's checks read the records as each store
 * gives them back.
 */
const MONGODB_URI = process.env.TESSERA_TEST_MONGODB_URI;
const databases: string[] = [];
const stores: Array<[string, () => Promise<Store>]> = [["sqlite", () => openStore({ kind: "sqlite", path: ":memory:", clock: { now: () => Date.now() } })]];
if (MONGODB_URI) {
  stores.push(["mongodb", () => {
    const database = `tessera_test_${randomBytes(6).toString("hex")}`;
    databases.push(database);
    return openStore({ kind: "mongodb", uri: MONGODB_URI, database, clock: { now: () => Date.now() }, sweepIntervalMs: 0 });
  }]);
  afterAll(async () => {
    for (const database of databases) {
      const conn = await mongoose.createConnection(MONGODB_URI, { dbName: database }).asPromise();
      await conn.dropDatabase();
      await conn.close();
    }
  });
} else {
  it("runs on MongoDB only with TESSERA_TEST_MONGODB_URI", () => undefined);
}

describe.each(stores)("directory writes a crash interrupted (%s)", (_storeName, openTestStore) => {
  const logger = createLogger("test", "silent");
  const secrets = new SecretBox(generateMasterKey());
  let store: Store;
  let bus: Bus;
  let first: ServiceModule;
  let next: ServiceModule | undefined;
  let firstStopped = false;
  let realms: Client<typeof RealmService>;
  let clients: Client<typeof ClientService>;
  let roles: Client<typeof RoleService>;
  let users: Client<typeof UserService>;
  let groups: Client<typeof GroupService>;
  let security: Client<typeof UserSecurityService>;
  let scopes: Client<typeof ClientScopeService>;
  let delivered: ReturnType<typeof recorder>;
  let realPublish: Bus["publish"];

  async function directory(clock: Clock, soleProcess = false): Promise<ServiceModule> {
    const transports = Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;
    return buildDirectory({ store, bus, logger, metrics: createMetrics(), transports, secrets, clock, soleProcess }, loadDirectoryConfig({}));
  }

  /** Every publish on these subjects hangs from now on: the process dies at the first of them. */
  function crashAt(subjects: string[]): void {
    bus.publish = async (subject, payload, options) => {
      if (subjects.includes(subject)) return new Promise<BusMessage>(() => undefined);
      return realPublish(subject, payload, options);
    };
  }

  /**
   * The next process, 31 s later by its clock: past the lease of what the first one left. As the
   * store's only process (`soleProcess`: embedded mode, its data directory locked), at once.
   */
  async function restart(soleProcess = false): Promise<void> {
    // The first process is gone: its consumers and timers with it (its hung request never returns).
    await first.stop();
    firstStopped = true;
    bus.publish = realPublish;
    next = await directory({ now: () => Date.now() + (soleProcess ? 0 : 31_000) }, soleProcess);
    await next.start();
  }

  beforeEach(async () => {
    store = await openTestStore();
    bus = await openBus({ kind: "memory", path: ":memory:", logger });
    realPublish = bus.publish.bind(bus);
    first = await directory({ now: () => Date.now() });
    await first.start();
    const t = createRouterTransport((r) => first.routes(r), { router: { interceptors: [serverInterceptor("directory", logger)] } });
    realms = createClient(RealmService, t);
    clients = createClient(ClientService, t);
    roles = createClient(RoleService, t);
    users = createClient(UserService, t);
    groups = createClient(GroupService, t);
    security = createClient(UserSecurityService, t);
    scopes = createClient(ClientScopeService, t);
    delivered = recorder();
    await bus.subscribe({ durable: "test-announcements", subject: "iam.directory.v1.>" }, delivered.handler);
    await realms.createRealm({ realm: { name: "acme", adminEventsEnabled: true } });
  });
  afterEach(async () => {
    bus.publish = realPublish;
    await next?.stop();
    next = undefined;
    if (!firstStopped) await first.stop();
    firstStopped = false;
    await bus.close();
    await store.close();
  });

  const seen = (subject: string) => delivered.got.filter((m) => m.subject === subject);
  const newUser = async (username: string) => (await users.createUser({ realm: "acme", user: { username, password: "Correct-Horse-1" } })).user!.id;

  it("a client deletion that died in its cascade: the next process drops its roles and announces the client's and its service account's deletion", async () => {
    await clients.createClient({ realm: "acme", client: { clientId: "svc", grantTypes: ["client_credentials"], grantTypesPresent: true } });
    await roles.createRole({ realm: "acme", clientId: "svc", role: { name: "reader" } });
    const saUser = (await clients.getServiceAccountUser({ realm: "acme", clientId: "svc" })).user!.id;
    const clientRoles = async () => (await store.collection({ name: "roles" })).count({ clientId: { $ne: "" }, name: "reader" });
    expect(await clientRoles()).toBe(1);
    // Dies at the service-account user's user.deleted: the client and that user are gone, the
    // client's roles and both announcements not yet.
    crashAt(["iam.directory.v1.user.deleted"]);
    void clients.deleteClient({ realm: "acme", clientId: "svc" }).catch(() => undefined);
    await waitUntil("the store to show it", async () => (await clients.getClient({ realm: "acme", clientId: "svc" }).then(() => false, () => true)));
    await waitUntil("the store to show it", async () => (await (await store.collection({ name: "users" })).count({ _id: saUser })) === 0);
    expect(await clientRoles()).toBe(1);
    expect(seen("iam.directory.v1.client.updated")).toEqual([]);

    await restart();
    await waitUntil("client.updated and user.deleted", () => seen("iam.directory.v1.client.updated").length === 1 && seen("iam.directory.v1.user.deleted").length === 1);
    const client = fromBinary(ClientUpdatedSchema, seen("iam.directory.v1.client.updated")[0]!.payload);
    expect({ clientId: client.clientId, deleted: client.deleted }).toEqual({ clientId: "svc", deleted: true });
    expect(fromBinary(UserDeletedSchema, seen("iam.directory.v1.user.deleted")[0]!.payload).userId).toBe(saUser);
    expect(await clientRoles()).toBe(0);
    expect(await (await store.collection({ name: "outbox" })).count({})).toBe(0);
    // And its DELETE admin event, as the admin's request would have recorded it.
    await waitUntil("the admin event", () => delivered.got.some((m) => m.subject === "iam.directory.v1.admin-event.recorded"));
  });

  it("a realm deletion that died before its announcement: the next process announces it, and every consumer drops the realm's data", async () => {
    await clients.createClient({ realm: "acme", client: { clientId: "web" } });
    const realmId = (await realms.getRealm({ name: "acme" })).realm!.id;
    crashAt(["iam.directory.v1.realm.deleted"]);
    void realms.deleteRealm({ name: "acme" }).catch(() => undefined);
    await waitUntil("the store to show it", async () => realms.getRealm({ name: "acme" }).then(() => false, (e: { code: Code }) => e.code === Code.NotFound));
    expect(seen("iam.directory.v1.realm.deleted")).toEqual([]);
    expect(await (await store.collection({ name: "clients" })).count({ realmId })).toBe(1);

    await restart();
    await waitUntil("realm.deleted", () => seen("iam.directory.v1.realm.deleted").length === 1);
    const e = fromBinary(RealmDeletedSchema, seen("iam.directory.v1.realm.deleted")[0]!.payload);
    expect({ realmId: e.realmId, realmName: e.realmName }).toEqual({ realmId, realmName: "acme" });
    await waitUntil("the store to show it", async () => (await (await store.collection({ name: "clients" })).count({ realmId })) === 0);
  });

  it("a user disabled just before a crash: the next process announces user.disabled; one enabled again meanwhile is not announced", async () => {
    const alice = await newUser("alice");
    const bob = await newUser("bob");
    crashAt(["iam.directory.v1.user.disabled"]);
    void users.updateUser({ realm: "acme", userId: alice, update: { enabled: false } }).catch(() => undefined);
    void users.updateUser({ realm: "acme", userId: bob, update: { enabled: false } }).catch(() => undefined);
    const enabled = async (id: string) => (await (await store.collection({ name: "users" })).get(id))?.enabled;
    await waitUntil("the store to show it", async () => (await enabled(alice)) === false && (await enabled(bob)) === false);
    // Bob is enabled again (by another replica, say) before the relay looks.
    await (await store.collection({ name: "users" })).update({ _id: bob }, { $set: { enabled: true } });

    await restart();
    await waitUntil("user.disabled", () => seen("iam.directory.v1.user.disabled").length === 1);
    expect(fromBinary(UserDisabledSchema, seen("iam.directory.v1.user.disabled")[0]!.payload).userId).toBe(alice);
    await waitUntil("the store to show it", async () => (await (await store.collection({ name: "outbox" })).count({})) === 0);
    expect(seen("iam.directory.v1.user.disabled")).toHaveLength(1);
  });

  it("a user deleted just before a crash, the store's only process (embedded): the next process announces user.deleted as it starts, not a lease later", async () => {
    const dave = await newUser("dave");
    crashAt(["iam.directory.v1.user.deleted"]);
    void users.deleteUser({ realm: "acme", userId: dave }).catch(() => undefined);
    await waitUntil("the store to show it", async () => (await (await store.collection({ name: "users" })).count({ _id: dave })) === 0);

    await restart(true);
    // start() ran the relay with no time passed: the lease did not hold it back.
    await waitUntil("user.deleted", () => seen("iam.directory.v1.user.deleted").length === 1);
    expect(seen("iam.directory.v1.user.deleted").map((m) => fromBinary(UserDeletedSchema, m.payload).userId)).toEqual([dave]);
    expect(await (await store.collection({ name: "outbox" })).count({})).toBe(0);
  });

  it("grants, withdrawals and credential changes just before a crash: the next process records each admin event, unless the store shows the write undone", async () => {
    const erin = await newUser("erin");
    const frank = await newUser("frank");
    await roles.createRole({ realm: "acme", clientId: "", role: { name: "auditor" } });
    await roles.createRole({ realm: "acme", clientId: "", role: { name: "operator" } });
    await roles.assignRoleMappings({ realm: "acme", holderType: HolderType.USER, holderId: frank, clientId: "", roleNames: ["operator"] });
    const group = (await groups.createGroup({ realm: "acme", group: { name: "ops" } })).group!.id;
    await groups.addUserToGroup({ realm: "acme", userId: frank, groupId: group });
    const client = (await clients.createClient({ realm: "acme", client: { clientId: "api" } })).client!;
    const path = (m: BusMessage) => fromBinary(AdminEventSchema, m.payload).resourcePath;
    await waitUntil("the set-up's admin events", () => delivered.got.some((m) => m.subject === "iam.directory.v1.admin-event.recorded" && path(m) === `clients/${client.id}`));
    const before = delivered.got.length;

    // Each dies at its admin event's publish, its write done.
    crashAt(["iam.directory.v1.admin-event.recorded"]);
    const calls = [
      roles.assignRoleMappings({ realm: "acme", holderType: HolderType.USER, holderId: erin, clientId: "", roleNames: ["auditor"] }),
      roles.assignRoleMappings({ realm: "acme", holderType: HolderType.USER, holderId: frank, clientId: "", roleNames: ["auditor"] }),
      roles.removeRoleMappings({ realm: "acme", holderType: HolderType.USER, holderId: frank, clientId: "", roleNames: ["operator"] }),
      groups.addUserToGroup({ realm: "acme", userId: erin, groupId: group }),
      groups.removeUserFromGroup({ realm: "acme", userId: frank, groupId: group }),
      security.resetMfa({ realm: "acme", userId: erin }),
      security.unlockUser({ realm: "acme", userId: erin }),
      clients.regenerateClientSecret({ realm: "acme", clientId: "api" }),
      users.resetPassword({ realm: "acme", userId: frank, password: "Another-Horse-3", temporary: false }),
    ];
    for (const c of calls) void (c as Promise<unknown>).catch(() => undefined);
    const entries = await store.collection({ name: "outbox" });
    await waitUntil("every write staged and done", async () => (await entries.count({})) === calls.length
      && (await (await store.collection({ name: "group_memberships" })).count({ userId: erin })) === 1
      && (await (await store.collection({ name: "role_mappings" })).count({ holderId: frank })) === 1);
    expect(delivered.got.slice(before).filter((m) => m.subject === "iam.directory.v1.admin-event.recorded").map(path)).toEqual([]);
    // Frank's new role is taken away again (by another replica, say) before the relay looks: that
    // assignment is no longer what the store shows, so it is not recorded.
    await (await store.collection({ name: "role_mappings" })).deleteMany({ holderId: frank, roleId: { $ne: "" } });

    await restart(true);
    await waitUntil("the admin events", async () => (await entries.count({})) === 0);
    const recorded = delivered.got.slice(before).filter((m) => m.subject === "iam.directory.v1.admin-event.recorded").map((m) => {
      const e = fromBinary(AdminEventSchema, m.payload);
      return `${e.operationType} ${e.resourceType} ${e.resourcePath}`;
    }).sort();
    expect(recorded).toEqual([
      `ACTION CLIENT clients/${client.id}/client-secret`,
      `ACTION USER brute-force/users/${erin}/unlock`,
      `ACTION USER users/${erin}/mfa`,
      `ACTION USER users/${frank}/reset-password`,
      `CREATE GROUP_MEMBERSHIP users/${erin}/groups/${group}`,
      `CREATE REALM_ROLE_MAPPING users/${erin}/role-mappings/realm`,
      `DELETE GROUP_MEMBERSHIP users/${frank}/groups/${group}`,
      `DELETE REALM_ROLE_MAPPING users/${frank}/role-mappings/realm`,
    ].sort());
    // The relayed copy is the one the request built: its representation and the admin who asked.
    const grant = delivered.got.find((m) => m.subject === "iam.directory.v1.admin-event.recorded" && path(m) === `users/${erin}/role-mappings/realm`)!;
    const auditor = (await roles.getRole({ realm: "acme", clientId: "", name: "auditor" })).role!;
    expect(JSON.parse(fromBinary(AdminEventSchema, grant.payload).representation)).toEqual([{ id: auditor.id, name: "auditor" }]);
  });

  it("creations and updates of configuration just before a crash: the next process records each admin event with the representation the request built", async () => {
    const gina = await newUser("gina");
    const parent = (await groups.createGroup({ realm: "acme", group: { name: "eng" } })).group!.id;
    const child = (await groups.createGroup({ realm: "acme", group: { name: "web", parentId: parent } })).group!.id;
    const client = (await clients.createClient({ realm: "acme", client: { clientId: "portal" } })).client!;
    const scope = (await scopes.createClientScope({ realm: "acme", scope: { name: "dept" } })).scope!.id;
    const mapper = (await scopes.createProtocolMapper({ realm: "acme", scopeId: scope, mapper: {
      name: "dept", mapperType: "oidc-usermodel-attribute-mapper", config: { "claim.name": "dept", "user.attribute": "department" },
    } })).mapper!.id;
    const admin = "iam.directory.v1.admin-event.recorded";
    const path = (m: BusMessage) => fromBinary(AdminEventSchema, m.payload).resourcePath;
    await waitUntil("the set-up's admin events", () => delivered.got.some((m) => m.subject === admin && path(m) === `client-scopes/${scope}/protocol-mappers/${mapper}`));
    const before = delivered.got.length;

    crashAt([admin]);
    const calls: Array<Promise<unknown>> = [
      users.updateUser({ realm: "acme", userId: gina, update: { firstName: "Gina", email: "gina@example.test" } }),
      groups.updateGroup({ realm: "acme", groupId: parent, update: { name: "engineering", description: "all of it" } }),
      clients.updateClient({ realm: "acme", clientId: "portal", update: { redirectUris: ["https://portal.example.test/cb"], redirectUrisPresent: true, requireConsent: true } }),
      scopes.updateClientScope({ realm: "acme", scopeId: scope, update: { description: "the department" } }),
      scopes.updateProtocolMapper({ realm: "acme", scopeId: scope, mapperId: mapper, update: { config: { "claim.name": "department", "user.attribute": "department", "access.token.claim": "true" }, configPresent: true } }),
      roles.createRole({ realm: "acme", clientId: "portal", role: { name: "viewer" } }),
      realms.updateRealm({ name: "acme", update: { displayName: "Acme Corp" } }),
    ];
    for (const c of calls) void c.catch(() => undefined);
    const entries = await store.collection({ name: "outbox" });
    await waitUntil("every write staged", async () => (await entries.count({})) === calls.length);
    await waitUntil("every write done", async () => (await roles.listRoles({ realm: "acme", clientId: "portal" })).roles.length === 1
      && (await groups.getGroup({ realm: "acme", groupId: parent })).group!.name === "engineering"
      && (await users.getUser({ realm: "acme", userId: gina })).user!.firstName === "Gina"
      && (await clients.getClient({ realm: "acme", clientId: "portal" })).client!.requireConsent
      && (await scopes.getClientScope({ realm: "acme", scopeId: scope })).scope!.description === "the department"
      && (await realms.getRealm({ name: "acme" })).realm!.displayName === "Acme Corp");
    await sleep(50); // the mapper's write, which no read above shows
    expect(delivered.got.slice(before).filter((m) => m.subject === admin)).toEqual([]);

    await restart(true);
    await waitUntil("the outbox emptied", async () => (await entries.count({})) === 0);
    const recorded = new Map(delivered.got.slice(before).filter((m) => m.subject === admin).map((m) => {
      const e = fromBinary(AdminEventSchema, m.payload);
      return [`${e.operationType} ${e.resourceType} ${e.resourcePath}`, JSON.parse(e.representation || "null") as Record<string, unknown>];
    }));
    // Each update is recognised by its record as the write left it, in the store's own JSON.
    expect([...recorded.keys()].sort()).toEqual([
      `CREATE CLIENT_ROLE clients/${client.id}/roles/viewer`,
      `UPDATE CLIENT clients/${client.id}`,
      `UPDATE CLIENT_SCOPE client-scopes/${scope}`,
      `UPDATE GROUP groups/${parent}`,
      `UPDATE PROTOCOL_MAPPER client-scopes/${scope}/protocol-mappers/${mapper}`,
      "UPDATE REALM realms/acme",
      `UPDATE USER users/${gina}`,
    ].sort());
    // The representations are what the request would have answered.
    const now = async () => ({
      user: (await users.getUser({ realm: "acme", userId: gina })).user!,
      group: (await groups.getGroup({ realm: "acme", groupId: parent })).group!,
    });
    const { user, group } = await now();
    expect(recorded.get(`UPDATE USER users/${gina}`)).toMatchObject({ id: gina, firstName: "Gina", email: "gina@example.test", emailVerified: false, updatedAt: expect.any(String) });
    expect(user.firstName).toBe("Gina");
    expect(recorded.get(`UPDATE GROUP groups/${parent}`)).toMatchObject({ name: "engineering", path: "/engineering", subGroups: [expect.objectContaining({ id: child, path: "/engineering/web" })] });
    expect(group.subGroups.map((g) => g.path)).toEqual(["/engineering/web"]);
    expect(recorded.get(`UPDATE CLIENT clients/${client.id}`)).toMatchObject({ clientId: "portal", redirectUris: ["https://portal.example.test/cb"], requireConsent: true });
    expect(recorded.get(`UPDATE CLIENT clients/${client.id}`)).not.toHaveProperty("secretSealed");
    expect(recorded.get("UPDATE REALM realms/acme")).toMatchObject({ displayName: "Acme Corp" });
    // The cache drops went with them.
    expect(delivered.got.slice(before).filter((m) => m.subject === "iam.directory.v1.client.updated").map((m) => fromBinary(ClientUpdatedSchema, m.payload).clientId)).toEqual(["portal"]);
    expect(delivered.got.slice(before).filter((m) => m.subject === "iam.directory.v1.realm.updated").map((m) => fromBinary(RealmUpdatedSchema, m.payload).realmName)).toEqual(["acme"]);
  });

  it("client, realm and service-account changes just before a crash, in a realm that records no admin events: the next process announces their cache drops", async () => {
    await realms.createRealm({ realm: { name: "plain" } });
    await clients.createClient({ realm: "plain", client: { clientId: "web" } });
    await clients.createClient({ realm: "plain", client: { clientId: "api" } });
    await clients.createClient({ realm: "plain", client: { clientId: "svc", grantTypes: ["client_credentials"], grantTypesPresent: true } });
    const sa = (await clients.getServiceAccountUser({ realm: "plain", clientId: "svc" })).user!.id;
    await roles.createRole({ realm: "plain", clientId: "", role: { name: "reader" } });
    const dropped = (subject: string) => delivered.got.filter((m) => m.subject === subject);
    await sleep(50); // whatever the set-up announced has landed
    const [clientsBefore, realmsBefore] = [dropped("iam.directory.v1.client.updated").length, dropped("iam.directory.v1.realm.updated").length];

    crashAt(["iam.directory.v1.client.updated", "iam.directory.v1.realm.updated", "iam.directory.v1.service-account.changed"]);
    const saBefore = dropped("iam.directory.v1.service-account.changed").length;
    const calls: Array<Promise<unknown>> = [
      clients.updateClient({ realm: "plain", clientId: "web", update: { redirectUris: ["https://web.example.test/cb"], redirectUrisPresent: true } }),
      clients.regenerateClientSecret({ realm: "plain", clientId: "api" }),
      realms.updateRealm({ name: "plain", update: { accessTokenLifespan: 60 } }),
      roles.assignRoleMappings({ realm: "plain", holderType: HolderType.USER, holderId: sa, clientId: "", roleNames: ["reader"] }),
    ];
    for (const c of calls) void c.catch(() => undefined);
    const entries = await store.collection({ name: "outbox" });
    await waitUntil("every write staged and done", async () => (await entries.count({})) === calls.length
      && (await clients.getClient({ realm: "plain", clientId: "web" })).client!.redirectUris.length === 1
      && (await realms.getRealm({ name: "plain" })).realm!.accessTokenLifespan === 60
      && (await (await store.collection({ name: "role_mappings" })).count({ holderId: sa })) === 1);
    expect(dropped("iam.directory.v1.client.updated")).toHaveLength(clientsBefore);
    expect(dropped("iam.directory.v1.realm.updated")).toHaveLength(realmsBefore);
    expect(dropped("iam.directory.v1.service-account.changed")).toHaveLength(saBefore);

    await restart(true);
    await waitUntil("the outbox emptied", async () => (await entries.count({})) === 0);
    await waitUntil("the announcements", () => dropped("iam.directory.v1.client.updated").length === clientsBefore + 2);
    expect(dropped("iam.directory.v1.client.updated").slice(clientsBefore).map((m) => fromBinary(ClientUpdatedSchema, m.payload))
      .map((c) => [c.realmName, c.clientId, c.deleted, c.disabled]).sort()).toEqual([["plain", "api", false, false], ["plain", "web", false, false]]);
    expect(dropped("iam.directory.v1.realm.updated").slice(realmsBefore).map((m) => fromBinary(RealmUpdatedSchema, m.payload).realmName)).toEqual(["plain"]);
    await waitUntil("service-account.changed", () => dropped("iam.directory.v1.service-account.changed").length === saBefore + 1);
    expect(fromBinary(ServiceAccountChangedSchema, dropped("iam.directory.v1.service-account.changed")[saBefore]!.payload)).toMatchObject({ realmName: "plain", userId: sa });
    // No admin event: the realm records none.
    expect(delivered.got.filter((m) => m.subject === "iam.directory.v1.admin-event.recorded").map((m) => fromBinary(AdminEventSchema, m.payload).realm)).not.toContain("plain");
  });

  it("a user import cut short by a crash: the next process records the user it had created; the summary is not recorded, the user not reached not created", async () => {
    const adminEvents = () => delivered.got.filter((m) => m.subject === "iam.directory.v1.admin-event.recorded").map((m) => fromBinary(AdminEventSchema, m.payload));
    const before = adminEvents().length;
    // The first user's admin event goes out; the process dies at the second's, its user created.
    let recorded = 0;
    bus.publish = async (subject, payload, options) => {
      if (subject === "iam.directory.v1.admin-event.recorded" && ++recorded > 1) return new Promise<BusMessage>(() => undefined);
      return realPublish(subject, payload, options);
    };
    void security.importUsers({ realm: "acme", users: [{ username: "ana" }, { username: "bo", password: "bo-password-1" }, { username: "cy" }] }).catch(() => undefined);
    const userRecords = await store.collection<{ _id: string; username: string } & Doc>({ name: "users" });
    await waitUntil("bo created", async () => (await userRecords.findOne({ username: "bo" })) !== null && recorded === 2);

    await restart(true);
    const entries = await store.collection({ name: "outbox" });
    await waitUntil("the admin events", async () => (await entries.count({})) === 0 && adminEvents().length === before + 2);
    const ids = Object.fromEntries((await userRecords.find({ username: { $in: ["ana", "bo", "cy"] } })).map((u) => [u.username, u._id]));
    expect(Object.keys(ids).sort()).toEqual(["ana", "bo"]);
    expect(adminEvents().slice(before).map((e) => [e.operationType, e.resourceType, e.resourcePath, JSON.parse(e.representation).username])).toEqual([
      ["CREATE", "USER", `users/${ids.ana}`, "ana"],
      ["CREATE", "USER", `users/${ids.bo}`, "bo"],
    ]);
    expect(adminEvents().slice(before).map((e) => e.representation).join("\n")).not.toContain("bo-password-1");
  });

  it("a password reset just before a crash: the next process announces password.changed", async () => {
    const carol = await newUser("carol");
    crashAt(["iam.directory.v1.password.changed"]);
    const before = (await (await store.collection({ name: "credentials" })).findOne({ userId: carol }))?.createdAt as number;
    void users.resetPassword({ realm: "acme", userId: carol, password: "Another-Horse-2", temporary: true }).catch(() => undefined);
    await waitUntil("the store to show it", async () => ((await (await store.collection({ name: "credentials" })).findOne({ userId: carol }))?.createdAt as number) > before);

    await restart();
    await waitUntil("password.changed", () => seen("iam.directory.v1.password.changed").length === 1);
    const e = fromBinary(PasswordChangedSchema, seen("iam.directory.v1.password.changed")[0]!.payload);
    expect({ userId: e.userId, temporary: e.temporary }).toEqual({ userId: carol, temporary: true });
  });

  it("a client disabled just before a crash: the next process announces client.updated, disabled", async () => {
    await clients.createClient({ realm: "acme", client: { clientId: "portal" } });
    crashAt(["iam.directory.v1.client.updated"]);
    void clients.updateClient({ realm: "acme", clientId: "portal", update: { enabled: false } }).catch(() => undefined);
    await waitUntil("the store to show it", async () => (await (await store.collection({ name: "clients" })).findOne({ clientId: "portal" }))?.enabled === false);
    const announced = () => seen("iam.directory.v1.client.updated").map((m) => fromBinary(ClientUpdatedSchema, m.payload)).filter((c) => c.clientId === "portal");
    expect(announced()).toEqual([]);

    await restart();
    await waitUntil("client.updated", () => announced().length === 1);
    expect({ deleted: announced()[0]!.deleted, disabled: announced()[0]!.disabled }).toEqual({ deleted: false, disabled: true });
  });
});
