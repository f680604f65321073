import { createClient, createRouterTransport, type Transport } from "@connectrpc/connect";
import { fromBinary } from "@bufbuild/protobuf";
import { AdminEventSchema } from "../../../gen/iam/audit/v1/audit_pb.js";
import { RealmService } from "../../../gen/iam/directory/v1/realm_pb.js";
import { IdentityProviderService } from "../../../gen/iam/broker/v1/identity_provider_pb.js";
import { recorder, waitUntil } from "../../kit/src/bus/bus-test-kit.js";
import { openStore } from "../../kit/src/store/open-store.js";
import { openBus } from "../../kit/src/bus/open-bus.js";
import { createLogger } from "../../kit/src/logger.js";
import { createMetrics } from "../../kit/src/metrics.js";
import { SecretBox, generateMasterKey } from "../../kit/src/crypto/secret-box.js";
import { LazyTransport } from "../../kit/src/rpc/lazy-transport.js";
import { serverInterceptor } from "../../kit/src/rpc/server-interceptor.js";
import { SERVICE_NAMES, type ServiceModule, type ServiceName } from "../../kit/src/module.js";
import type { Bus, BusMessage } from "../../kit/src/bus/port.js";
import type { Store } from "../../kit/src/store/port.js";
import { buildDirectory } from "../../directory/src/module.js";
import { loadDirectoryConfig } from "../../directory/src/config.js";
import { buildBroker } from "./module.js";
import { loadBrokerConfig } from "./config.js";

const ADMIN_EVENT = "iam.broker.v1.admin-event.recorded";
const clock = { now: () => Date.now() };
const logger = createLogger("test", "silent");

/**
 * Identity provider writes a crash interrupted (kit events/audited-write.ts): the first broker
 * dies at its admin event's publish, which never returns; the next is a second broker module on
 * the same store, the store's only process, whose start runs the relay.
 */
describe("broker admin writes a crash interrupted", () => {
  let store: Store;
  let bus: Bus;
  let directory: ServiceModule;
  let first: ServiceModule | undefined;
  let next: ServiceModule | undefined;
  let dt: Transport;
  const transports = () => Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;

  async function broker(): Promise<{ module: ServiceModule; transport: Transport }> {
    const t = transports();
    t.directory.bind(dt);
    const module = await buildBroker({ store, bus, logger, metrics: createMetrics(), transports: t, secrets: new SecretBox(generateMasterKey()), clock, soleProcess: true }, loadBrokerConfig({}));
    return { module, transport: createRouterTransport((r) => module.routes(r), { router: { interceptors: [serverInterceptor("broker", logger)] } }) };
  }

  beforeEach(async () => {
    store = await openStore({ kind: "sqlite", path: ":memory:", clock });
    bus = await openBus({ kind: "memory", path: ":memory:", logger });
    const t = transports();
    directory = await buildDirectory({ store, bus, logger, metrics: createMetrics(), transports: t, secrets: new SecretBox(generateMasterKey()), clock }, loadDirectoryConfig({}));
    dt = createRouterTransport((r) => directory.routes(r), { router: { interceptors: [serverInterceptor("directory", logger)] } });
    t.directory.bind(dt);
    await directory.start();
    await createClient(RealmService, dt).createRealm({ realm: { name: "acme", adminEventsEnabled: true } });
  });
  afterEach(async () => {
    await first?.stop();
    await next?.stop();
    first = next = undefined;
    await directory.stop();
    await bus.close();
    await store.close();
  });

  it("create, update and delete: the next process records each event the requests built, none for a refused write", async () => {
    const b1 = await broker();
    first = b1.module;
    await first.start();
    const idps = createClient(IdentityProviderService, b1.transport);
    const base = { providerType: "oidc", clientId: "c", clientSecret: "s", authorizationUrl: "https://a.example/auth", tokenUrl: "https://a.example/token", issuer: "https://a.example" };
    await idps.createIdentityProvider({ realm: "acme", provider: { ...base, alias: "kept" } });
    await idps.createIdentityProvider({ realm: "acme", provider: { ...base, alias: "gone" } });
    const delivered = recorder();
    await bus.subscribe({ durable: "test-broker-admin", subject: ADMIN_EVENT }, delivered.handler);
    await waitUntil("the set-up's events", () => delivered.got.length === 2);

    const realPublish = bus.publish.bind(bus);
    bus.publish = async (subject, payload, options) => {
      if (subject === ADMIN_EVENT) return new Promise<BusMessage>(() => undefined);
      return realPublish(subject, payload, options);
    };
    const calls: Array<Promise<unknown>> = [
      idps.updateIdentityProvider({ realm: "acme", alias: "kept", provider: { displayName: "Kept SSO" } }),
      idps.deleteIdentityProvider({ realm: "acme", alias: "gone" }),
      // Refused (the alias is taken): nothing to record.
      idps.createIdentityProvider({ realm: "acme", provider: { ...base, alias: "kept" } }),
      idps.createIdentityProvider({ realm: "acme", provider: { ...base, alias: "new" } }),
    ];
    for (const c of calls) void c.catch(() => undefined);
    const outbox = await store.collection({ name: "outbox" });
    await waitUntil("the writes", async () => (await outbox.count({})) === 3
      && (await idps.listIdentityProviders({ realm: "acme" })).providers.map((p) => `${p.alias}:${p.displayName}`).sort().join() === "kept:Kept SSO,new:new");

    await first.stop();
    first = undefined;
    bus.publish = realPublish;
    next = (await broker()).module;
    await next.start();
    await waitUntil("the admin events", () => delivered.got.length === 5);
    const events = delivered.got.slice(2).map((m) => fromBinary(AdminEventSchema, m.payload));
    expect(events.map((e) => `${e.operationType} ${e.resourcePath}`).sort()).toEqual([
      "CREATE realms/acme/identity-providers/new",
      "DELETE realms/acme/identity-providers/gone",
      "UPDATE realms/acme/identity-providers/kept",
    ]);
    expect(JSON.parse(events.find((e) => e.operationType === "UPDATE")!.representation)).toMatchObject({ alias: "kept", displayName: "Kept SSO", clientSecretSet: true });
    expect(await outbox.count({})).toBe(0);
  });
});
