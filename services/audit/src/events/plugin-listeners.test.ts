import { pino } from "pino";
import { createMetrics } from "../../../kit/src/metrics.js";
import { PluginCalls } from "../../../kit/src/plugins/plugin-calls.js";
import { PluginRegistry } from "../../../kit/src/plugins/plugin-registry.js";
import type { LoginEventView, TesseraPlugin } from "../../../kit/src/plugins/plugin-api.js";
import type { AdminEventRecord } from "../store/admin-event-repository.js";
import type { LoginEventRecord } from "../store/login-event-repository.js";
import { MAX_QUEUED_EVENTS, PluginEventFanout } from "./plugin-listeners.js";

const login = (id: string): LoginEventRecord => ({
  _id: id, time: 1, realm: "r", type: "LOGIN", clientId: "app", userId: "u", sessionId: "s", ipAddress: "127.0.0.1", error: "", details: { username: "ann" }, expiresAt: 2,
});
const admin: AdminEventRecord = {
  _id: "a1", time: 1, realm: "r", operationType: "CREATE", resourceType: "USER", resourcePath: "users/u", authType: "api-key",
  authAdminId: "", authUsername: "", authIpAddress: "", representation: "{}", requestId: "req",
};
const listener = (id: string, eventListener: TesseraPlugin["eventListener"]): TesseraPlugin => ({ id, version: "1.0.0", kinds: ["event-listener"], eventListener });

function fanout(plugins: TesseraPlugin[], timeoutMs = 50) {
  const metrics = createMetrics();
  const registry = new PluginRegistry(plugins.map((plugin) => ({ plugin, source: plugin.id })), new PluginCalls(timeoutMs, pino({ level: "silent" }), metrics));
  return { fanout: new PluginEventFanout(registry, pino({ level: "silent" }), metrics), metrics };
}

describe("plugin event fanout", () => {
  it("hands each listener a copy of each event, in order, past a throwing and a hanging listener", async () => {
    const seen: LoginEventView[] = [];
    const admins: string[] = [];
    const { fanout: f, metrics } = fanout([
      listener("throws", { onLoginEvent() { throw new Error("x"); } }),
      listener("hangs", { onLoginEvent: () => new Promise(() => undefined) }),
      listener("keeps", {
        async onLoginEvent(e) { await new Promise((r) => setTimeout(r, 5)); e.details.username = "changed"; seen.push(e); },
        onAdminEvent(e) { admins.push(`${e.operationType} ${e.resourcePath} ${e.authDetails.type}`); },
      }),
    ]);
    const record = login("e1");
    f.login(record);
    f.login(login("e2"));
    f.admin(admin);
    await f.idle();
    expect(seen.map((e) => e.id)).toEqual(["e1", "e2"]);
    expect(seen[0]).toEqual({ id: "e1", time: 1, realm: "r", type: "LOGIN", clientId: "app", userId: "u", sessionId: "s", ipAddress: "127.0.0.1", error: "", details: { username: "changed" } });
    expect(record.details.username).toBe("ann");
    expect(admins).toEqual(["CREATE users/u api-key"]);
    const calls = await metrics.registry.getSingleMetric("tessera_plugin_calls_total")!.get();
    const value = (plugin: string, outcome: string) => calls.values.find((v) => v.labels.plugin === plugin && v.labels.outcome === outcome)?.value;
    expect([value("throws", "error"), value("hangs", "timeout"), value("keeps", "ok")]).toEqual([2, 2, 3]);
  });

  it("drops events beyond a full queue and counts them, never holding more", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => { release = r; });
    let handled = 0;
    const { fanout: f, metrics } = fanout([listener("slow", { async onLoginEvent() { await gate; handled++; } })], 60_000);
    for (let i = 0; i < MAX_QUEUED_EVENTS + 5; i++) f.login(login(`e${i}`));
    release();
    await f.idle();
    expect(handled).toBe(MAX_QUEUED_EVENTS);
    const dropped = await metrics.registry.getSingleMetric("tessera_plugin_events_dropped_total")!.get();
    expect(dropped.values).toEqual([{ labels: { plugin: "slow" }, value: 5 }]);
  });
});
