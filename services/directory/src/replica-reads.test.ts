import { createClient, createRouterTransport, type Client } from "@connectrpc/connect";
import { RealmService } from "../../../gen/iam/directory/v1/realm_pb.js";
import { ClientService } from "../../../gen/iam/directory/v1/client_pb.js";
import { ClientScopeService, ScopeKind } from "../../../gen/iam/directory/v1/client_scope_pb.js";
import { ClaimsService } from "../../../gen/iam/directory/v1/claims_pb.js";
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

interface Replica {
  module: ServiceModule;
  bus: Bus;
  realms: Client<typeof RealmService>;
  clients: Client<typeof ClientService>;
  scopes: Client<typeof ClientScopeService>;
  claims: Client<typeof ClaimsService>;
}

/**
 * Two directory replicas on one store, each with its own bus: B never hears A's events, as a
 * replica that has not yet processed one. The token service and the gateway cache what B answers
 * to GetRealm, GetClientCredentialVerifier, GetClient, GetServiceAccountUser and ResolveClaims
 * with from_store, right after the event that dropped their entry: B must answer the store's
 * value, not its own stale cache (which stays in use for the directory's hot paths).
 */
describe("directory reads that other services cache, on a replica with stale caches", () => {
  const logger = createLogger("test", "silent");
  const realm = "replicas";
  let store: Store;
  let a: Replica;
  let b: Replica;
  // One master key, as every replica of a deployment has.
  const secrets = new SecretBox(generateMasterKey());

  async function replica(on: Store): Promise<Replica> {
    const bus = await openBus({ kind: "memory", path: ":memory:", logger });
    const transports = Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;
    const module = await buildDirectory(
      { store: on, bus, logger, metrics: createMetrics(), transports, secrets, clock: systemClock },
      loadDirectoryConfig({}),
    );
    await module.start();
    const t = createRouterTransport((r) => module.routes(r), { router: { interceptors: [serverInterceptor("directory", logger)] } });
    return {
      module, bus,
      realms: createClient(RealmService, t), clients: createClient(ClientService, t),
      scopes: createClient(ClientScopeService, t), claims: createClient(ClaimsService, t),
    };
  }

  beforeAll(async () => {
    store = await openStore({ kind: "sqlite", path: ":memory:", clock: systemClock });
    a = await replica(store);
    // Another Store object on the same database: the directory's caches are per Store object
    // (RealmRepository.open), so B's are its own, as in another process.
    b = await replica(new Proxy(store, {
      get: (target, key) => {
        const v: unknown = Reflect.get(target, key);
        return typeof v === "function" ? (v as (...args: unknown[]) => unknown).bind(target) : v;
      },
    }));
  });
  afterAll(async () => {
    for (const r of [a, b]) {
      await r.module.stop();
      await r.bus.close();
    }
    await store.close();
  });

  async function primeB(): Promise<string> {
    const { user } = await b.clients.getServiceAccountUser({ realm, clientId: "svc" });
    // The per-token resolution fills B's realm and token configuration caches.
    await b.claims.resolveClaims({ realm, userId: user!.id, clientId: "svc", scopes: [] });
    return user!.id;
  }

  test("a disabled realm and a new scope assignment are answered from the store", async () => {
    await a.realms.createRealm({ realm: { name: realm, displayName: "Before" } });
    await a.clients.createClient({ realm, client: { clientId: "svc", grantTypes: ["client_credentials"], grantTypesPresent: true } });
    const userId = await primeB();

    await a.realms.updateRealm({ name: realm, update: { enabled: false, displayName: "After" } });
    const extra = (await a.scopes.createClientScope({ realm, scope: { name: "extra" } })).scope!;
    await a.scopes.assignScope({ realm, clientId: "svc", kind: ScopeKind.DEFAULT, clientScopeId: extra.id });

    // The premise: B's own caches still hold the old realm and configuration (its hot paths).
    expect((await b.realms.getRealm({ name: realm, allowCached: true })).realm).toMatchObject({ enabled: true, displayName: "Before" });
    expect((await b.claims.resolveClaims({ realm, userId, clientId: "svc", scopes: [] })).grantedScopes).not.toContain("extra");

    // What callers cache is the store's value (one expectation, so a failure shows every answer).
    const { realm: r } = await b.realms.getRealm({ name: realm });
    expect({
      realm: { enabled: r!.enabled, displayName: r!.displayName },
      verifierScopes: (await b.clients.getClientCredentialVerifier({ realm, clientId: "svc" })).scopeNames.includes("extra"),
      claimsScopes: (await b.claims.resolveClaims({ realm, userId, clientId: "svc", scopes: [], fromStore: true })).grantedScopes.includes("extra"),
    }).toEqual({ realm: { enabled: false, displayName: "After" }, verifierScopes: true, claimsScopes: true });
  });

  test("a realm deleted and created again is the new one for GetClient, GetServiceAccountUser and the verifier", async () => {
    await primeB();
    await a.realms.deleteRealm({ name: realm });
    const { realm: created } = await a.realms.createRealm({ realm: { name: realm } });
    await a.clients.createClient({ realm, client: { clientId: "svc", grantTypes: ["client_credentials"], grantTypesPresent: true, redirectUris: ["https://new.example.test/cb"] } });
    const { user } = await a.clients.getServiceAccountUser({ realm, clientId: "svc" });

    expect((await b.realms.getRealm({ name: realm, allowCached: true })).realm!.id).not.toBe(created!.id);

    // Settled: each answer, or the error it failed with (the old realm's client may be gone).
    const settle = <T>(p: Promise<T>) => p.catch((e: unknown) => String(e));
    expect({
      realmId: (await b.realms.getRealm({ name: realm })).realm!.id,
      client: await settle(b.clients.getClient({ realm, clientId: "svc" }).then((x) => x.client!.redirectUris)),
      serviceAccount: await settle(b.clients.getServiceAccountUser({ realm, clientId: "svc" }).then((x) => x.user!.id)),
      verifier: await settle(b.clients.getClientCredentialVerifier({ realm, clientId: "svc" }).then((x) => x.client!.redirectUris)),
    }).toEqual({
      realmId: created!.id, client: ["https://new.example.test/cb"], serviceAccount: user!.id, verifier: ["https://new.example.test/cb"],
    });
  });
});
