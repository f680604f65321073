import { createClient, createRouterTransport, type Transport } from "@connectrpc/connect";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { pino } from "pino";
import { AuditService } from "../../../gen/iam/audit/v1/audit_pb.js";
import { openStore } from "../../kit/src/store/open-store.js";
import { openBus } from "../../kit/src/bus/open-bus.js";
import { createMetrics } from "../../kit/src/metrics.js";
import { SecretBox, generateMasterKey } from "../../kit/src/crypto/secret-box.js";
import { publishLoginEvent } from "../../kit/src/events/login-events.js";
import { serverInterceptor } from "../../kit/src/rpc/server-interceptor.js";
import { SERVICE_NAMES, type ServiceModule, type ServiceName } from "../../kit/src/module.js";
import type { Bus } from "../../kit/src/bus/port.js";
import type { Store } from "../../kit/src/store/port.js";
import { buildAudit } from "./module.js";
import { loadAuditConfig } from "./config.js";

// Login events through the real audit module: published on the bus, stored once, queried,
// expired after the realm's retention, cleared. (Publishers arrive with the OIDC and security issues.)
describe("audit login events", () => {
  let now = Date.parse("2026-11-22T10:00:00Z");
  const clock = { now: () => now };
  let store: Store;
  let bus: Bus;
  let audit: ServiceModule;
  let client: ReturnType<typeof createClient<typeof AuditService>>;

  beforeAll(async () => {
    store = await openStore({ kind: "sqlite", path: ":memory:", clock });
    bus = await openBus({ kind: "memory", path: ":memory:" });
    const logger = pino({ level: "silent" });
    const transports = Object.fromEntries(SERVICE_NAMES.map((n) => [n, {} as Transport])) as Record<ServiceName, Transport>;
    audit = await buildAudit({ store, bus, logger, metrics: createMetrics(), transports, secrets: new SecretBox(generateMasterKey()), clock }, { common: {} as never, webhooks: loadAuditConfig({}).webhooks });
    await audit.start();
    client = createClient(AuditService, createRouterTransport((r) => audit.routes(r), {
      router: { interceptors: [serverInterceptor("audit", logger)] },
    }));
  });
  afterAll(async () => {
    await audit.stop();
    await bus.close();
    await store.close();
  });

  const waitFor = async (realm: string, n: number) => {
    for (let i = 0; i < 100; i++) {
      const res = await client.queryLoginEvents({ realm });
      if (res.events.length >= n) return res.events;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`expected ${n} events`);
  };

  it("stores published events once and filters them", async () => {
    await publishLoginEvent(bus, "token", { realm: "r1", type: "LOGIN", clientId: "app", userId: "u1", sessionId: "s1", retentionSeconds: 3600 }, now);
    now += 1000;
    await publishLoginEvent(bus, "token", { realm: "r1", type: "LOGIN_ERROR", clientId: "app", userId: "u2", error: "invalid_user_credentials", details: { username: "bob" }, retentionSeconds: 3600 }, now);
    now += 1000;
    await publishLoginEvent(bus, "token", { realm: "r2", type: "LOGIN", clientId: "other", userId: "u3", retentionSeconds: 3600 }, now);
    const events = await waitFor("r1", 2);
    expect(events.map((e) => e.type)).toEqual(["LOGIN_ERROR", "LOGIN"]);
    expect(events[0]).toMatchObject({ realm: "r1", clientId: "app", userId: "u2", error: "invalid_user_credentials", details: { username: "bob" } });
    expect((await client.queryLoginEvents({ realm: "r1", type: "LOGIN" })).events.map((e) => e.userId)).toEqual(["u1"]);
    expect((await client.queryLoginEvents({ realm: "r1", userId: "u2" })).events).toHaveLength(1);
    expect((await client.queryLoginEvents({ realm: "r1", clientId: "other" })).events).toHaveLength(0);
    expect((await client.queryLoginEvents({ realm: "r1", first: 1, max: 1 })).events.map((e) => e.type)).toEqual(["LOGIN"]);
    const from = Date.parse("2026-11-22T10:00:00.500Z");
    expect((await client.queryLoginEvents({ realm: "r1", dateFrom: timestampFromMs(from) })).events.map((e) => e.type)).toEqual(["LOGIN_ERROR"]);
    await expect(client.queryLoginEvents({ realm: "r1", first: -1 })).rejects.toThrow("first must be 0 or more");
  });

  it("hides events past the realm's retention", async () => {
    await publishLoginEvent(bus, "token", { realm: "r3", type: "LOGIN", retentionSeconds: 60 }, now);
    await waitFor("r3", 1);
    now += 61_000;
    expect((await client.queryLoginEvents({ realm: "r3" })).events).toHaveLength(0);
  });

  it("clears one realm's events only", async () => {
    await waitFor("r2", 1);
    const res = await client.clearLoginEvents({ realm: "r1" });
    expect(res.deleted).toBe(2);
    expect((await client.queryLoginEvents({ realm: "r1" })).events).toHaveLength(0);
    expect((await client.queryLoginEvents({ realm: "r2" })).events).toHaveLength(1);
  });
});
