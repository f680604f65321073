import { adminApi, http, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Realm Admin API, spec 2.1 and 4.1, in every run mode.
describe.each(targets())("realms ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await target.start("realms");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  it("creates a realm with every spec default", async () => {
    const name = uniqueName("defaults");
    const res = await api.post("/admin/realms", { name });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name, displayName: "", enabled: true,
      accessTokenLifespan: 300, refreshTokenLifespan: 1800, offlineTokenLifespan: 2592000,
      smtpHost: "", smtpPort: 587, smtpUser: "", smtpFrom: "", smtpSecure: false,
      passwordMinLength: 8, passwordRequireUppercase: false, passwordRequireLowercase: false,
      passwordRequireDigits: false, passwordRequireSpecialChars: false, passwordHistoryCount: 0,
      passwordMaxAgeDays: 0, bruteForceEnabled: false, maxLoginFailures: 5, lockoutDuration: 900,
      failureResetTime: 43200, permanentLockoutAfter: 0, registrationAllowed: true,
      requireEmailVerification: false, mfaRequired: false, eventsEnabled: false, eventsExpiration: 604800,
      adminEventsEnabled: false, themeName: "tessera", theme: {},
      loginTheme: "tessera", accountTheme: "tessera", emailTheme: "tessera",
      ssoSessionMaxLifespan: 36000,
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).not.toHaveProperty("smtpPassword");
    expect(Date.parse(res.body.createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("creates a realm with every create field, and never returns the SMTP password", async () => {
    const name = uniqueName("full");
    const canary = "smtp-canary-Zq81x";
    const body = {
      name, displayName: "Full <Realm>", enabled: false, accessTokenLifespan: 60, refreshTokenLifespan: 600,
      offlineTokenLifespan: 86400, smtpHost: "mail.example.test", smtpPort: 2525, smtpUser: "mailer",
      smtpPassword: canary, smtpFrom: "noreply@example.test", smtpSecure: true, passwordMinLength: 12,
      passwordRequireUppercase: true, passwordRequireLowercase: true, passwordRequireDigits: true,
      passwordRequireSpecialChars: true, passwordHistoryCount: 3, passwordMaxAgeDays: 90, bruteForceEnabled: true,
      maxLoginFailures: 3, lockoutDuration: 60, failureResetTime: 120, permanentLockoutAfter: 2,
      registrationAllowed: false, requireEmailVerification: true, mfaRequired: true, eventsEnabled: true,
      eventsExpiration: 3600, adminEventsEnabled: true, themeName: "midnight",
      theme: { primaryColor: "#1a73e8", logoUrl: "https://cdn.example.test/logo.png" },
      loginTheme: "ocean", accountTheme: "minimal", emailTheme: "tessera", ssoSessionMaxLifespan: 0,
    };
    const res = await api.post("/admin/realms", body);
    expect(res.status).toBe(201);
    const { smtpPassword: _omit, ...rest } = body;
    expect(res.body).toMatchObject(rest);
    expect(res.body.smtpPassword).toBe("**********");
    expect(res.text).not.toContain(canary);
    const got = await api.get(`/admin/realms/${name}`);
    expect(got.status).toBe(200);
    expect(got.body.smtpPassword).toBe("**********");
    expect(got.text).not.toContain(canary);
    const list = await api.get("/admin/realms");
    expect(list.text).not.toContain(canary);
  });

  it("pages and searches the realm list with search, first and max, and names a bad max", async () => {
    const tag = uniqueName("pg");
    const names = [`${tag}-a`, `${tag}-b`, `${tag}-c`];
    for (const name of names) expect((await api.post("/admin/realms", { name, displayName: name === `${tag}-b` ? "Bravo Team" : "" })).status).toBe(201);
    const page = async (q: string): Promise<string[]> => {
      const res = await api.get(`/admin/realms?${q}`);
      expect(res.status).toBe(200);
      return res.body.map((r: { name: string }) => r.name);
    };
    // In creation order, as the whole list is.
    expect(await page(`search=${tag}`)).toEqual(names);
    expect(await page(`search=${tag.toUpperCase()}&first=1&max=1`)).toEqual([`${tag}-b`]);
    expect(await page(`search=${tag}&first=2&max=5`)).toEqual([`${tag}-c`]);
    expect(await page(`search=${tag}&first=3`)).toEqual([]);
    // The display name matches too, case-insensitively.
    expect(await page(`search=bravo%20team&max=1000`)).toContain(`${tag}-b`);
    expect((await api.get("/admin/realms?max=2")).body).toHaveLength(2);
    for (const q of ["max=0", "max=1001", "max=x", "first=-1"]) {
      const bad = await api.get(`/admin/realms?${q}`);
      expect([q, bad.status, bad.body.field]).toEqual([q, 400, q.split("=")[0]]);
    }
  });

  it("answers 409 for a duplicate name", async () => {
    const name = uniqueName("dup");
    expect((await api.post("/admin/realms", { name })).status).toBe(201);
    const again = await api.post("/admin/realms", { name });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: "conflict", message: `realm "${name}" already exists`, field: "name" });
  });

  it.each([
    [{}, "name", "invalid_request"],
    [{ name: "" }, "name", "invalid_request"],
    [{ name: "Upper" }, "name", "invalid_request"],
    [{ name: "has space" }, "name", "invalid_request"],
    [{ name: "-dash" }, "name", "invalid_request"],
    [{ name: "themes" }, "name", "invalid_request"],
    [{ name: "x".repeat(65) }, "name", "invalid_request"],
    [{ name: "ok-name", enabled: "yes" }, "enabled", "invalid_field"],
    [{ name: "ok-name", accessTokenLifespan: 0 }, "accessTokenLifespan", "invalid_request"],
    [{ name: "ok-name", accessTokenLifespan: 1.5 }, "accessTokenLifespan", "invalid_field"],
    [{ name: "ok-name", smtpPort: 70000 }, "smtpPort", "invalid_request"],
    [{ name: "ok-name", smtpFrom: "not-an-email" }, "smtpFrom", "invalid_request"],
    [{ name: "ok-name", themeName: "nope" }, "themeName", "invalid_request"],
    [{ name: "ok-name", theme: { primaryColor: "red" } }, "theme.primaryColor", "invalid_request"],
    [{ name: "ok-name", theme: { logoUrl: "javascript:alert(1)" } }, "theme.logoUrl", "invalid_request"],
    [{ name: "ok-name", theme: { fontFamily: "x" } }, "theme.fontFamily", "invalid_request"],
    [{ name: "ok-name", id: "x" }, "id", "unknown_field"],
    [{ name: "ok-name", bogus: 1 }, "bogus", "unknown_field"],
  ])("refuses %j with a 400 naming %s", async (body, field, reason) => {
    const res = await api.post("/admin/realms", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(reason);
    expect(res.body.field).toBe(field);
    expect(typeof res.body.message).toBe("string");
  });

  // The hosted pages' CSP (img-src 'self' data: https:) blocks any other image: an http logo vanished silently.
  it.each([
    ["logoUrl", "an http URL", "http://cdn.example.test/logo.png"],
    ["faviconUrl", "an http URL", "http://cdn.example.test/favicon.ico"],
    ["logoUrl", "an https URL over 2048 characters", `https://cdn.example.test/${"a".repeat(2048)}.png`],
    ["logoUrl", "a relative URL", "cdn.example.test/logo.png"],
  ])("refuses theme.%s as %s on create and update, saying https", async (key, _label, url) => {
    const message = `theme.${key} must be an absolute https URL of at most 2048 characters (the hosted pages' Content-Security-Policy blocks http images)`;
    const name = uniqueName("img");
    const created = await api.post("/admin/realms", { name, theme: { [key]: url } });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ error: "invalid_request", message, field: `theme.${key}` });
    expect((await api.post("/admin/realms", { name, theme: { [key]: "https://cdn.example.test/i.png" } })).status).toBe(201);
    const updated = await api.put(`/admin/realms/${name}`, { theme: { [key]: url } });
    expect(updated.status).toBe(400);
    expect(updated.body).toEqual({ error: "invalid_request", message, field: `theme.${key}` });
    expect((await api.get(`/admin/realms/${name}`)).body.theme).toEqual({ [key]: "https://cdn.example.test/i.png" });
  });

  it("accepts a name of exactly 64 and 1 characters", async () => {
    const long = `a${Date.now().toString(36)}`.padEnd(64, "z");
    expect((await api.post("/admin/realms", { name: long })).status).toBe(201);
    const short = await api.post("/admin/realms", { name: "q" });
    expect(short.status).toBe(201);
    expect(short.body.name).toBe("q");
  });

  it("refuses malformed JSON and non-object bodies", async () => {
    const bad = await api.call("POST", "/admin/realms", "{not json");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "invalid_json", message: "request body is not valid JSON" });
    const arr = await api.post("/admin/realms", [1, 2]);
    expect(arr.status).toBe(400);
    expect(arr.body.error).toBe("invalid_request");
  });

  it("lists realms ordered by creation date", async () => {
    const a = uniqueName("order-a");
    const b = uniqueName("order-b");
    await api.post("/admin/realms", { name: b });
    await api.post("/admin/realms", { name: a });
    const res = await api.get("/admin/realms");
    expect(res.status).toBe(200);
    const names: string[] = res.body.map((r: { name: string }) => r.name);
    expect(names.indexOf(b)).toBeGreaterThanOrEqual(0);
    expect(names.indexOf(b)).toBeLessThan(names.indexOf(a));
    const times = res.body.map((r: { createdAt: string }) => Date.parse(r.createdAt));
    expect([...times].sort((x, y) => x - y)).toEqual(times);
  });

  it("gets a realm, and 404s an unknown one", async () => {
    const name = uniqueName("get");
    await api.post("/admin/realms", { name, displayName: "Get Me" });
    const res = await api.get(`/admin/realms/${name}`);
    expect(res.status).toBe(200);
    expect(res.body.displayName).toBe("Get Me");
    const missing = await api.get("/admin/realms/does-not-exist");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "realm_not_found", message: 'realm "does-not-exist" not found' });
  });

  it("updates only the update fields and leaves the rest", async () => {
    const name = uniqueName("upd");
    await api.post("/admin/realms", { name, smtpPassword: "first-secret", bruteForceEnabled: true });
    const res = await api.put(`/admin/realms/${name}`, {
      displayName: "Renamed", enabled: false, accessTokenLifespan: 120, refreshTokenLifespan: 240,
      smtpHost: "smtp.example.test", smtpPort: 465, smtpUser: "u", smtpFrom: "a@example.test",
      registrationAllowed: false, mfaRequired: true, themeName: "ocean", theme: { primaryColor: "#000" },
      ssoSessionMaxLifespan: 7200,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name, displayName: "Renamed", enabled: false, accessTokenLifespan: 120, refreshTokenLifespan: 240,
      smtpHost: "smtp.example.test", smtpPort: 465, smtpUser: "u", smtpFrom: "a@example.test",
      registrationAllowed: false, mfaRequired: true, themeName: "ocean", theme: { primaryColor: "#000" },
      bruteForceEnabled: true, offlineTokenLifespan: 2592000, smtpPassword: "**********", ssoSessionMaxLifespan: 7200,
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(res.body.createdAt));
    // Partial: one field only.
    const one = await api.put(`/admin/realms/${name}`, { displayName: "Again" });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ displayName: "Again", accessTokenLifespan: 120, theme: { primaryColor: "#000" } });
    // An empty theme object clears the overrides.
    const cleared = await api.put(`/admin/realms/${name}`, { theme: {} });
    expect(cleared.body.theme).toEqual({});
  });

  it.each([
    [{ name: "renamed" }, "name"],
    [{ bruteForceEnabled: false }, "bruteForceEnabled"],
    [{ offlineTokenLifespan: 5 }, "offlineTokenLifespan"],
    [{ adminEventsEnabled: true }, "adminEventsEnabled"],
    [{ id: "x" }, "id"],
    [{ createdAt: "2020-01-01T00:00:00Z" }, "createdAt"],
    [{ themePresent: true }, "themePresent"],
  ])("refuses the read-only or create-only field in %j", async (body, field) => {
    const name = uniqueName("ro");
    await api.post("/admin/realms", { name });
    const res = await api.put(`/admin/realms/${name}`, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "unknown_field", message: `unknown or read-only field: ${field}`, field });
    const after = await api.get(`/admin/realms/${name}`);
    expect(after.body.name).toBe(name);
  });

  it("validates update values and 404s an unknown realm", async () => {
    const name = uniqueName("updv");
    await api.post("/admin/realms", { name });
    const bad = await api.put(`/admin/realms/${name}`, { refreshTokenLifespan: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("refreshTokenLifespan");
    for (const ssoSessionMaxLifespan of [-1, 315_360_001]) {
      const out = await api.put(`/admin/realms/${name}`, { ssoSessionMaxLifespan });
      expect(out.status).toBe(400);
      expect(out.body).toMatchObject({ error: "invalid_request", field: "ssoSessionMaxLifespan" });
    }
    expect((await api.get(`/admin/realms/${name}`)).body.ssoSessionMaxLifespan).toBe(36000);
    const missing = await api.put("/admin/realms/nope-nope", { displayName: "x" });
    expect(missing.status).toBe(404);
  });

  it("changes the SMTP password only when a real value is sent", async () => {
    const name = uniqueName("smtp");
    await api.post("/admin/realms", { name, smtpPassword: "one" });
    const echoed = await api.put(`/admin/realms/${name}`, { smtpPassword: "**********" });
    expect(echoed.body.smtpPassword).toBe("**********");
    const removed = await api.put(`/admin/realms/${name}`, { smtpPassword: "" });
    expect(removed.status).toBe(200);
    expect(removed.body).not.toHaveProperty("smtpPassword");
  });

  it("deletes a realm, returning it, then 404s", async () => {
    const name = uniqueName("del");
    await api.post("/admin/realms", { name });
    const res = await api.del(`/admin/realms/${name}`);
    expect(res.status).toBe(200);
    expect(res.body.name).toBe(name);
    expect((await api.get(`/admin/realms/${name}`)).status).toBe(404);
    expect((await api.del(`/admin/realms/${name}`)).status).toBe(404);
  });

  it("lists the theme presets", async () => {
    const res = await api.get("/admin/realms/themes");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(["tessera", "midnight", "ocean", "minimal"]);
  });

  it("answers 405 with Allow for a known path and 404 for an unknown one", async () => {
    const res = await api.call("PATCH", "/admin/realms");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, GET, HEAD");
    const themes = await api.call("DELETE", "/admin/realms/themes");
    expect(themes.status).toBe(405);
    expect(themes.headers.get("allow")).toBe("GET, HEAD");
    const unknown = await api.get("/admin/nothing-here");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("not_found");
  });

  it("answers 400, not 500, for a path whose percent-encoding is broken", async () => {
    const res = await api.get("/admin/realms/%E0%A4%A");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "invalid_request", message: "the request path is not valid percent-encoded UTF-8" });
    // On an OAuth endpoint the same failure is an RFC 6749 section 5.2 error.
    const token = await fetch(`${server.url}/realms/%E0%A4%A/protocol/openid-connect/token`, {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials",
    });
    expect(token.status).toBe(400);
    expect(await token.json()).toEqual({ error: "invalid_request", error_description: "the request path is not valid percent-encoded UTF-8" });
  });

  it("requires credentials: 401 without, 401 with a wrong key", async () => {
    const none = await http("GET", `${server.url}/admin/realms`);
    expect(none.status).toBe(401);
    expect(none.body.error).toBe("unauthorized");
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="tessera-admin"');
    const wrong = await http("GET", `${server.url}/admin/realms`, { headers: { "X-Admin-API-Key": "wrong" } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: "unauthorized", message: "invalid API key" });
    const create = await http("POST", `${server.url}/admin/realms`, { body: { name: uniqueName("noauth") } });
    expect(create.status).toBe(401);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
