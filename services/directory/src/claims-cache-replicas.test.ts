import { createClient, createRouterTransport, type Client } from "@connectrpc/connect";
import { RealmService } from "../../../gen/iam/directory/v1/realm_pb.js";
import { ClientService } from "../../../gen/iam/directory/v1/client_pb.js";
import { UserService } from "../../../gen/iam/directory/v1/user_pb.js";
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
import { CLAIMS_SUBJECT_CHANGED } from "./events/claims-subject-events.js";

interface Replica {
  module: ServiceModule;
  bus: Bus;
  realms: Client<typeof RealmService>;
  clients: Client<typeof ClientService>;
  users: Client<typeof UserService>;
  claims: Client<typeof ClaimsService>;
}

/**
 * Two directory replicas on one store, as in a cluster, each with its own in-memory bus (one
 * process cannot subscribe a durable twice); the test forwards what A's bus carries on the
 * announcement's subject to B's, as NATS delivers it to every replica's watch. B reuses a resolution of a
 * user's claims (ResolvedClaimsCache) until A announces a write to that user's data
 * (claims-subject-events.ts), well inside the cache's 5 s bound. A sole process announces nothing,
 * so the same write through a replica that believes it is alone leaves B's entry in place: the
 * announcement, not the bound, is what B heard.
 */
describe("resolved claims cached on one directory replica, written through another", () => {
  const logger = createLogger("test", "silent");
  const secrets = new SecretBox(generateMasterKey());
  let store: Store;
  const started: Replica[] = [];

  async function replica(soleProcess: boolean): Promise<Replica> {
    const transports = Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;
    // Its own Store object on the same database: the directory's caches are per Store object.
    const own = new Proxy(store, {
      get: (target, key) => {
        const v: unknown = Reflect.get(target, key);
        return typeof v === "function" ? (v as (...args: unknown[]) => unknown).bind(target) : v;
      },
    });
    const bus = await openBus({ kind: "memory", path: ":memory:", logger });
    const module = await buildDirectory({ store: own, bus, logger, metrics: createMetrics(), transports, secrets, clock: systemClock, soleProcess }, loadDirectoryConfig({}));
    await module.start();
    const t = createRouterTransport((r) => module.routes(r), { router: { interceptors: [serverInterceptor("directory", logger)] } });
    const r: Replica = { module, bus, realms: createClient(RealmService, t), clients: createClient(ClientService, t), users: createClient(UserService, t), claims: createClient(ClaimsService, t) };
    started.push(r);
    return r;
  }

  /** What `from` carries on the announcement's subject reaches `to`, as NATS fans it out. */
  async function forward(from: Replica, to: Replica): Promise<void> {
    await from.bus.watch({ subject: CLAIMS_SUBJECT_CHANGED, onGap: () => {} }, (m) => void to.bus.publish(m.subject, m.payload));
  }

  beforeAll(async () => {
    store = await openStore({ kind: "sqlite", path: ":memory:", clock: systemClock });
  });
  afterAll(async () => {
    for (const r of started.reverse()) {
      await r.module.stop();
      await r.bus.close();
    }
    await store.close();
  });

  async function givenName(r: Replica, realm: string, userId: string): Promise<unknown> {
    const res = await r.claims.resolveClaims({ realm, userId, clientId: "app", scopes: ["openid", "profile"] });
    return (JSON.parse(res.userinfoClaimsJson) as Record<string, unknown>).given_name;
  }

  async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return true;
      await new Promise((r) => setTimeout(r, 20));
    }
    return check();
  }

  test("B reads the change once A's announcement arrives, and not before without one", async () => {
    const a = await replica(false);
    const b = await replica(false);
    const alone = await replica(true);
    await forward(a, b);
    await forward(alone, b);
    const realm = "claims-replicas";
    await a.realms.createRealm({ realm: { name: realm } });
    await a.clients.createClient({ realm, client: { clientId: "app", grantTypes: ["password"], grantTypesPresent: true } });
    const userId = (await a.users.createUser({ realm, user: { username: "kai", firstName: "Before" } })).user!.id;

    // A's announcements of the set-up reach B first, so the entry B fills next outlives them.
    await new Promise((r) => setTimeout(r, 300));
    expect(await givenName(b, realm, userId)).toBe("Before");
    // Through a replica that announces nothing: B's entry stands (well under the 5 s bound).
    await alone.users.updateUser({ realm, userId, update: { firstName: "Unheard" } });
    await new Promise((r) => setTimeout(r, 300));
    expect(await givenName(b, realm, userId)).toBe("Before");
    // Through A: B drops its entry when the announcement arrives.
    await a.users.updateUser({ realm, userId, update: { firstName: "After" } });
    expect(await until(async () => (await givenName(b, realm, userId)) === "After", 2_000)).toBe(true);
  });
});
