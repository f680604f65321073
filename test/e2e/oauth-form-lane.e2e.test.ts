import { request } from "node:http";
import { createLocalJWKSet, jwtVerify } from "jose";
import { adminApi, http, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { awayFromMinuteEdge } from "./support/minute-edge.js";

/**
 * The gateway serves the form-posted OAuth endpoints on two paths (docs/performance.md):
 * the lean lane ahead of express for plain form posts, and the express route table for everything
 * else. A chunked body (no Content-Length) always takes the express path, so sending each request
 * both ways and comparing the answers shows the lane answers exactly as the route table does.
 */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

/** Headers whose value differs per request by design. */
const VARYING = new Set(["date", "x-request-id", "content-length", "connection", "keep-alive", "transfer-encoding"]);

function post(url: string, form: string, opts: { chunked: boolean; headers?: Record<string, string> }): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", ...opts.headers };
  if (!opts.chunked) headers["content-length"] = String(Buffer.byteLength(form));
  return send(url, form, headers, opts.chunked);
}

/** POSTs `body` as given (no headers added), in two chunks without a length when `chunked`. */
function send(url: string, body: Buffer | string, headers: Record<string, string>, chunked = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => {
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") h[k] = v;
        resolve({ status: res.statusCode ?? 0, headers: h, body: text && h["content-type"]?.includes("json") ? JSON.parse(text) as Record<string, unknown> : undefined });
      });
    });
    req.on("error", reject);
    if (chunked) {
      // Two writes without a length: Transfer-Encoding: chunked.
      const mid = Math.floor(body.length / 2);
      req.write(body.slice(0, mid));
      req.end(body.slice(mid));
    } else {
      req.end(body);
    }
  });
}

/** Body members that are new on every request (tokens, codes, times, ids). */
const PER_REQUEST = /token$|_code$|^verification_uri_complete$|^(jti|iat|exp|nbf|auth_time)$/;

function stable(a: Answer): Answer {
  const headers = Object.fromEntries(Object.entries(a.headers).filter(([k]) => !VARYING.has(k)));
  const body = a.body && Object.fromEntries(Object.entries(a.body).map(([k, v]) => [k, PER_REQUEST.test(k) ? typeof v : v]));
  return { status: a.status, headers, body };
}

describe.each(targets())("OAuth form endpoints, lean lane and route table ($mode)", (target) => {
  let server: TestServer;
  let realm: string;
  let basic: string;
  let base: string;

  beforeAll(async () => {
    server = await target.start("form-lane");
    const api = adminApi(server.url, server.apiKey);
    realm = uniqueName("lane");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const client = await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "svc", grantTypes: ["client_credentials", "password", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"], redirectUris: ["http://127.0.0.1:9/cb"],
    });
    expect(client.status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "lane-user", password: "Lane-password-1" })).status).toBe(201);
    basic = `Basic ${Buffer.from(`svc:${client.body.secret as string}`).toString("base64")}`;
    base = `${server.url}/realms/${realm}/protocol/openid-connect`;
  }, 90_000);
  afterAll(async () => server?.stop());

  const both = async (path: string, form: string, headers: Record<string, string> = {}) => {
    const lane = await post(`${base}${path}`, form, { chunked: false, headers });
    const table = await post(`${base}${path}`, form, { chunked: true, headers });
    expect(stable(lane)).toEqual(stable(table));
    return lane;
  };

  it("issues the same client_credentials answer, and the lane's token verifies", async () => {
    const a = await both("/token", "grant_type=client_credentials", { authorization: basic });
    expect(a.status).toBe(200);
    expect(a.headers["cache-control"]).toBe("no-store");
    expect(a.headers.pragma).toBe("no-cache");
    expect(a.headers["x-content-type-options"]).toBe("nosniff");
    expect(a.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(a.body).toEqual({ access_token: expect.any(String), token_type: "Bearer", expires_in: 300, scope: expect.any(String) });
    const jwks = createLocalJWKSet((await http("GET", `${base}/certs`)).body);
    const { payload } = await jwtVerify(a.body!.access_token as string, jwks, { issuer: `${server.url}/realms/${realm}` });
    expect(payload.azp).toBe("svc");
  });

  it("answers the same RFC 6749 errors", async () => {
    const wrong = `Basic ${Buffer.from("svc:wrong").toString("base64")}`;
    const bad = await both("/token", "grant_type=client_credentials", { authorization: wrong });
    expect(bad.status).toBe(401);
    expect(bad.headers["www-authenticate"]).toBe(`Basic realm="${realm}"`);
    expect(bad.body).toEqual({ error: "invalid_client", error_description: "client authentication failed" });

    const missing = await both("/token", "scope=openid", { authorization: basic });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "invalid_request", error_description: "grant_type is required" });

    const twice = await both("/token", "grant_type=client_credentials&grant_type=password", { authorization: basic });
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({ error: "invalid_request", error_description: "parameter grant_type must be sent once" });

    const unsupported = await both("/token", "grant_type=urn%3Aexample%3Anope", { authorization: basic });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body?.error).toBe("unsupported_grant_type");
  });

  it("refuses more than 100 parameters the same way, as an RFC 6749 section 5.2 invalid_request", async () => {
    const many = ["grant_type=client_credentials", ...Array.from({ length: 100 }, (_, i) => `p${i}=x`)].join("&");
    const a = await both("/token", many, { authorization: basic });
    expect(a.status).toBe(400);
    expect(a.body).toEqual({ error: "invalid_request", error_description: "request body has too many parameters" });
    expect(a.headers["cache-control"]).toBe("no-store");
    expect(a.headers.pragma).toBe("no-cache");
  });

  const raw = (path: string, body: Buffer | string, headers: Record<string, string>): Promise<Answer> =>
    send(`${server.url}${path}`, body, { "content-length": String(Buffer.byteLength(body)), ...headers });

  const FORM = "application/x-www-form-urlencoded";

  it.each([
    ["a 70 KB body", `grant_type=client_credentials&x=${"a".repeat(70 * 1024)}`, { "content-type": FORM }, "request body is too large"],
    ["a latin1 charset", "grant_type=client_credentials", { "content-type": `${FORM}; charset=latin1` }, "unsupported body charset; send UTF-8"],
    ["a gzip body that is not gzip", "grant_type=client_credentials", { "content-type": FORM, "content-encoding": "gzip" }, "request body could not be read"],
    ["an unknown content encoding", "grant_type=client_credentials", { "content-type": FORM, "content-encoding": "x-nope" }, "unsupported body encoding"],
    ["malformed JSON", "{", { "content-type": "application/json" }, "request body is not valid JSON"],
  ])("answers %s at the token endpoint with 400 invalid_request, no-store (RFC 6749 section 5.2)", async (_what, body, headers, description) => {
    const a = await raw(`/realms/${realm}/protocol/openid-connect/token`, body, { authorization: basic, ...headers });
    expect(a.status).toBe(400);
    expect(a.body).toEqual({ error: "invalid_request", error_description: description });
    expect(a.headers["cache-control"]).toBe("no-store");
    expect(a.headers.pragma).toBe("no-cache");
    expect(a.headers["content-type"]).toBe("application/json; charset=utf-8");
  });

  it.each(["/token", "/token/introspect", "/revoke", "/auth/device"])("refuses a JSON body at %s instead of taking it for a form (RFC 6749 section 3.2)", async (path) => {
    const body = JSON.stringify({ grant_type: "client_credentials", token: "x", client_id: "x" });
    const a = await raw(`/realms/${realm}/protocol/openid-connect${path}`, body, { authorization: basic, "content-type": "application/json" });
    expect(a.status).toBe(400);
    expect(a.body).toEqual({ error: "invalid_request", error_description: "the request body must be application/x-www-form-urlencoded" });
    expect(a.headers["cache-control"]).toBe("no-store");
    expect(a.headers.pragma).toBe("no-cache");
  });

  it.each(["/token/introspect", "/revoke", "/auth/device", "/logout", "/userinfo"])("answers an unreadable body at %s in OAuth format too", async (path) => {
    const a = await raw(`/realms/${realm}/protocol/openid-connect${path}`, "token=x", { authorization: basic, "content-type": FORM, "content-encoding": "gzip" });
    expect(a.status).toBe(400);
    expect(a.body).toEqual({ error: "invalid_request", error_description: "request body could not be read" });
    expect(a.headers["cache-control"]).toBe("no-store");
    expect(a.headers.pragma).toBe("no-cache");
  });

  it("answers an unreadable body elsewhere with its own 4xx in the gateway's error body, never a 500", async () => {
    const admin = { "x-admin-api-key": server.apiKey, "content-type": "application/json" };
    const gz = await raw("/admin/realms", "{}", { ...admin, "content-encoding": "gzip" });
    expect(gz.status).toBe(400);
    expect(gz.body).toEqual({ error: "invalid_request", message: "request body could not be read" });
    const latin = await raw("/admin/realms", "{}", { ...admin, "content-type": "application/json; charset=latin1" });
    expect(latin.status).toBe(415);
    expect(latin.body).toEqual({ error: "unsupported_media_type", message: "unsupported body charset; send UTF-8" });
    // The browser's authorization endpoint is no OAuth error endpoint: its errors are HTML pages
    // (oidc-authorize-pages.e2e.test.ts), with the same 400, never a 500.
    const page = await raw(`/realms/${realm}/protocol/openid-connect/auth`, "a=1", { "content-type": FORM, "content-encoding": "gzip" });
    expect(page.status).toBe(400);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["cache-control"]).toBe("no-store");
  });

  it("answers another method at an OAuth endpoint 405 in RFC 6749 section 5.2's format, with Allow and no-store", async () => {
    for (const path of ["/token", "/token/introspect", "/revoke", "/auth/device"]) {
      const res = await fetch(`${base}${path}`, { method: "GET" });
      expect([path, res.status, res.headers.get("allow"), res.headers.get("cache-control")]).toEqual([path, 405, "POST, OPTIONS", "no-store"]);
      expect(await res.json()).toEqual({ error: "method_not_allowed", error_description: "method not allowed; allowed: POST, OPTIONS" });
    }
    // Elsewhere the gateway's own body, as before.
    const admin = await fetch(`${server.url}/admin/realms/${realm}`, { method: "PATCH", headers: { "x-admin-api-key": server.apiKey } });
    expect(admin.status).toBe(405);
    expect(await admin.json()).toMatchObject({ error: "method_not_allowed", message: expect.stringMatching(/^method not allowed; allowed: /) });
  });

  it("answers 404 for an unknown realm on both paths", async () => {
    const lane = await post(`${server.url}/realms/no-such-${realm}/protocol/openid-connect/token`, "grant_type=client_credentials", { chunked: false, headers: { authorization: basic } });
    const table = await post(`${server.url}/realms/no-such-${realm}/protocol/openid-connect/token`, "grant_type=client_credentials", { chunked: true, headers: { authorization: basic } });
    expect(stable(lane)).toEqual(stable(table));
    expect(lane.status).toBe(404);
  });

  it("introspects, revokes and starts device authorization the same way", async () => {
    const issued = await post(`${base}/token`, "grant_type=client_credentials", { chunked: false, headers: { authorization: basic } });
    const token = issued.body!.access_token as string;
    const active = await both("/token/introspect", `token=${token}`, { authorization: basic });
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ active: true, client_id: "svc", token_type: "Bearer" });
    const revoked = await both("/revoke", `token=${token}`, { authorization: basic });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({});
    const device = await both("/auth/device", "scope=openid", { authorization: basic });
    expect(device.status).toBe(200);
    expect(device.body).toMatchObject({ verification_uri: `${server.url}/realms/${realm}/device`, interval: 5 });
  });

  it("logs out with a refresh token the same way, and leaves the browser's logout to the pages", async () => {
    const refresh = async () => (await post(`${base}/token`, "grant_type=password&username=lane-user&password=Lane-password-1",
      { chunked: false, headers: { authorization: basic } })).body!.refresh_token as string;
    const [first, second] = [await refresh(), await refresh()];
    const lane = await post(`${base}/logout`, `refresh_token=${first}`, { chunked: false, headers: { authorization: basic } });
    const table = await post(`${base}/logout`, `refresh_token=${second}`, { chunked: true, headers: { authorization: basic } });
    expect(stable(lane)).toEqual(stable(table));
    expect(lane.status).toBe(204);
    expect(lane.headers["cache-control"]).toBe("no-store");
    // Both sessions ended: the refresh tokens are dead.
    for (const rt of [first, second]) {
      const again = await post(`${base}/token`, `grant_type=refresh_token&refresh_token=${rt}`, { chunked: false, headers: { authorization: basic } });
      expect(again.status).toBe(400);
      expect(again.body?.error).toBe("invalid_grant");
    }
    const missing = await both("/logout", "", { authorization: basic });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "invalid_request", error_description: "refresh_token is required" });
    // Without client authentication a POST to /logout is the browser's RP-initiated logout: a page.
    const browser = await post(`${base}/logout`, "", { chunked: false });
    expect(browser.status).toBe(200);
    expect(browser.headers["content-type"]).toBe("text/html; charset=utf-8");
  });

  it("echoes a sane X-Request-Id and replaces an insane one", async () => {
    const given = await post(`${base}/token`, "grant_type=client_credentials", { chunked: false, headers: { authorization: basic, "x-request-id": "lane-test-1" } });
    expect(given.headers["x-request-id"]).toBe("lane-test-1");
    const insane = await post(`${base}/token`, "grant_type=client_credentials", { chunked: false, headers: { authorization: basic, "x-request-id": "bad id with spaces" } });
    expect(insane.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("counts lane requests in /metrics under the route pattern", async () => {
    await post(`${base}/token`, "grant_type=client_credentials", { chunked: false, headers: { authorization: basic } });
    const metrics = await http("GET", `${server.url}/metrics`);
    expect(metrics.text).toMatch(/http_requests_total\{method="POST",route="\/realms\/:realmName\/protocol\/openid-connect\/token",status="200"\} [1-9]/);
  });
});

describe("OAuth form lane behind a trusted proxy (embedded)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startEmbeddedServer("form-lane-proxy", { TESSERA_TRUST_PROXY: "loopback" });
  }, 90_000);
  afterAll(async () => server?.stop());

  it("throttles per forwarded client address, as express computes req.ip", async () => {
    const api = adminApi(server.url, server.apiKey);
    const realm = uniqueName("lanep");
    expect((await api.post("/admin/realms", { name: realm, rateLimitPerIp: 2 })).status).toBe(201);
    await awayFromMinuteEdge();
    const url = `${server.url}/realms/${realm}/protocol/openid-connect/token`;
    const from = (ip: string) => post(url, "grant_type=client_credentials", { chunked: false, headers: { "x-forwarded-for": ip } });
    expect((await from("203.0.113.7")).status).toBe(401);
    expect((await from("203.0.113.7")).status).toBe(401);
    const over = await from("203.0.113.7");
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: "too_many_requests", error_description: expect.stringMatching(/^rate limit exceeded; retry after \d+ s$/) });
    expect(over.headers["cache-control"]).toBe("no-store");
    expect(over.headers.pragma).toBe("no-cache");
    // Another forwarded address has its own window; the chunked path counts in the same windows.
    expect((await from("203.0.113.8")).status).toBe(401);
    expect((await post(url, "grant_type=client_credentials", { chunked: true, headers: { "x-forwarded-for": "203.0.113.8" } })).status).toBe(401);
    expect((await post(url, "grant_type=client_credentials", { chunked: true, headers: { "x-forwarded-for": "203.0.113.8" } })).status).toBe(429);
  });
});
