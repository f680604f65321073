import { pino, type Logger } from "pino";
import { createMetrics, type Metrics } from "../metrics.js";
import { PluginCalls } from "./plugin-calls.js";
import { PluginRegistry, STEP_FAILED } from "./plugin-registry.js";
import type { TesseraPlugin } from "./plugin-api.js";

/** The log lines PluginCalls writes, parsed. */
function capture(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger: Logger = pino({ level: "info" }, { write: (s: string) => { lines.push(JSON.parse(s) as Record<string, unknown>); } });
  return { logger, lines };
}

async function count(metrics: Metrics, outcome: string, plugin = "p"): Promise<number> {
  const m = await metrics.registry.getSingleMetric("tessera_plugin_calls_total")?.get();
  return m?.values.find((v) => v.labels.outcome === outcome && v.labels.plugin === plugin)?.value ?? 0;
}

describe("plugin calls: timeout and isolation", () => {
  it("returns a value, and counts the call ok", async () => {
    const metrics = createMetrics();
    const calls = new PluginCalls(1000, pino({ level: "silent" }), metrics);
    expect(await calls.run("p", "protocol-mapper", async () => 42)).toEqual({ ok: true, value: 42 });
    expect(await count(metrics, "ok")).toBe(1);
  });

  it("isolates a throwing, a rejecting and a hanging call: each fails alone, logged without its input and counted", async () => {
    const metrics = createMetrics();
    const { logger, lines } = capture();
    const calls = new PluginCalls(50, logger, metrics);
    const secretInput = { password: "hunter2" };
    expect(await calls.run("p", "event-listener", () => { throw new Error(`boom ${secretInput.password.length}`); })).toEqual({ ok: false, outcome: "error" });
    expect(await calls.run("p", "event-listener", () => Promise.reject(new TypeError("bad")))).toEqual({ ok: false, outcome: "error" });
    const started = Date.now();
    let lateReject: (e: Error) => void = () => undefined;
    expect(await calls.run("p", "protocol-mapper", () => new Promise((_r, reject) => { lateReject = reject; }))).toEqual({ ok: false, outcome: "timeout" });
    expect(Date.now() - started).toBeLessThan(1000);
    // A rejection after the timeout is swallowed: no unhandled rejection ends the process.
    lateReject(new Error("too late"));
    await new Promise((r) => setTimeout(r, 10));
    expect([await count(metrics, "error"), await count(metrics, "timeout"), await count(metrics, "ok")]).toEqual([2, 1, 0]);
    expect(lines.map((l) => [l.plugin, l.kind, l.outcome, l.error, l.msg])).toEqual([
      ["p", "event-listener", "error", "Error: boom 7", "plugin call failed"],
      ["p", "event-listener", "error", "TypeError: bad", "plugin call failed"],
      ["p", "protocol-mapper", "timeout", undefined, "plugin call timed out; its result is ignored"],
    ]);
    expect(JSON.stringify(lines)).not.toContain("hunter2");
  });

  it("fails a call whose result the caller's check refuses", async () => {
    const metrics = createMetrics();
    const calls = new PluginCalls(1000, pino({ level: "silent" }), metrics);
    expect(await calls.run("p", "protocol-mapper", () => 1n, () => "not JSON")).toEqual({ ok: false, outcome: "error" });
    expect(await count(metrics, "error")).toBe(1);
  });
});

const base = { version: "1.0.0" };
const registry = (plugins: TesseraPlugin[], timeoutMs = 50) =>
  new PluginRegistry(plugins.map((plugin) => ({ plugin, source: plugin.id })), new PluginCalls(timeoutMs, pino({ level: "silent" }), createMetrics()));

describe("plugin registry", () => {
  const input = {
    realm: "r", client: { clientId: "app" }, session: { id: "s-1", authTime: 1_767_225_600, requestedScopes: ["openid"], grantedScopes: ["profile"] }, config: {},
    user: { id: "u", username: "ann", email: "", firstName: "", lastName: "", emailVerified: false, attributes: { d: ["x"] }, realmRoles: [], clientRoles: {}, groups: [] },
  };

  it("runs a mapper on a copy of its input, and leaves out what fails or is not JSON", async () => {
    const reg = registry([
      { ...base, id: "ok", kinds: ["protocol-mapper"], protocolMapper: { defaultClaimName: "c", map: (i) => { i.user.attributes.d = ["changed"]; return { v: 1 }; } } },
      { ...base, id: "throws", kinds: ["protocol-mapper"], protocolMapper: { defaultClaimName: "c", map: () => { throw new Error("x"); } } },
      { ...base, id: "hangs", kinds: ["protocol-mapper"], protocolMapper: { defaultClaimName: "c", map: () => new Promise(() => undefined) } },
      { ...base, id: "bigint", kinds: ["protocol-mapper"], protocolMapper: { defaultClaimName: "c", map: () => 1n } },
    ]);
    expect(await reg.runMapper("plugin:ok", input)).toEqual({ v: 1 });
    expect(input.user.attributes.d).toEqual(["x"]);
    expect(await Promise.all(["plugin:throws", "plugin:hangs", "plugin:bigint", "plugin:none", "oidc-sub-mapper"].map((t) => reg.runMapper(t, input))))
      .toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it("runs an authenticator step, and fails the step for a throw, a hang or a malformed answer", async () => {
    const reg = registry([
      { ...base, id: "ask", kinds: ["authenticator"], authenticator: { displayName: "Ask", authenticate: ({ form }) => (form.a === "1" ? { outcome: "success" } : { outcome: "challenge", page: { title: "A?", fields: [{ name: "a", label: "A", type: "text" }] } }) } },
      { ...base, id: "throws", kinds: ["authenticator"], authenticator: { displayName: "T", authenticate: () => { throw new Error("x"); } } },
      { ...base, id: "hangs", kinds: ["authenticator"], authenticator: { displayName: "H", authenticate: () => new Promise(() => undefined) } },
      { ...base, id: "odd", kinds: ["authenticator"], authenticator: { displayName: "O", authenticate: () => ({ outcome: "maybe" }) as never } },
    ]);
    const step = { realm: { name: "r" }, client: { clientId: "app" }, user: { id: "u", username: "ann", email: "", attributes: {} }, form: {}, config: {} };
    expect(await reg.runAuthenticator("plugin:ask", step)).toEqual({ outcome: "challenge", page: { title: "A?", fields: [{ name: "a", label: "A", type: "text" }] } });
    expect(await reg.runAuthenticator("plugin:ask", { ...step, form: { a: "1" } })).toEqual({ outcome: "success" });
    for (const t of ["plugin:throws", "plugin:hangs", "plugin:odd", "plugin:missing"]) expect(await reg.runAuthenticator(t, step)).toEqual(STEP_FAILED);
    expect(reg.authenticatorTypes()).toEqual(["plugin:ask", "plugin:throws", "plugin:hangs", "plugin:odd"]);
    expect(registry([{ ...base, id: "q", kinds: ["authenticator"], authenticator: {
      displayName: "Q", credential: true, configKeys: ["question", "hint"], requiredConfigKeys: ["question"], authenticate: () => ({ outcome: "success" }),
    } }]).stepTypes()).toEqual([{ type: "plugin:q", identifies: false, credential: true, condition: false, configKeys: ["question", "hint"], required: ["question"] }]);
  });
});
