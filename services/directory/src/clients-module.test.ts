import { waitUntil } from "../../kit/src/bus/bus-test-kit.js";
import { randomUUID } from "node:crypto";
import { createClient, createRouterTransport, ConnectError, Code, type Client } from "@connectrpc/connect";
import { RealmService } from "../../../gen/iam/directory/v1/realm_pb.js";
import { fromBinary } from "@bufbuild/protobuf";
import { ClientService, ClientUpdatedSchema, TokenConfigChangedSchema } from "../../../gen/iam/directory/v1/client_pb.js";
import { RoleService, HolderType } from "../../../gen/iam/directory/v1/role_pb.js";
import { ClientScopeService, ScopeKind } from "../../../gen/iam/directory/v1/client_scope_pb.js";
import { ClaimsService } from "../../../gen/iam/directory/v1/claims_pb.js";
import { UserDeletedSchema } from "../../../gen/iam/directory/v1/user_pb.js";
import { ErrorDetailSchema } from "../../../gen/iam/kit/v1/kit_pb.js";
import { openStore } from "../../kit/src/store/open-store.js";
import { openBus } from "../../kit/src/bus/open-bus.js";
import { createLogger } from "../../kit/src/logger.js";
import { createMetrics } from "../../kit/src/metrics.js";
import { SecretBox, generateMasterKey } from "../../kit/src/crypto/secret-box.js";
import { LazyTransport } from "../../kit/src/rpc/lazy-transport.js";
import { serverInterceptor } from "../../kit/src/rpc/server-interceptor.js";
import { SERVICE_NAMES, type ServiceModule, type ServiceName } from "../../kit/src/module.js";
import { systemClock, type Store } from "../../kit/src/store/port.js";
import type { Bus } from "../../kit/src/bus/port.js";
import { buildDirectory } from "./module.js";
import { loadDirectoryConfig } from "./config.js";
import { UserRepository } from "./store/user-repository.js";
import { GroupRepository } from "./store/group-repository.js";
import type { UserRecord } from "./domain/user.js";

// The internal RPCs (ResolveClaims, AuthenticateClient) through real Connect routing, on the
// directory module built in-process over sqlite :memory: and the in-memory bus.
describe("directory clients slice, in-process", () => {
  let store: Store;
  let bus: Bus;
  let module: ServiceModule;
  let realms: Client<typeof RealmService>;
  let clients: Client<typeof ClientService>;
  let roles: Client<typeof RoleService>;
  let scopes: Client<typeof ClientScopeService>;
  let claims: Client<typeof ClaimsService>;
  let users: UserRepository;
  let groups: GroupRepository;
  const realm = "claims";
  const logger = createLogger("test", "silent");

  beforeAll(async () => {
    store = await openStore({ kind: "sqlite", path: ":memory:", clock: systemClock });
    bus = await openBus({ kind: "memory", path: ":memory:", logger });
    const transports = Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;
    module = await buildDirectory(
      { store, bus, logger, metrics: createMetrics(), transports, secrets: new SecretBox(generateMasterKey()), clock: systemClock },
      loadDirectoryConfig({}),
    );
    await module.start();
    const t = createRouterTransport((r) => module.routes(r), { router: { interceptors: [serverInterceptor("directory", logger)] } });
    realms = createClient(RealmService, t);
    clients = createClient(ClientService, t);
    roles = createClient(RoleService, t);
    scopes = createClient(ClientScopeService, t);
    claims = createClient(ClaimsService, t);
    users = await UserRepository.open(store);
    groups = await GroupRepository.open(store);
    await realms.createRealm({ realm: { name: realm } });
  });
  afterAll(async () => {
    await module.stop();
    await bus.close();
    await store.close();
  });

  async function realmId(): Promise<string> {
    return (await realms.getRealm({ name: realm })).realm!.id;
  }

  async function newUser(over: Partial<UserRecord> = {}): Promise<UserRecord> {
    const id = randomUUID();
    const username = over.username ?? `u-${id.slice(0, 8)}`;
    const user: UserRecord = {
      _id: id, realmId: await realmId(), username, usernameKey: username.toLowerCase(), email: "", emailKey: `none:${id}`,
      firstName: "", lastName: "", enabled: true, emailVerified: false, requirePasswordReset: false,
      serviceAccountClientId: "", attributes: {}, createdAt: Date.now(), updatedAt: Date.now(), ...over,
    };
    await users.insert(user);
    return user;
  }

  async function newGroup(name: string, parent?: { _id: string; path: string }) {
    const g = {
      _id: randomUUID(), realmId: await realmId(), name, description: "", parentId: parent?._id ?? "",
      path: `${parent?.path ?? ""}/${name}`, createdAt: Date.now(), updatedAt: Date.now(),
    };
    await groups.insert(g);
    return g;
  }

  async function addMember(userId: string, groupId: string) {
    const c = await store.collection({ name: "group_memberships" });
    await c.insert({ _id: `${userId}:${groupId}`, realmId: await realmId(), userId, groupId });
  }

  function reasonOf(e: unknown) {
    const ce = ConnectError.from(e);
    return { code: ce.code, detail: ce.findDetails(ErrorDetailSchema)[0] };
  }

  it("resolves claims from default scopes, requested optional scopes, direct and inherited roles", async () => {
    await clients.createClient({ realm, client: { clientId: "web", redirectUris: ["https://web.example.test/cb"], webOrigins: ["+"] } });
    await clients.createClient({ realm, client: { clientId: "api" } });
    await roles.createRole({ realm, clientId: "", role: { name: "direct" } });
    await roles.createRole({ realm, clientId: "", role: { name: "from-parent" } });
    await roles.createRole({ realm, clientId: "", role: { name: "from-child" } });
    await roles.createRole({ realm, clientId: "", role: { name: "unrelated" } });
    await roles.createRole({ realm, clientId: "web", role: { name: "web-user" } });
    await roles.createRole({ realm, clientId: "api", role: { name: "api-caller" } });

    const user = await newUser({
      username: "alice", email: "alice@example.test", firstName: "Alice", lastName: "L", emailVerified: true,
      attributes: { department: ["eng"] },
    });
    const org = await newGroup("org");
    const eng = await newGroup("eng", org);
    await addMember(user._id, eng._id);

    const user_ = { realm, holderType: HolderType.USER, holderId: user._id };
    await roles.assignRoleMappings({ ...user_, clientId: "", roleNames: ["direct"] });
    await roles.assignRoleMappings({ ...user_, clientId: "web", roleNames: ["web-user"] });
    await roles.assignRoleMappings({ realm, holderType: HolderType.GROUP, holderId: org._id, clientId: "", roleNames: ["from-parent"] });
    await roles.assignRoleMappings({ realm, holderType: HolderType.GROUP, holderId: eng._id, clientId: "", roleNames: ["from-child"] });
    await roles.assignRoleMappings({ realm, holderType: HolderType.GROUP, holderId: eng._id, clientId: "api", roleNames: ["api-caller"] });

    // A custom optional scope with group and attribute mappers.
    const extra = (await scopes.createClientScope({ realm, scope: { name: "extra" } })).scope!;
    await scopes.createProtocolMapper({ realm, scopeId: extra.id, mapper: { name: "groups", mapperType: "oidc-group-membership-mapper", config: { "claim.name": "groups", "access.token.claim": "true", "id.token.claim": "true", "userinfo.token.claim": "false" } } });
    await scopes.createProtocolMapper({ realm, scopeId: extra.id, mapper: { name: "dept", mapperType: "oidc-usermodel-attribute-mapper", config: { "claim.name": "dept", "user.attribute": "department", "userinfo.token.claim": "true", "access.token.claim": "false", "id.token.claim": "false" } } });
    await scopes.assignScope({ realm, clientId: "web", kind: ScopeKind.OPTIONAL, clientScopeId: extra.id });

    const base = await claims.resolveClaims({ realm, userId: user._id, clientId: "web", scopes: ["openid"] });
    expect(base.grantedScopes.sort()).toEqual(["acr", "basic", "email", "profile", "roles", "web-origins"]);
    const access = JSON.parse(base.accessTokenClaimsJson);
    expect(access).toEqual({
      sub: user._id, name: "Alice L", preferred_username: "alice", given_name: "Alice", family_name: "L",
      updated_at: Math.floor(user.updatedAt / 1000), email: "alice@example.test", email_verified: true,
      realm_access: { roles: ["direct", "from-child", "from-parent", "offline_access"] },
      resource_access: { web: { roles: ["web-user"] }, api: { roles: ["api-caller"] } },
      aud: ["api"], "allowed-origins": ["https://web.example.test"], acr: "1",
    });
    expect(JSON.parse(base.idTokenClaimsJson)).not.toHaveProperty("realm_access");
    expect(base.realmRoles).toEqual(["direct", "from-child", "from-parent", "offline_access"]);
    expect(base.clientRoles.sort()).toEqual(["api/api-caller", "web/web-user"]);

    const withExtra = await claims.resolveClaims({ realm, userId: user._id, clientId: "web", scopes: ["openid", "extra", "offline_access"] });
    expect(withExtra.grantedScopes.sort()).toEqual(["acr", "basic", "email", "extra", "offline_access", "profile", "roles", "web-origins"]);
    expect(JSON.parse(withExtra.accessTokenClaimsJson).groups).toEqual(["/org/eng"]);
    expect(JSON.parse(withExtra.userinfoClaimsJson)).toMatchObject({ dept: "eng", email: "alice@example.test" });

    // only_requested (a refresh narrowing its scope, RFC 6749 section 6): the named scopes alone, defaults included.
    const narrow = await claims.resolveClaims({ realm, userId: user._id, clientId: "web", scopes: ["profile", "extra", "unknown"], onlyRequested: true });
    expect(narrow.grantedScopes).toEqual(["extra", "profile"]);
    expect(JSON.parse(narrow.accessTokenClaimsJson)).toEqual({
      name: "Alice L", preferred_username: "alice", given_name: "Alice", family_name: "L", groups: ["/org/eng"],
      updated_at: Math.floor(user.updatedAt / 1000),
    });
    expect(JSON.parse(narrow.userinfoClaimsJson)).toEqual({ name: "Alice L", preferred_username: "alice", given_name: "Alice", family_name: "L", dept: "eng", updated_at: Math.floor(user.updatedAt / 1000) });

    // An optional scope of another client is not granted by asking for it.
    const api = await claims.resolveClaims({ realm, userId: user._id, clientId: "api", scopes: ["extra"] });
    expect(api.grantedScopes).not.toContain("extra");
  });

  it("404s unknown users and clients in ResolveClaims", async () => {
    const user = await newUser();
    await expect(claims.resolveClaims({ realm, userId: randomUUID(), clientId: "web", scopes: [] })).rejects.toMatchObject({ code: Code.NotFound });
    await expect(claims.resolveClaims({ realm, userId: user._id, clientId: "ghost", scopes: [] })).rejects.toMatchObject({ code: Code.NotFound });
  });

  it("maps client roles to groups through clientId", async () => {
    const g = await newGroup("gclient");
    await clients.createClient({ realm, client: { clientId: "gapp" } });
    await roles.createRole({ realm, clientId: "gapp", role: { name: "g-role" } });
    await roles.createRole({ realm, clientId: "", role: { name: "g-realm" } });
    const holder = { realm, holderType: HolderType.GROUP, holderId: g._id };
    expect((await roles.assignRoleMappings({ ...holder, clientId: "gapp", roleNames: ["g-role"] })).roleNames).toEqual(["g-role"]);
    await roles.assignRoleMappings({ ...holder, clientId: "", roleNames: ["g-realm"] });
    const listed = await roles.listRoleMappings({ ...holder, clientId: "" });
    expect(listed.roles.map((r) => [r.name, r.clientId]).sort()).toEqual([["g-realm", ""], ["g-role", "gapp"]]);
    await roles.removeRoleMappings({ ...holder, clientId: "gapp", roleNames: ["g-role"] });
    expect((await roles.listRoleMappings({ ...holder, clientId: "" })).roles.map((r) => r.name)).toEqual(["g-realm"]);
  });

  it("authenticates confidential clients by secret, in constant time, as invalid_client", async () => {
    const created = await clients.createClient({ realm, client: { clientId: "svc", grantTypes: ["client_credentials"] } });
    const secret = created.client!.secret!;
    const ok = await clients.authenticateClient({ realm, clientId: "svc", secret });
    expect(ok.client).toMatchObject({ clientId: "svc", clientType: "CONFIDENTIAL", grantTypes: ["client_credentials"] });
    expect(ok.client!.secret).toBeUndefined();
    for (const [clientId, s, r] of [["svc", "wrong", realm], ["svc", "", realm], ["ghost", secret, realm], ["svc", secret, "no-realm"]]) {
      try {
        await clients.authenticateClient({ realm: r as string, clientId: clientId as string, secret: s as string });
        throw new Error("expected a failure");
      } catch (e) {
        const { code, detail } = reasonOf(e);
        expect(code).toBe(Code.Unauthenticated);
        expect(detail).toMatchObject({ reason: "invalid_client", oauthError: "invalid_client" });
      }
    }
    // A regenerated secret replaces the old one.
    const regen = await clients.regenerateClientSecret({ realm, clientId: "svc" });
    await expect(clients.authenticateClient({ realm, clientId: "svc", secret })).rejects.toMatchObject({ code: Code.Unauthenticated });
    expect((await clients.authenticateClient({ realm, clientId: "svc", secret: regen.client!.secret! })).client!.clientId).toBe("svc");
    // Disabled clients fail.
    await clients.updateClient({ realm, clientId: "svc", update: { enabled: false } });
    await expect(clients.authenticateClient({ realm, clientId: "svc", secret: regen.client!.secret! })).rejects.toMatchObject({ code: Code.Unauthenticated });
  });

  it("authenticates nobody in a disabled realm", async () => {
    await realms.createRealm({ realm: { name: "sleepy" } });
    const c = await clients.createClient({ realm: "sleepy", client: { clientId: "c1" } });
    expect((await clients.authenticateClient({ realm: "sleepy", clientId: "c1", secret: c.client!.secret! })).client!.clientId).toBe("c1");
    await realms.updateRealm({ name: "sleepy", update: { enabled: false } });
    await expect(clients.authenticateClient({ realm: "sleepy", clientId: "c1", secret: c.client!.secret! })).rejects.toMatchObject({ code: Code.Unauthenticated });
  });

  it("identifies public clients without a secret", async () => {
    await clients.createClient({ realm, client: { clientId: "spa", clientType: "PUBLIC", redirectUris: ["https://spa.example.test/cb"] } });
    const ok = await clients.authenticateClient({ realm, clientId: "spa", secret: "" });
    expect(ok.client).toMatchObject({ clientType: "PUBLIC", redirectUris: ["https://spa.example.test/cb"] });
    await expect(clients.authenticateClient({ realm, clientId: "spa", secret: "x" })).rejects.toMatchObject({ code: Code.Unauthenticated });
  });

  it("publishes client.updated on update, secret regeneration and delete, saying whether the client is disabled", async () => {
    const seen: string[] = [];
    const sub = await bus.subscribe({ durable: "test-client-updated", subject: "iam.directory.v1.client.updated" }, async (m) => {
      const e = fromBinary(ClientUpdatedSchema, m.payload);
      if (e.clientId === "cache-me") seen.push(`${e.deleted ? "deleted" : "updated"}${e.disabled ? " disabled" : ""}`);
    });
    await clients.createClient({ realm, client: { clientId: "cache-me" } });
    await clients.updateClient({ realm, clientId: "cache-me", update: { name: "x" } });
    await clients.regenerateClientSecret({ realm, clientId: "cache-me" });
    await clients.updateClient({ realm, clientId: "cache-me", update: { enabled: false } });
    await clients.updateClient({ realm, clientId: "cache-me", update: { enabled: true } });
    await clients.deleteClient({ realm, clientId: "cache-me" });
    for (let i = 0; i < 50 && seen.length < 5; i++) await new Promise((r) => setTimeout(r, 20));
    await sub.stop();
    expect(seen).toEqual(["updated", "updated", "updated disabled", "updated", "deleted"]);
  });

  it("names the realm in token-config.changed, so the token service drops that realm's caches only", async () => {
    const seen: Array<{ realmId: string; realmName: string }> = [];
    const realmIdSeen = await realmId();
    const sub = await bus.watch({ subject: "iam.directory.v1.token-config.changed", onGap: () => undefined }, (m) => {
      const { realmId, realmName } = fromBinary(TokenConfigChangedSchema, m.payload);
      seen.push({ realmId, realmName });
    });
    await roles.createRole({ realm, clientId: "", role: { name: "announced" } });
    for (let i = 0; i < 50 && seen.length < 1; i++) await new Promise((r) => setTimeout(r, 20));
    await sub.stop();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((e) => e.realmId === realmIdSeen && e.realmName === realm)).toBe(true);
  });

  it("answers a client's deletion the bus could not announce, and the relay announces it once the bus is back", async () => {
    await clients.createClient({ realm, client: { clientId: "retry-me" } });
    let fail = true;
    const announced: string[] = [];
    const publish = bus.publish.bind(bus);
    bus.publish = async (subject, payload, options) => {
      if (subject === "iam.directory.v1.client.updated" && fromBinary(ClientUpdatedSchema, payload).clientId === "retry-me") {
        if (fail) throw new Error("bus unavailable");
        // Gone by the time it is announced: a cache the event drops cannot refill with it.
        announced.push(await clients.getClient({ realm, clientId: "retry-me" }).then(() => "found", (err: ConnectError) => Code[err.code]!));
      }
      return publish(subject, payload, options);
    };
    try {
      // Committed, so answered (DESIGN 8): the announcement waits in the outbox, not the admin.
      await clients.deleteClient({ realm, clientId: "retry-me" });
      await expect(clients.getClient({ realm, clientId: "retry-me" })).rejects.toMatchObject({ code: Code.NotFound });
      fail = false;
      await waitUntil("the relay's announcement", () => announced.length > 0, 10_000);
    } finally {
      bus.publish = publish;
    }
    expect(announced).toEqual(["NotFound"]);
  });

  it("answers a realm's deletion the bus could not announce, and the relay announces it once the bus is back", async () => {
    await realms.createRealm({ realm: { name: "retry-realm" } });
    let fail = true;
    let announced = 0;
    const publish = bus.publish.bind(bus);
    bus.publish = async (subject, payload, options) => {
      if (subject === "iam.directory.v1.realm.deleted") {
        if (fail) throw new Error("bus unavailable");
        announced++;
      }
      return publish(subject, payload, options);
    };
    try {
      await realms.deleteRealm({ name: "retry-realm" });
      await expect(realms.getRealm({ name: "retry-realm" })).rejects.toMatchObject({ code: Code.NotFound });
      fail = false;
      await waitUntil("the relay's announcement", () => announced > 0, 10_000);
    } finally {
      bus.publish = publish;
    }
    expect(announced).toBe(1);
  });

  it("publishes user.deleted for a service-account user removed with its client or its client_credentials grant", async () => {
    const deleted: string[] = [];
    const sub = await bus.subscribe({ durable: "test-sa-user-deleted", subject: "iam.directory.v1.user.deleted" }, async (m) => {
      deleted.push(fromBinary(UserDeletedSchema, m.payload).userId);
    });
    const saOf = async (clientId: string) => (await clients.getServiceAccountUser({ realm, clientId })).user!.id;
    await clients.createClient({ realm, client: { clientId: "sa-gone", grantTypes: ["client_credentials"], grantTypesPresent: true } });
    await clients.createClient({ realm, client: { clientId: "sa-off", grantTypes: ["client_credentials", "password"], grantTypesPresent: true } });
    const gone = await saOf("sa-gone");
    const off = await saOf("sa-off");
    await clients.deleteClient({ realm, clientId: "sa-gone" });
    await clients.updateClient({ realm, clientId: "sa-off", update: { grantTypes: ["password"], grantTypesPresent: true } });
    for (let i = 0; i < 50 && deleted.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    await sub.stop();
    expect(deleted).toEqual([gone, off]);
  });

  it("drops a deleted realm's clients, roles, mappings and scopes", async () => {
    const name = "doomed";
    const created = (await realms.createRealm({ realm: { name } })).realm!;
    await clients.createClient({ realm: name, client: { clientId: "c1" } });
    await roles.createRole({ realm: name, clientId: "", role: { name: "r1" } });
    await realms.deleteRealm({ name });
    const counts = async () => {
      let n = 0;
      for (const c of ["clients", "roles", "client_scopes", "protocol_mappers", "scope_assignments"]) {
        n += await (await store.collection({ name: c })).count({ realmId: created.id });
      }
      return n;
    };
    for (let i = 0; i < 100 && (await counts()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await counts()).toBe(0);
  });
});
