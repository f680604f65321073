import { fromBinary } from "@bufbuild/protobuf";
import { AdminEventSchema } from "../../../gen/iam/audit/v1/audit_pb.js";
import { recorder, waitUntil } from "../../kit/src/bus/bus-test-kit.js";
import { createLogger } from "../../kit/src/logger.js";
import { createMetrics } from "../../kit/src/metrics.js";
import { SecretBox, generateMasterKey } from "../../kit/src/crypto/secret-box.js";
import { SERVICE_NAMES, type ServiceModule, type ServiceName } from "../../kit/src/module.js";
import { LazyTransport } from "../../kit/src/rpc/lazy-transport.js";
import type { Bus, BusMessage } from "../../kit/src/bus/port.js";
import { buildSaml } from "./module.js";
import { loadSamlConfig } from "./config.js";
import { PUBLIC_URL, startHarness, type Harness } from "./sso/sso-test-harness.js";

const ADMIN_EVENT = "iam.saml.v1.admin-event.recorded";

/**
 * Service-provider writes a crash interrupted (kit events/audited-write.ts): the first process
 * dies at its admin event's publish, which never returns; the next is a second saml module on the
 * same store, the store's only process, whose start runs the relay.
 */
describe("saml admin writes a crash interrupted", () => {
  let h: Harness;
  let realPublish: Bus["publish"];
  let next: ServiceModule | undefined;

  beforeEach(async () => {
    h = await startHarness();
    realPublish = h.bus.publish.bind(h.bus);
    await h.realms.createRealm({ realm: { name: "acme", adminEventsEnabled: true } });
  });
  afterEach(async () => {
    h.bus.publish = realPublish;
    await next?.stop();
    next = undefined;
    await h.close();
  });

  it("registration, update and deletion of service providers and a key rotation: the next process records each event the requests built, none for a write that never happened", async () => {
    const kept = (await h.sps.registerServiceProvider({ realm: "acme", serviceProvider: { entityId: "urn:sp:kept", name: "Kept", acsUrl: "https://kept.example.test/acs" } })).serviceProvider!;
    const gone = (await h.sps.registerServiceProvider({ realm: "acme", serviceProvider: { entityId: "urn:sp:gone", name: "Gone", acsUrl: "https://gone.example.test/acs" } })).serviceProvider!;
    await h.sps.registerServiceProvider({ realm: "acme", serviceProvider: { entityId: "urn:sp:other", name: "Other", acsUrl: "https://other.example.test/acs" } });
    expect((await h.idp.listSigningKeys({ realm: "acme" })).keys).toHaveLength(1); // made on first use
    const delivered = recorder();
    await h.bus.subscribe({ durable: "test-saml-admin", subject: ADMIN_EVENT }, delivered.handler);
    await waitUntil("the set-up's events", () => delivered.got.length === 3);

    h.bus.publish = async (subject, payload, options) => {
      if (subject === ADMIN_EVENT) return new Promise<BusMessage>(() => undefined);
      return realPublish(subject, payload, options);
    };
    const calls: Array<Promise<unknown>> = [
      h.sps.updateServiceProvider({ realm: "acme", id: kept.id, serviceProvider: { acsUrl: "https://kept.example.test/acs2", sloUrl: "https://kept.example.test/slo" } }),
      h.sps.deleteServiceProvider({ realm: "acme", id: gone.id }),
      // Refused (the entity ID is taken): nothing to record.
      h.sps.updateServiceProvider({ realm: "acme", id: kept.id, serviceProvider: { entityId: "urn:sp:other" } }),
      h.sps.registerServiceProvider({ realm: "acme", serviceProvider: { entityId: "urn:sp:new", name: "New", acsUrl: "https://new.example.test/acs" } }),
      h.idp.rotateSigningKey({ realm: "acme" }),
    ];
    for (const c of calls) void c.catch(() => undefined);
    const outbox = await h.store.collection({ name: "outbox" });
    await waitUntil("the writes", async () => (await outbox.count({})) === 4
      && (await h.idp.listSigningKeys({ realm: "acme" })).keys.length === 2
      && (await h.sps.listServiceProviders({ realm: "acme" })).serviceProviders.map((s) => s.entityId).sort().join() === "urn:sp:kept,urn:sp:new,urn:sp:other");

    await h.stopSaml();
    h.bus.publish = realPublish;
    const transports = Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;
    transports.directory.bind(h.directoryTransport);
    next = await buildSaml({
      store: h.store, bus: h.bus, logger: createLogger("test", "silent"), metrics: createMetrics(), transports,
      secrets: new SecretBox(generateMasterKey()), clock: h.clock, soleProcess: true,
    }, loadSamlConfig({ TESSERA_PUBLIC_URL: PUBLIC_URL }));
    await next.start();
    await waitUntil("the admin events", () => delivered.got.length === 7);
    const events = delivered.got.slice(3).map((m) => fromBinary(AdminEventSchema, m.payload));
    const created = (await h.sps.listServiceProviders({ realm: "acme" })).serviceProviders.find((sp) => sp.entityId === "urn:sp:new")!;
    expect(events.map((e) => `${e.operationType} ${e.resourcePath}`).sort()).toEqual([
      "ACTION realms/acme/saml-keys/rotate",
      `CREATE realms/acme/saml-service-providers/${created.id}`,
      `DELETE realms/acme/saml-service-providers/${gone.id}`,
      `UPDATE realms/acme/saml-service-providers/${kept.id}`,
    ]);
    const update = events.find((e) => e.operationType === "UPDATE")!;
    expect(JSON.parse(update.representation)).toMatchObject({ entityId: "urn:sp:kept", acsUrl: "https://kept.example.test/acs2", sloUrl: "https://kept.example.test/slo" });
    const [active] = (await h.idp.listSigningKeys({ realm: "acme" })).keys;
    expect(JSON.parse(events.find((e) => e.operationType === "ACTION")!.representation)).toMatchObject({ id: active!.id, status: "ACTIVE" });
    expect(await outbox.count({})).toBe(0);
  });
});
