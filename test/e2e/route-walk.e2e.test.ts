import pino from "pino";
import { Registry } from "prom-client";
import { createGateway } from "../../gateway/src/app.js";
import { HttpMetrics } from "../../gateway/src/http/http-metrics.js";
import type { AdminTokens } from "../../gateway/src/admin/admin-tokens.js";
import type { RpcClients } from "../../gateway/src/rpc-clients.js";
import type { RouteInfo } from "../../gateway/src/http/route-table.js";
import { Throttle } from "../../gateway/src/oidc/throttle.js";
import { adminApi, http, uniqueName } from "./support/http.js";
import { rawRequest } from "./support/raw-http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";

/**
 * Every route of the gateway's table (DESIGN 7), visited without credentials under each spelling
 * that a path-prefix guard and a lenient router could disagree on: another case, doubled or
 * trailing slashes, `%2F`, `.` and `..` segments (plain and percent-encoded), `;matrix` parameters
 * (the class of Keycloak CVE-2026-0976), a percent-encoded letter. Each must reach no route (404)
 * or the admin guard (401); none may answer 2xx. An Admin API route is also visited as written:
 * 401. The route list is the gateway's own (createGateway(...).routes()), so a new route is walked as soon as
 * it is added.
 */
const routes: RouteInfo[] = createGateway({
  // Building the gateway only registers its routes; nothing here is called.
  rpc: {} as RpcClients, logger: pino({ level: "silent" }), registries: [], httpMetrics: new HttpMetrics(new Registry()),
  apiKeySha256: "", adminTokens: {} as AdminTokens, publicUrl: "http://localhost",
}).routes();

const AUTHS = ["public", "admin", "client", "bearer"];

/** The path with each `:param` filled: the realm with a real realm's name, the rest with a placeholder. */
function concrete(path: string, realm: string): string[] {
  return path.split("/").slice(1).map((s) => (s === ":realmName" ? realm : s.startsWith(":") ? "x1" : s));
}

function variants(pattern: string, realm: string): string[] {
  // The root has no segment to change the case of or to split: its own odd spellings.
  if (pattern === "/") return ["//", "/;x=1", "/%2f", "/%2F", "/.", "/%2e", "/x/..", "/x/%2e%2e"];
  const segs = concrete(pattern, realm);
  const statics = pattern.split("/").slice(1).map((s, i) => (s.startsWith(":") ? -1 : i)).filter((i) => i >= 0);
  const join = (s: string[]) => `/${s.join("/")}`;
  const path = join(segs);
  const [first, ...rest] = segs;
  const tail = rest.length > 0 ? `/${rest.join("/")}` : "";
  const out = new Set<string>([
    `${path}/`, `/${path}`, `${path};x=1`, `/%${first!.charCodeAt(0).toString(16)}${first!.slice(1)}${tail}`,
    `/${first};x=1${tail}`, `/${first};${tail}`,
  ]);
  for (const i of [statics[0]!, statics[statics.length - 1]!]) {
    out.add(join(segs.map((s, j) => (j === i ? s.toUpperCase() : s))));
    out.add(join(segs.map((s, j) => (j === i ? s[0]!.toUpperCase() + s.slice(1) : s))));
  }
  if (rest.length > 0) {
    for (const insert of ["/", "/.", "/%2e", "/x/..", "/x/%2e%2e", "/x/%2E%2E", "/x/.%2e"]) out.add(`/${first}${insert}${tail}`);
    out.add(`/${first}%2F${rest.join("/")}`);
    out.add(`/${first}%2f${rest.join("/")}`);
    // Before the last segment too, where a prefix test would have looked past the first.
    const head = segs.slice(0, -1);
    out.add(`${join(head)}//${segs[segs.length - 1]}`);
    out.add(`${join(head)}/x/%2e%2e/${segs[segs.length - 1]}`);
    out.add(`${join(head)}%2F${segs[segs.length - 1]}`);
  }
  out.delete(path);
  return [...out];
}

describe("the gateway's route table", () => {
  it("declares every route's authentication, and admin for every Admin API route but login, renewal, sign-out, the current admin, the console's document and the API docs", () => {
    expect(routes.length).toBeGreaterThan(90);
    for (const r of routes) expect([r.method, r.path, AUTHS.includes(r.auth)]).toEqual([r.method, r.path, true]);
    const adminPaths = routes.filter((r) => r.path.startsWith("/admin/"));
    for (const r of adminPaths) {
      // The console's document is a static page holding no data; everything it shows comes through the guarded API.
      // The API's documentation is public, as documentation is (docs/openapi.md). Renewal and
      // sign-out take the refresh token itself as their credential.
      const open = r.path === "/admin/auth/login" || r.path === "/admin/auth/refresh" || r.path === "/admin/auth/logout" || r.path === "/admin/console" || r.path === "/admin/openapi.json" || r.path.startsWith("/admin/docs");
      const expected = open ? "public" : r.path === "/admin/auth/me" ? "bearer" : "admin";
      expect([r.method, r.path, r.auth]).toEqual([r.method, r.path, expected]);
    }
  });

  it("throttles every route that takes a client's password (RFC 6749 section 2.3.1)", () => {
    const throttle = new Throttle({} as RpcClients);
    const client = routes.filter((r) => r.auth === "client");
    expect(client.map((r) => r.path.replace("/realms/:realmName/protocol/openid-connect/", ""))).toEqual(
      expect.arrayContaining(["token", "auth/device", "token/introspect", "revoke", "logout"]),
    );
    for (const r of client) expect([r.method, r.path, throttle.realmOf(r.method, `/${concrete(r.path, "acme").join("/")}`)]).toEqual([r.method, r.path, "acme"]);
  });
});

describe.each(targets())("route walk without credentials ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  const realm = uniqueName("walk");
  const marker = uniqueName("walked");

  beforeAll(async () => {
    server = await target.start("route-walk");
    api = adminApi(server.url, server.apiKey);
    expect((await api.post("/admin/realms", { name: realm, adminEventsEnabled: true, rateLimitPerIp: 0 })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const bodies = (method: string): Array<{ headers: Record<string, string>; body?: string }> =>
    method === "GET" || method === "OPTIONS" ? [{ headers: {} }] : [
      { headers: { "content-type": "application/json" }, body: JSON.stringify({ name: marker, username: marker, clientId: marker, password: "x", users: [{ username: marker }] }) },
      // A plain form, which the lean lane would serve ahead of express on its paths.
      { headers: { "content-type": "application/x-www-form-urlencoded" }, body: `grant_type=client_credentials&client_id=${marker}&client_secret=x&token=x` },
    ];

  it("answers every Admin API route as written with 401, before its handler", async () => {
    for (const r of routes.filter((x) => x.auth === "admin")) {
      const path = `/${concrete(r.path, realm).join("/")}`;
      for (const b of bodies(r.method)) {
        const res = await rawRequest(server.url, r.method, path, b);
        expect([r.method, path, res.status]).toEqual([r.method, path, 401]);
        expect(JSON.parse(res.text)).toEqual({
          error: "unauthorized", message: "missing credentials: send X-Admin-API-Key or Authorization: Bearer <admin token>",
        });
        expect(res.headers["www-authenticate"]).toBe('Bearer realm="tessera-admin"');
      }
    }
    // The guard answers before the body is read: 5 MB (over the 1 MB limit) is 401, not 413.
    const big = await rawRequest(server.url, "POST", "/admin/realms", {
      headers: { "content-type": "application/json" }, body: JSON.stringify({ name: marker, padding: "x".repeat(5 * 1024 * 1024) }),
    });
    expect(big.status).toBe(401);
    // A wrong key is refused as well.
    const wrong = await http("GET", `${server.url}/admin/realms`, { headers: { "X-Admin-API-Key": "not-the-key" } });
    expect(wrong.status).toBe(401);
  }, 120_000);

  it("answers every route under every odd spelling with 404 or the guard's 401, never 2xx", async () => {
    let visited = 0;
    // The landing page "/" has no segment to respell; its odd spellings ("//") start every other path's.
    // The account console's page (`/realms/:realmName/account/`) is the one route whose path ends
    // in "/": the spelling without it redirects there, so that "odd spelling" of it is its own
    // route, and its own spellings are those of `/realms/:realmName/account` plus the slash.
    const routed = new Set(routes.map((route) => `/${concrete(route.path, realm).join("/")}`));
    for (const r of routes.filter((route) => route.path !== "/" && !route.path.endsWith("/"))) {
      for (const path of variants(r.path, realm).filter((v) => !routed.has(v))) {
        for (const b of bodies(r.method)) {
          const res = await rawRequest(server.url, r.method, path, b);
          visited++;
          if (res.status !== 404 && res.status !== 401) {
            throw new Error(`${r.method} ${path} (route ${r.path}, ${r.auth}) answered ${res.status}: ${res.text.slice(0, 200)}`);
          }
          // A bearer route whose last segment is a parameter takes `x1;x=1` as that parameter (the
          // route as written, for another resource): its own 401 then, invalid_token (RFC 6750 section 3.1).
          if (res.status === 401) expect([path, JSON.parse(res.text).error]).toEqual([path, r.auth === "bearer" ? expect.stringMatching(/^(unauthorized|invalid_token)$/) : "unauthorized"]);
        }
      }
    }
    expect(visited).toBeGreaterThan(2000);
  }, 300_000);

  it("changed nothing, and the realm's admin events name the credential of every write (authDetails)", async () => {
    expect((await api.get(`/admin/realms/${realm}/users?search=${marker}`)).body).toEqual({ total: 0, users: [] });
    expect((await api.get(`/admin/realms/${realm}/clients`)).body.map((c: { clientId: string }) => c.clientId)).not.toContain(marker);
    expect((await api.get("/admin/realms")).body.map((x: { name: string }) => x.name)).not.toContain(marker);

    // One write by API key and one by an admin token, after the walk.
    expect((await api.put(`/admin/realms/${realm}`, { displayName: "by key" })).status).toBe(200);
    const login = await http("POST", `${server.url}/admin/auth/login`, { body: { username: server.adminUsername, password: server.adminPassword } });
    expect(login.status).toBe(200);
    const byToken = await http("PUT", `${server.url}/admin/realms/${realm}`, {
      body: { displayName: "by token" }, headers: { Authorization: `Bearer ${login.body.accessToken}` },
    });
    expect(byToken.status).toBe(200);

    const events = await eventually(() => api.get(`/admin/realms/${realm}/admin-events`), (r) => r.body?.length === 3);
    // Only the setup's CREATE and the two updates: no request of the walk reached a handler.
    expect(events.body.map((e: { operationType: string }) => e.operationType)).toEqual(["UPDATE", "UPDATE", "CREATE"]);
    const [token, key, created] = events.body;
    for (const e of [key, created]) {
      expect(e.authDetails).toEqual({ type: "api-key", adminId: "", username: "", ipAddress: expect.stringMatching(/\S/) });
    }
    expect(token.authDetails).toEqual({
      type: "admin", adminId: login.body.user.id, username: server.adminUsername, ipAddress: expect.stringMatching(/\S/),
    });
    for (const e of events.body) expect(e.authDetails.type).not.toBe("system");
  }, 60_000);
});
