import { readFileSync } from "node:fs";
import { join } from "node:path";
import { adminApi, http, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import { ROOT } from "./support/process-runner.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/** A body sent as raw bytes, so fetch adds no Content-Type of its own (a string body gets text/plain). */
async function raw(method: string, url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method, headers, body: Buffer.from(body) });
  const text = await res.text();
  return { status: res.status, body: (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text };
}

// What a newcomer meets first: the landing page, and the Admin API's answer to a body without
// Content-Type (curl -d without -H, a bare fetch).
describe.each(targets())("front door ($mode)", (target) => {
  let server: TestServer;
  let base: string;

  beforeAll(async () => {
    server = await target.start("front-door");
    // Links are built from {base_url} (TESSERA_PUBLIC_URL); the test servers leave it at its default.
    base = new URL(server.url).port ? `http://localhost:${new URL(server.url).port}` : server.url;
  }, 90_000);
  afterAll(async () => server?.stop());

  it("GET / with Accept: application/json answers the name, the version and the links", async () => {
    const res = await http("GET", `${server.url}/`, { headers: { Accept: "application/json" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("vary")).toBe("Accept");
    expect(res.body).toEqual({
      name: "tessera",
      version: VERSION,
      links: {
        adminConsole: `${base}/admin/console`,
        adminApi: `${base}/admin/realms`,
        apiReference: `${base}/admin/docs`,
        openapi: `${base}/admin/openapi.json`,
        adminLogin: `${base}/admin/auth/login`,
        health: `${base}/health`,
        ready: `${base}/health/ready`,
        metrics: `${base}/metrics`,
      },
    });
    // Every link answers (the console's document and the API reference are public; the Admin API asks for its credential; the login takes POST).
    const statuses = await Promise.all(Object.values<string>(res.body.links).map(async (href) => (await fetch(href)).status));
    expect(statuses).toEqual([200, 401, 200, 200, 405, 200, 200, 200]);
  });

  it("GET / in a browser is a small HTML page with the version and the links, under the pages' CSP", async () => {
    const res = await fetch(`${server.url}/`, { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const html = await res.text();
    expect(html).toContain(`<code id="version">${VERSION}</code>`);
    expect(html).toContain(`<a href="${base}/admin/realms" data-link="adminApi">`);
    expect(html).toContain(`<a href="${base}/health" data-link="health">`);
    expect(html).toContain("docs/getting-started.md");
    // Without an Accept header (curl's */*) the page is HTML too.
    expect((await fetch(`${server.url}/`)).headers.get("content-type")).toBe("text/html; charset=utf-8");
  });

  it("GET / is public, and / answers 405 with Allow for other methods", async () => {
    expect((await http("GET", `${server.url}/`, { headers: { Accept: "application/json", "X-Admin-API-Key": "wrong" } })).status).toBe(200);
    const post = await http("POST", `${server.url}/`, { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  it("an Admin API body without Content-Type is 415 unsupported_media_type, and is not acted on", async () => {
    const name = uniqueName("ctype");
    const res = await raw("POST", `${server.url}/admin/realms`, JSON.stringify({ name }), { "X-Admin-API-Key": server.apiKey });
    expect(res).toEqual({ status: 415, body: { error: "unsupported_media_type", message: "the request body needs Content-Type: application/json" } });
    expect((await adminApi(server.url, server.apiKey).get(`/admin/realms/${name}`)).status).toBe(404);
  });

  it("an Admin API body of another type is 415 naming the type; JSON with a charset is read", async () => {
    const api = adminApi(server.url, server.apiKey);
    const name = uniqueName("ctype");
    const form = await raw("POST", `${server.url}/admin/realms`, `name=${name}`, { "X-Admin-API-Key": server.apiKey, "Content-Type": "application/x-www-form-urlencoded" });
    expect(form).toEqual({ status: 415, body: { error: "unsupported_media_type", message: "the request body must be application/json, not application/x-www-form-urlencoded" } });
    const text = await raw("PUT", `${server.url}/admin/realms/${name}`, JSON.stringify({ displayName: "x" }), { "X-Admin-API-Key": server.apiKey, "Content-Type": "text/plain;charset=UTF-8" });
    expect(text).toEqual({ status: 415, body: { error: "unsupported_media_type", message: "the request body must be application/json, not text/plain" } });
    const login = await raw("POST", `${server.url}/admin/auth/login`, JSON.stringify({ username: "admin", password: server.adminPassword }), {});
    expect(login).toEqual({ status: 415, body: { error: "unsupported_media_type", message: "the request body needs Content-Type: application/json" } });

    const ok = await raw("POST", `${server.url}/admin/realms`, JSON.stringify({ name }), { "X-Admin-API-Key": server.apiKey, "Content-Type": "application/json; charset=utf-8" });
    expect(ok.status).toBe(201);
    // A request without a body is left to its route: an empty POST still reads as a missing object.
    const empty = await api.call("POST", "/admin/realms");
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: "invalid_request", message: "request body must be a JSON object" });
    expect((await api.del(`/admin/realms/${name}`)).status).toBe(200);
  });

  it("an unauthenticated Admin API call is 401 before its body's type is judged", async () => {
    const res = await raw("POST", `${server.url}/admin/realms`, "name=x", { "Content-Type": "text/plain" });
    expect(res.status).toBe(401);
  });

  it("the OAuth token endpoint keeps RFC 6749's answer to a body that is not a form", async () => {
    const res = await raw("POST", `${server.url}/realms/no-such-realm-${Date.now()}/protocol/openid-connect/token`, JSON.stringify({ grant_type: "client_credentials" }), {});
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
