import { adminApi, http, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";
import { awayFromMinuteEdge } from "./support/minute-edge.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Per-IP and per-client throttle on the client-password and login endpoints, per realm.

describe.each(targets())("throttle ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await target.start("throttle");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  const token = (realm: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, { form, headers });

  it("limits requests per IP with 429 and Retry-After, and leaves other realms alone", async () => {
    const limited = uniqueName("thr");
    const free = uniqueName("free");
    const created = await api.post("/admin/realms", { name: limited, rateLimitPerIp: 3 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ rateLimitPerIp: 3, rateLimitPerClient: 0 });
    await api.post("/admin/realms", { name: free });
    await awayFromMinuteEdge();
    for (let i = 0; i < 3; i++) expect((await token(limited, { grant_type: "client_credentials" })).status).not.toBe(429);
    const over = await token(limited, { grant_type: "client_credentials" });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: "too_many_requests", error_description: expect.stringMatching(/^rate limit exceeded; retry after \d+ s$/) });
    // RFC 6749 section 5.1, 5.2: an OAuth answer is never cached.
    expect(over.headers.get("cache-control")).toBe("no-store");
    expect(over.headers.get("pragma")).toBe("no-cache");
    const retry = Number(over.headers.get("retry-after"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    for (let i = 0; i < 6; i++) expect((await token(free, { grant_type: "client_credentials" })).status).not.toBe(429);
    // GETs (discovery, pages) are not counted.
    expect((await http("GET", `${server.url}/realms/${limited}/.well-known/openid-configuration`)).status).toBe(200);
  });

  it("routes a throttled path exactly: another case or a trailing slash reaches no route and passes nothing uncounted", async () => {
    const realm = uniqueName("thrp");
    await api.post("/admin/realms", { name: realm, rateLimitPerIp: 3 });
    await awayFromMinuteEdge();
    const post = (endpoint: string) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/${endpoint}`, { form: { grant_type: "client_credentials" } });
    // Case-sensitive, strict routing (DESIGN 7): none of these is the token endpoint.
    for (const endpoint of ["TOKEN", "token/", "Token", "TOKEN/"]) expect((await post(endpoint)).status).toBe(404);
    for (let i = 0; i < 3; i++) expect((await post("token")).status).toBe(401);
    const over = await post("token");
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: "too_many_requests", error_description: expect.stringMatching(/^rate limit exceeded; retry after \d+ s$/) });
  });

  // RFC 6749 section 2.3.1: every endpoint that takes the client's password is protected against
  // guessing it, not only the token endpoint.
  it.each([
    ["introspection", "token/introspect", { token: "x" }],
    ["revocation", "revoke", { token: "x" }],
    ["logout", "logout", { refresh_token: "x" }],
    ["device authorization", "auth/device", {}],
  ])("ends wrong-secret guessing at the %s endpoint with 429 and Retry-After", async (_name, endpoint, form) => {
    const realm = uniqueName("thrs");
    expect((await api.post("/admin/realms", { name: realm, rateLimitPerIp: 20 })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "rs", grantTypes: ["client_credentials", "urn:ietf:params:oauth:grant-type:device_code"],
    })).status).toBe(201);
    await awayFromMinuteEdge();
    const url = `${server.url}/realms/${realm}/protocol/openid-connect/${endpoint}`;
    const guess = (i: number) => http("POST", url, {
      form: form as Record<string, string>, headers: { Authorization: `Basic ${Buffer.from(`rs:guess-${i}`).toString("base64")}` },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await guess(i)).status);
    // Each wrong secret is refused (RFC 6749 section 5.2) until the per-IP limit; then 429.
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array(5).fill(429));
    const over = await guess(99);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(over.body).toEqual({ error: "too_many_requests", error_description: expect.stringMatching(/^rate limit exceeded; retry after \d+ s$/) });
    expect(over.headers.get("cache-control")).toBe("no-store");
  });

  it("counts a client's wrong secrets per client across endpoints, whatever the form of its credentials", async () => {
    const realm = uniqueName("thrk");
    await api.post("/admin/realms", { name: realm, rateLimitPerClient: 4 });
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "rs", grantTypes: ["client_credentials"] })).status).toBe(201);
    await awayFromMinuteEdge();
    const oidc = `${server.url}/realms/${realm}/protocol/openid-connect`;
    const basic = { Authorization: `Basic ${Buffer.from("rs:wrong").toString("base64")}` };
    expect((await http("POST", `${oidc}/token/introspect`, { form: { token: "x" }, headers: basic })).status).toBe(401);
    expect((await http("POST", `${oidc}/revoke`, { form: { token: "x", client_id: "rs", client_secret: "wrong" } })).status).toBe(401);
    expect((await http("POST", `${oidc}/logout`, { form: { refresh_token: "x" }, headers: basic })).status).toBe(401);
    expect((await http("POST", `${oidc}/token`, { form: { grant_type: "client_credentials" }, headers: basic })).status).toBe(401);
    expect((await http("POST", `${oidc}/revoke`, { form: { token: "x" }, headers: basic })).status).toBe(429);
  });

  it("limits requests per client on the token endpoint, by Basic auth or client_id", async () => {
    const realm = uniqueName("thrc");
    await api.post("/admin/realms", { name: realm, rateLimitPerClient: 2 });
    const basic = (id: string) => ({ Authorization: `Basic ${Buffer.from(`${id}:x`).toString("base64")}` });
    await awayFromMinuteEdge();
    for (let i = 0; i < 2; i++) expect((await token(realm, { grant_type: "client_credentials" }, basic("app-a"))).status).not.toBe(429);
    expect((await token(realm, { grant_type: "client_credentials", client_id: "app-a" })).status).toBe(429);
    expect((await token(realm, { grant_type: "client_credentials" }, basic("app-b"))).status).not.toBe(429);
  });

  it("answers the device authorization endpoint's 429 in OAuth format too (RFC 8628 section 3.2, RFC 6749 section 5.2)", async () => {
    const realm = uniqueName("thrd");
    await api.post("/admin/realms", { name: realm, rateLimitPerIp: 1 });
    await awayFromMinuteEdge();
    const device = () => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/auth/device`, { form: { client_id: "tv" } });
    expect((await device()).status).not.toBe(429);
    const over = await device();
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: "too_many_requests", error_description: expect.stringMatching(/^rate limit exceeded; retry after \d+ s$/) });
    expect(over.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(over.headers.get("cache-control")).toBe("no-store");
    expect(over.headers.get("pragma")).toBe("no-cache");
  });

  it("counts the device page's user-code lookups by GET against rateLimitPerIp, not its empty form (RFC 8628 section 5.1)", async () => {
    const realm = uniqueName("thrv");
    await api.post("/admin/realms", { name: realm, rateLimitPerIp: 3 });
    await awayFromMinuteEdge();
    const page = (query: string, path = "device", method = "GET") => http(method, `${server.url}/realms/${realm}/${path}${query}`);
    // The empty form looks nothing up: never counted.
    for (let i = 0; i < 5; i++) expect((await page("")).status).toBe(200);
    expect((await page("?user_code=")).status).toBe(200);
    for (const code of ["BCDF-GHJK", "bcdfghjk", "LMNP-QRST"]) {
      const guess = await page(`?user_code=${code}`);
      expect(guess.status).toBe(200);
      expect(guess.text).toContain("Invalid or expired code. Please check the code and try again.");
    }
    const over = await page("?user_code=VWXZ-BCDF");
    expect(over.status).toBe(429);
    // The throttle's page answer, as on the login paths: the realm's error page, as the device
    // page's own bound answers, with the seconds to wait.
    const retry = Number(over.headers.get("retry-after"));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(over.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(over.text).toContain(`<p class="alert" role="alert" id="error-description">Too many requests. Try again in ${retry} seconds.</p>`);
    expect(over.text).toContain("<code id=\"error-code\">too_many_requests</code>");
    expect(over.headers.get("cache-control")).toBe("no-store");
    expect(over.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    // HEAD runs the same lookup; the path in another case is no route (DESIGN 7: exact routing).
    expect((await page("?user_code=VWXZ-BCDF", "device", "HEAD")).status).toBe(429);
    expect((await page("?user_code=VWXZ-BCDF", "DEVICE/")).status).toBe(404);
    // One per-IP count per realm: the token endpoint is over it too.
    expect((await token(realm, { grant_type: "client_credentials" })).status).toBe(429);
    // The empty form is still served.
    expect((await page("")).status).toBe(200);
  });

  it("is configurable by update and validated", async () => {
    const realm = uniqueName("thru");
    await api.post("/admin/realms", { name: realm });
    const upd = await api.put(`/admin/realms/${realm}`, { rateLimitPerIp: 100, rateLimitPerClient: 50 });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ rateLimitPerIp: 100, rateLimitPerClient: 50 });
    const bad = await api.put(`/admin/realms/${realm}`, { rateLimitPerIp: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("rateLimitPerIp");
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
