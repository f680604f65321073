import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { WriteCounter } from "../../../kit/src/store/write-counted.js";
import { ClientRepository } from "../store/client-repository.js";
import { ClientScopeRepository } from "../store/client-scope-repository.js";
import { ScopeAssignmentRepository } from "../store/scope-assignment-repository.js";
import { RoleRepository } from "../store/role-repository.js";
import type { ClientRecord } from "./client.js";
import { CLIENT_TOKEN_CONFIG_MS, ClientTokenConfigs } from "./client-token-configs.js";

describe("ClientTokenConfigs", () => {
  let store: SqliteStore;
  let now = 0;
  let writes: WriteCounter;
  let clients: ClientRepository;
  let scopes: ClientScopeRepository;
  let assignments: ScopeAssignmentRepository;
  let configs: ClientTokenConfigs;
  const mapper = (id: string, scopeId: string, createdAt: number) => ({
    _id: id, realmId: "r1", scopeId, name: id, mapperType: "oidc-hardcoded-claim-mapper", protocol: "openid-connect",
    config: { "claim.name": id, "claim.value": "v" }, createdAt,
  });

  beforeEach(async () => {
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0 });
    now = 0;
    writes = new WriteCounter();
    clients = await ClientRepository.open(store, writes);
    scopes = await ClientScopeRepository.open(store, writes);
    assignments = await ScopeAssignmentRepository.open(store, writes);
    const roles = await RoleRepository.open(store, writes);
    configs = new ClientTokenConfigs(clients, scopes, assignments, roles, writes, () => now);
    await clients.insert({ _id: "c1", realmId: "r1", clientId: "app", createdAt: 1 } as unknown as ClientRecord);
    await roles.insert({ _id: "off", realmId: "r1", clientId: "", name: "offline_access", description: "", createdAt: 1 });
    for (const [id, name] of [["s1", "profile"], ["s2", "email"]] as const) {
      await scopes.insertScope({ _id: id, realmId: "r1", name, description: "", protocol: "openid-connect", createdAt: 1 });
    }
    await scopes.insertMapper(mapper("m2", "s2", 2));
    await scopes.insertMapper(mapper("m1", "s1", 1));
    await assignments.insert({ _id: "a1", realmId: "r1", clientId: "c1", scopeId: "s1", kind: "default" });
    await assignments.insert({ _id: "a2", realmId: "r1", clientId: "c1", scopeId: "s2", kind: "optional" });
  });
  afterEach(() => store.close());

  it("reads the client, its scopes by name with their kind, every mapper in creation order, and offline_access", async () => {
    const c = await configs.get("r1", "app");
    expect(c?.client._id).toBe("c1");
    expect(c?.scopes.map((s) => [s.scope.name, s.kind])).toEqual([["email", "optional"], ["profile", "default"]]);
    expect(c?.mappers.map((m) => m._id)).toEqual(["m1", "m2"]);
    expect(c?.offline?._id).toBe("off");
    expect(Object.isFrozen(c?.mappers[0]?.config)).toBe(true);
    expect(await configs.get("r1", "other")).toBeNull();
    expect(await configs.get("r2", "app")).toBeNull();
  });

  it("is reused until a write through the counted repositories, which shows at once", async () => {
    const first = await configs.get("r1", "app");
    expect(await configs.get("r1", "app")).toBe(first);
    await scopes.insertMapper(mapper("m3", "s1", 3));
    expect((await configs.get("r1", "app"))?.mappers.map((m) => m._id)).toEqual(["m1", "m2", "m3"]);
    await assignments.remove("r1", "c1", "s2", "optional");
    expect((await configs.get("r1", "app"))?.scopes.map((s) => s.scope.name)).toEqual(["profile"]);
    await clients.update("r1", "c1", { name: "App" } as Partial<ClientRecord>);
    expect((await configs.get("r1", "app"))?.client.name).toBe("App");
  });

  it("reads again after CLIENT_TOKEN_CONFIG_MS (a write through another process)", async () => {
    await configs.get("r1", "app");
    const raw = await store.collection<{ _id: string; name: string }>({ name: "client_scopes" });
    await raw.update({ _id: "s1" }, { $set: { name: "profile-2" } });
    now = CLIENT_TOKEN_CONFIG_MS - 1;
    expect((await configs.get("r1", "app"))?.scopes.map((s) => s.scope.name)).toContain("profile");
    now = CLIENT_TOKEN_CONFIG_MS;
    expect((await configs.get("r1", "app"))?.scopes.map((s) => s.scope.name)).toContain("profile-2");
  });

  it("never caches an unknown client", async () => {
    expect(await configs.get("r1", "late")).toBeNull();
    const raw = await store.collection<ClientRecord>({ name: "clients" });
    await raw.insert({ _id: "c2", realmId: "r1", clientId: "late", createdAt: 2 } as unknown as ClientRecord);
    expect((await configs.get("r1", "late"))?.client._id).toBe("c2");
  });
});
