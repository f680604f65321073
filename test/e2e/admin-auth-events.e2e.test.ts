import { decodeJwt } from "jose";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Admin authentication (spec 4.14) and admin events (spec 2.7, 4.8, 6), in every run mode.
describe.each(targets())("admin auth and admin events ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await target.start("admin-auth-events");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  const login = (username: string, password: string) =>
    http("POST", `${server.url}/admin/auth/login`, { body: { username, password } });

  describe("admin login", () => {
    it("issues an admin JWT that works on the Admin API and /admin/auth/me", async () => {
      const res = await login(server.adminUsername, server.adminPassword);
      expect(res.status).toBe(200);
      expect(res.body.tokenType).toBe("Bearer");
      expect(res.body.expiresIn).toBe(3600);
      expect(res.body.user).toMatchObject({ username: "admin" });
      expect(res.body.user.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.body.user).not.toHaveProperty("passwordHash");
      expect(res.text).not.toContain(server.adminPassword);
      const claims = decodeJwt(res.body.accessToken);
      expect(claims.sub).toBe(res.body.user.id);
      expect(claims.aud).toBe("tessera-admin");
      expect((claims.exp as number) - (claims.iat as number)).toBe(3600);

      const auth = { Authorization: `Bearer ${res.body.accessToken}` };
      const realms = await http("GET", `${server.url}/admin/realms`, { headers: auth });
      expect(realms.status).toBe(200);
      expect(Array.isArray(realms.body)).toBe(true);
      const me = await http("GET", `${server.url}/admin/auth/me`, { headers: auth });
      expect(me.status).toBe(200);
      expect(me.body).toEqual(res.body.user);
    });

    it("refuses wrong and missing credentials", async () => {
      const wrong = await login(server.adminUsername, "not-the-password");
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ error: "invalid_credentials", message: "invalid username or password" });
      const nobody = await login("nobody", "whatever-password");
      expect(nobody.status).toBe(401);
      expect(nobody.body).toEqual(wrong.body);
      const missing = await http("POST", `${server.url}/admin/auth/login`, { body: { username: "admin" } });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: "invalid_request", message: "password is required", field: "password" });
    });

    it("renews with the refresh token of the login, rotated, and refuses it as a bearer token or when tampered", async () => {
      const res = await login(server.adminUsername, server.adminPassword);
      expect(res.body.refreshExpiresIn).toBe(1800);
      const refreshClaims = decodeJwt(res.body.refreshToken);
      expect(refreshClaims).toMatchObject({ sub: res.body.user.id, aud: "tessera-admin-refresh", typ: "admin-refresh" });
      expect((refreshClaims.exp as number) - (refreshClaims.iat as number)).toBe(1800);
      // Not an access token: the Admin API refuses it.
      const asBearer = await http("GET", `${server.url}/admin/realms`, { headers: { Authorization: `Bearer ${res.body.refreshToken}` } });
      expect(asBearer.status).toBe(401);
      // A second passes so the new tokens' iat differs.
      await new Promise((r) => setTimeout(r, 1100));
      const renewed = await http("POST", `${server.url}/admin/auth/refresh`, { body: { refreshToken: res.body.refreshToken } });
      expect(renewed.status).toBe(200);
      expect(renewed.headers.get("cache-control")).toBe("no-store");
      expect(renewed.body).toMatchObject({ tokenType: "Bearer", expiresIn: 3600, user: res.body.user });
      expect(renewed.body.accessToken).not.toBe(res.body.accessToken);
      expect(renewed.body.refreshToken).not.toBe(res.body.refreshToken);
      // The sign-in's time is carried along: the session's 10 hours count from the login.
      expect(decodeJwt(renewed.body.refreshToken).auth_time).toBe(refreshClaims.auth_time);
      const me = await http("GET", `${server.url}/admin/auth/me`, { headers: { Authorization: `Bearer ${renewed.body.accessToken}` } });
      expect(me.body).toEqual(res.body.user);
      // An access token is no refresh token; a tampered one and a missing one are refused.
      const withAccess = await http("POST", `${server.url}/admin/auth/refresh`, { body: { refreshToken: res.body.accessToken } });
      expect(withAccess.status).toBe(401);
      expect(withAccess.body).toEqual({ error: "invalid_refresh_token", message: "the refresh token is not valid or has expired; log in again" });
      const [h, p] = (renewed.body.refreshToken as string).split(".");
      const forged = await http("POST", `${server.url}/admin/auth/refresh`, { body: { refreshToken: `${h}.${p}.${"A".repeat(43)}` } });
      expect(forged.status).toBe(401);
      const missing = await http("POST", `${server.url}/admin/auth/refresh`, { body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: "invalid_request", message: "refreshToken is required", field: "refreshToken" });
      const password = await http("POST", `${server.url}/admin/auth/refresh`, { body: { refreshToken: renewed.body.refreshToken, password: "x" } });
      expect([password.status, password.body.field]).toEqual([400, "password"]);
    });

    it("ends the sign-in when a used refresh token comes back, and at sign-out, for both of its tokens", async () => {
      const refresh = (refreshToken: string) => http("POST", `${server.url}/admin/auth/refresh`, { body: { refreshToken } });
      const realms = (accessToken: string) => http("GET", `${server.url}/admin/realms`, { headers: { Authorization: `Bearer ${accessToken}` } });
      const refused = { error: "invalid_refresh_token", message: "the refresh token is not valid or has expired; log in again" };

      // Reuse: the first renewal rotates; the same token again is refused and ends the sign-in,
      // so the renewed tokens (the other holder's) stop working too.
      const a = (await login(server.adminUsername, server.adminPassword)).body;
      const renewed = await refresh(a.refreshToken);
      expect(renewed.status).toBe(200);
      const again = await refresh(a.refreshToken);
      expect([again.status, again.body]).toEqual([401, refused]);
      expect((await refresh(renewed.body.refreshToken)).status).toBe(401);
      expect((await realms(renewed.body.accessToken)).status).toBe(401);

      // Sign-out: 204, then neither token of that sign-in is accepted; another sign-in goes on.
      const b = (await login(server.adminUsername, server.adminPassword)).body;
      const other = (await login(server.adminUsername, server.adminPassword)).body;
      expect((await realms(b.accessToken)).status).toBe(200);
      const out = await http("POST", `${server.url}/admin/auth/logout`, { body: { refreshToken: b.refreshToken } });
      expect([out.status, out.text, out.headers.get("cache-control")]).toEqual([204, "", "no-store"]);
      expect((await realms(b.accessToken)).status).toBe(401);
      expect((await http("GET", `${server.url}/admin/auth/me`, { headers: { Authorization: `Bearer ${b.accessToken}` } })).status).toBe(401);
      expect((await refresh(b.refreshToken)).status).toBe(401);
      expect((await realms(other.accessToken)).status).toBe(200);
      // Signing out again, or with a token that is none, answers the same.
      expect((await http("POST", `${server.url}/admin/auth/logout`, { body: { refreshToken: b.refreshToken } })).status).toBe(204);
      expect((await http("POST", `${server.url}/admin/auth/logout`, { body: { refreshToken: "not-a-token" } })).status).toBe(204);
      const empty = await http("POST", `${server.url}/admin/auth/logout`, { body: {} });
      expect([empty.status, empty.body]).toEqual([400, { error: "invalid_request", message: "refreshToken is required", field: "refreshToken" }]);
    });

    it("refuses a tampered or absent token", async () => {
      const res = await login(server.adminUsername, server.adminPassword);
      const [h, p] = res.body.accessToken.split(".");
      const forged = `${h}.${p}.${"A".repeat(43)}`;
      const bad = await http("GET", `${server.url}/admin/realms`, { headers: { Authorization: `Bearer ${forged}` } });
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({ error: "unauthorized", message: "invalid or expired admin token" });
      const me = await http("GET", `${server.url}/admin/auth/me`);
      expect(me.status).toBe(401);
      // The API key is not an admin token: /me needs a person.
      const byKey = await http("GET", `${server.url}/admin/auth/me`, { headers: { "X-Admin-API-Key": server.apiKey } });
      expect(byKey.status).toBe(401);
    });
  });

  describe("admin events", () => {
    const events = (realm: string, query = "") => api.get(`/admin/realms/${realm}/admin-events${query}`);

    it("records CREATE and UPDATE with actor and representation, without secrets", async () => {
      const name = uniqueName("ev");
      const canary = "smtp-canary-ev-7Gx";
      expect((await api.post("/admin/realms", { name, adminEventsEnabled: true, smtpPassword: canary })).status).toBe(201);
      const token = (await login(server.adminUsername, server.adminPassword)).body.accessToken;
      const upd = await http("PUT", `${server.url}/admin/realms/${name}`, {
        body: { displayName: "Changed" }, headers: { Authorization: `Bearer ${token}` },
      });
      expect(upd.status).toBe(200);

      const res = await eventually(() => events(name), (r) => r.body?.length === 2);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(2);
      const [update, createEv] = res.body; // newest first
      expect(createEv).toMatchObject({
        realm: name, operationType: "CREATE", resourceType: "REALM", resourcePath: `realms/${name}`,
        authDetails: { type: "api-key", adminId: "", username: "" },
      });
      expect(update).toMatchObject({
        realm: name, operationType: "UPDATE", resourceType: "REALM",
        authDetails: { type: "admin", username: "admin" },
      });
      expect(JSON.parse(update.representation)).toMatchObject({ name, displayName: "Changed", smtpPassword: "**********" });
      expect(Date.parse(update.time)).toBeGreaterThanOrEqual(Date.parse(createEv.time));
      expect(update.requestId).toBe(upd.headers.get("x-request-id"));
      expect(res.text).not.toContain(canary);
    });

    it("filters by operationType, resourceType and dates, and pages with first/max", async () => {
      const name = uniqueName("evf");
      await api.post("/admin/realms", { name, adminEventsEnabled: true });
      for (let i = 0; i < 3; i++) await api.put(`/admin/realms/${name}`, { displayName: `v${i}` });
      await eventually(() => events(name), (r) => r.body?.length === 4);

      const updates = await events(name, "?operationType=UPDATE");
      expect(updates.body.map((e: { operationType: string }) => e.operationType)).toEqual(["UPDATE", "UPDATE", "UPDATE"]);
      expect(JSON.parse(updates.body[0].representation).displayName).toBe("v2");
      expect((await events(name, "?operationType=DELETE")).body).toEqual([]);
      expect((await events(name, "?resourceType=REALM")).body).toHaveLength(4);
      expect((await events(name, "?resourceType=USER")).body).toEqual([]);

      const page = await events(name, "?first=1&max=2");
      expect(page.body).toHaveLength(2);
      const all = (await events(name)).body;
      expect(page.body.map((e: { id: string }) => e.id)).toEqual(all.slice(1, 3).map((e: { id: string }) => e.id));
      expect((await events(name, "?first=10")).body).toEqual([]);

      const future = new Date(Date.now() + 86_400_000).toISOString();
      expect((await events(name, `?dateFrom=${future}`)).body).toEqual([]);
      const today = new Date().toISOString().slice(0, 10);
      expect((await events(name, `?dateFrom=${today}&dateTo=${today}`)).body).toHaveLength(4);
      const past = "2000-01-01T00:00:00Z";
      expect((await events(name, `?dateTo=${past}`)).body).toEqual([]);
    });

    it("validates the query and 404s an unknown realm", async () => {
      const name = uniqueName("evq");
      await api.post("/admin/realms", { name });
      const badDate = await events(name, "?dateFrom=yesterday");
      expect(badDate.status).toBe(400);
      expect(badDate.body.field).toBe("dateFrom");
      const badMax = await events(name, "?max=-1");
      expect(badMax.status).toBe(400);
      expect(badMax.body.field).toBe("max");
      const inverted = await events(name, "?dateFrom=2026-02-01&dateTo=2026-01-01");
      expect(inverted.status).toBe(400);
      expect(inverted.body.field).toBe("dateFrom");
      expect((await events("no-such-realm")).status).toBe(404);
    });

    it("records nothing when adminEventsEnabled is false", async () => {
      const name = uniqueName("evoff");
      await api.post("/admin/realms", { name });
      await api.put(`/admin/realms/${name}`, { displayName: "x" });
      // A realm with events on, changed after, proves the bus delivered by the time we look.
      const probe = uniqueName("evprobe");
      await api.post("/admin/realms", { name: probe, adminEventsEnabled: true });
      await eventually(() => events(probe), (r) => r.body?.length === 1);
      expect((await events(name)).body).toEqual([]);
    });

    it("drops a deleted realm's events, so a new realm of the same name starts empty", async () => {
      const name = uniqueName("evdel");
      await api.post("/admin/realms", { name, adminEventsEnabled: true });
      await eventually(() => events(name), (r) => r.body?.length === 1);
      expect((await api.del(`/admin/realms/${name}`)).status).toBe(200);
      await api.post("/admin/realms", { name, adminEventsEnabled: true });
      await api.put(`/admin/realms/${name}`, { displayName: "second life" });
      const opsOf = (r: { body: Array<{ operationType: string }> }) => r.body.map((e) => e.operationType).join(",");
      const res = await eventually(() => events(name), (r) => opsOf(r) === "UPDATE,CREATE");
      expect(opsOf(res)).toBe("UPDATE,CREATE");
      expect(JSON.parse(res.body[0].representation).displayName).toBe("second life");
    });
  });

  describe("login events endpoints", () => {
    it("query and clear answer per spec 4.8, and validate", async () => {
      const name = uniqueName("lev");
      await api.post("/admin/realms", { name, eventsEnabled: true });
      const res = await api.get(`/admin/realms/${name}/events?type=LOGIN&max=10`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      const cleared = await api.del(`/admin/realms/${name}/events`);
      expect(cleared.status).toBe(204);
      expect(cleared.text).toBe("");
      expect((await api.get(`/admin/realms/${name}/events?first=x`)).body).toMatchObject({ error: "invalid_request", field: "first" });
      expect((await api.get(`/admin/realms/${name}/events?dateTo=2026-13-45`)).status).toBe(400);
      expect((await api.get("/admin/realms/no-such-realm-lev/events")).status).toBe(404);
      expect((await api.del("/admin/realms/no-such-realm-lev/events")).status).toBe(404);
      // Admin events cannot be deleted (spec 6.3).
      const noDelete = await api.del(`/admin/realms/${name}/admin-events`);
      expect(noDelete.status).toBe(405);
      expect(noDelete.headers.get("allow")).toBe("GET, HEAD");
    });
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
