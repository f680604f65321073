import { adminApi, http, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { startNode, waitForHttp } from "./support/process-runner.js";
import { freePort } from "./support/free-port.js";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Operational endpoints (spec 4.20) in every run mode.
describe.each(targets())("operations ($mode)", (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await target.start("operations");
  }, 90_000);
  afterAll(async () => server?.stop());

  it("answers liveness", async () => {
    const res = await http("GET", `${server.url}/health`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("answers readiness with every service's store and bus, and heap use", async () => {
    const res = await http("GET", `${server.url}/health/ready`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
    expect(Object.keys(res.body.services).sort()).toEqual(["audit", "broker", "directory", "federation", "saml", "token"]);
    for (const [name, s] of Object.entries<any>(res.body.services)) {
      expect(s).toMatchObject({ service: name, ready: true, store: { up: true, detail: "ok" }, bus: { up: true, detail: "ok" } });
      expect(s.heapUsedRatio).toBeGreaterThan(0);
      expect(s.heapUsedRatio).toBeLessThan(1);
    }
    expect(res.body.gateway.heapUsedBytes).toBeGreaterThan(0);
  });

  it("serves Prometheus metrics with request counts, durations, connections and service metrics", async () => {
    await http("GET", `${server.url}/health`);
    await adminApi(server.url, server.apiKey).get("/admin/realms");
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/health",status="200"\} \d+/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{.*route="\/admin\/realms".*\} \d+/m);
    expect(text).toMatch(/^http_active_connections \d+/m);
    if (server.mode === "embedded") {
      // In cluster mode each service exposes its own /metrics on its port.
      expect(text).toMatch(/^tessera_rpc_duration_seconds_count\{service="directory",method="ListRealms",outcome="ok"\} \d+/m);
    }
  });

  it("echoes a sane X-Request-Id and makes one up otherwise", async () => {
    const mine = await http("GET", `${server.url}/health`, { headers: { "X-Request-Id": "req-abc-123" } });
    expect(mine.headers.get("x-request-id")).toBe("req-abc-123");
    const evil = await http("GET", `${server.url}/health`, { headers: { "X-Request-Id": "bad id\twith spaces" } });
    expect(evil.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("embedded process lifecycle", () => {
  it("drains in-flight requests on SIGTERM, exits 0, and keeps every acknowledged write", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "tessera-sigterm-"));
    const server = await startEmbeddedServer("sigterm", { TESSERA_DATA_DIR: dataDir });
    const api = adminApi(server.url, server.apiKey);
    const names = Array.from({ length: 20 }, (_, i) => uniqueName(`drain${i}`));
    const inflight = names.map((name) => api.post("/admin/realms", { name }).catch(() => null));
    await new Promise((r) => setTimeout(r, 5));
    const code = await server.process!.stop("SIGTERM");
    expect(code).toBe(0);
    const results = await Promise.all(inflight);
    const acknowledged = names.filter((_, i) => results[i]?.status === 201);
    // Every request either completed or was never accepted: none died half-way with a 5xx.
    for (const r of results) if (r) expect(r.status).toBe(201);

    // Same data dir, same key: every acknowledged realm is there after the restart.
    const again = await startEmbeddedServer("sigterm-2", { TESSERA_DATA_DIR: dataDir, TESSERA_ADMIN_API_KEY: server.apiKey });
    try {
      const list = await adminApi(again.url, again.apiKey).get("/admin/realms");
      const present = new Set(list.body.map((r: { name: string }) => r.name));
      for (const name of acknowledged) expect(present.has(name)).toBe(true);
    } finally {
      await again.stop();
    }
  }, 60_000);

  it("prints the URL and a generated API key once, and the key works", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "tessera-first-"));
    const port = await freePort();
    const env = { TESSERA_PORT: String(port), TESSERA_HOST: "127.0.0.1", TESSERA_DATA_DIR: dataDir, TESSERA_LOG_LEVEL: "warn" };
    const first = startNode("gateway/src/main-embedded.js", env, "first-run-1");
    await waitForHttp(`http://localhost:${port}/health/ready`, first);
    await new Promise((r) => setTimeout(r, 200));
    const out = readFileSync(first.logFile, "utf8");
    expect(out).toContain(`Tessera is listening on http://localhost:${port}`);
    const key = out.match(/X-Admin-API-Key: (tsk_[A-Za-z0-9_-]{43})'/)?.[1];
    expect(key).toBeDefined();
    const password = out.match(/password: (\S+)/)?.[1];
    expect(password).toBeDefined();
    const ok = await http("GET", `http://localhost:${port}/admin/realms`, { headers: { "X-Admin-API-Key": key! } });
    expect(ok.status).toBe(200);
    const login = await http("POST", `http://localhost:${port}/admin/auth/login`, { body: { username: "admin", password } });
    expect(login.status).toBe(200);
    expect(readFileSync(join(dataDir, "admin-api-key.sha256"), "utf8")).not.toContain(key!);
    expect(await first.stop()).toBe(0);

    const second = startNode("gateway/src/main-embedded.js", env, "first-run-2");
    await waitForHttp(`http://localhost:${port}/health/ready`, second);
    await new Promise((r) => setTimeout(r, 200));
    const out2 = readFileSync(second.logFile, "utf8");
    expect(out2).toContain("Tessera is listening");
    expect(out2).not.toContain("Admin API key (shown once");
    expect(out2).not.toContain("password:");
    const still = await http("GET", `http://localhost:${port}/admin/realms`, { headers: { "X-Admin-API-Key": key! } });
    expect(still.status).toBe(200);
    expect(await second.stop()).toBe(0);
  }, 60_000);

  it("refuses to start on a bad setting, naming the variable", async () => {
    const proc = startNode("gateway/src/main-embedded.js", { TESSERA_PORT: "eighty" }, "bad-config");
    expect(await proc.exited).toBe(78);
    expect(readFileSync(proc.logFile, "utf8")).toContain('TESSERA_PORT: must be an integer, got "eighty"');
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
