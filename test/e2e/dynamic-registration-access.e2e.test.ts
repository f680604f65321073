import * as oidc from "openid-client";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";
import { awayFromMinuteEdge } from "./support/minute-edge.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// What authorizes dynamic registration (RFC 7591 section 3): initial access tokens from the Admin
// API (shown once, expiring, counted atomically) and anonymous registration where the realm allows it.
describe.each(targets())("dynamic registration access ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  const issuer = () => `${server.url}/realms/${realm}`;
  const endpoint = (r = realm) => `${server.url}/realms/${r}/clients-registrations/openid-connect`;
  const iat = (r = realm) => `/admin/realms/${r}/clients-initial-access`;
  const register = (token: string | undefined, metadata: unknown = { grant_types: ["client_credentials"] }, r = realm) =>
    http("POST", endpoint(r), { body: metadata, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const notValid = { error: "invalid_token", error_description: "the initial access token is not valid (unknown, expired or of another realm)" };

  beforeAll(async () => {
    server = await target.start("dcr-access");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("dcr-access");
    expect((await api.post("/admin/realms", { name: realm, adminEventsEnabled: true })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  it("mints a token shown once, lists it without its value, and revokes it", async () => {
    const created = await api.post(iat(), { expiration: 600, count: 3 });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const { id, token, createdAt, expiresAt } = created.body;
    expect(created.body).toEqual({ id, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expiration: 600, count: 3, remainingCount: 3, createdAt, expiresAt });
    expect(Date.parse(expiresAt) - Date.parse(createdAt)).toBe(600_000);
    const list = await api.get(iat());
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ id, expiration: 600, count: 3, remainingCount: 3, createdAt, expiresAt }]);
    expect(list.text).not.toContain(token);
    // Keycloak's paging, oldest first.
    const second = await api.post(iat(), {});
    expect((await api.get(`${iat()}?first=1&max=5`)).body.map((t: { id: string }) => t.id)).toEqual([second.body.id]);
    expect((await api.get(`${iat()}?max=1`)).body.map((t: { id: string }) => t.id)).toEqual([id]);
    const badPage = await api.get(`${iat()}?first=-1`);
    expect([badPage.status, badPage.body]).toEqual([400, { error: "invalid_request", message: "first must be a non-negative integer", field: "first" }]);
    expect((await api.del(`${iat()}/${second.body.id}`)).status).toBe(204);

    expect((await register(token)).status).toBe(201);
    expect((await api.get(iat())).body[0].remainingCount).toBe(2);

    expect((await api.del(`${iat()}/${id}`)).status).toBe(204);
    const revoked = await register(token);
    expect([revoked.status, revoked.body]).toEqual([401, notValid]);
    const again = await api.del(`${iat()}/${id}`);
    expect([again.status, again.body]).toEqual([404, { error: "initial_access_token_not_found", message: `initial access token "${id}" not found` }]);

    const events = await eventually(() => api.get(`/admin/realms/${realm}/admin-events?resourceType=CLIENT_INITIAL_ACCESS_MODEL`), (r) => (r.body ?? []).length === 4);
    expect(events.body.map((e: { operationType: string; resourcePath: string }) => [e.operationType, e.resourcePath])).toEqual([
      ["DELETE", `clients-initial-access/${id}`], ["DELETE", `clients-initial-access/${second.body.id}`],
      ["CREATE", `clients-initial-access/${second.body.id}`], ["CREATE", `clients-initial-access/${id}`],
    ]);
    expect(events.text).not.toContain(token);
  });

  it("validates the token's expiration and count, naming the field", async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ expiration: -1 }, "expiration", "expiration must be an integer from 0 to 31536000"],
      [{ count: 0 }, "count", "count must be an integer from 1 to 100000"],
    ];
    for (const [body, field, message] of cases) {
      const res = await api.post(iat(), body);
      expect([res.status, res.body]).toEqual([400, { error: "invalid_request", message, field }]);
    }
    const unknown = await api.post(iat(), { uses: 2 });
    expect([unknown.status, unknown.body]).toEqual([400, { error: "unknown_field", message: "unknown or read-only field: uses", field: "uses" }]);
    const forever = await api.post(iat(), { expiration: 0 });
    expect(forever.body).toMatchObject({ expiration: 0, count: 1, remainingCount: 1 });
    expect(forever.body).not.toHaveProperty("expiresAt");
  });

  it("refuses an expired token, another realm's token and a made-up one with 401 invalid_token", async () => {
    const short = await api.post(iat(), { expiration: 1 });
    await new Promise((r) => setTimeout(r, 1_300));
    const expired = await register(short.body.token);
    expect([expired.status, expired.body]).toEqual([401, notValid]);
    expect(expired.headers.get("www-authenticate")).toBe(`Bearer realm="${realm}", error="invalid_token", error_description="${notValid.error_description}"`);

    const other = uniqueName("dcr-other");
    expect((await api.post("/admin/realms", { name: other })).status).toBe(201);
    const foreign = await api.post(iat(other), {});
    const cross = await register(foreign.body.token);
    expect([cross.status, cross.body]).toEqual([401, notValid]);
    expect((await register(foreign.body.token, undefined, other)).status).toBe(201);
    // A deleted realm's token is not the one of a realm re-created under its name.
    const spare = await api.post(iat(other), { count: 5 });
    expect((await api.del(`/admin/realms/${other}`)).status).toBe(200);
    expect((await api.post("/admin/realms", { name: other })).status).toBe(201);
    const gone = await register(spare.body.token, undefined, other);
    expect([gone.status, gone.body]).toEqual([401, notValid]);

    const made = await register("not-a-token");
    expect([made.status, made.body]).toEqual([401, notValid]);
  });

  it("registers exactly one client when concurrent registrations share a one-use token", async () => {
    const one = await api.post(iat(), { count: 1 });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => register(one.body.token, { grant_types: ["client_credentials"], client_name: `racer-${i}` })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 401, 401, 401, 401, 401]);
    for (const r of results.filter((x) => x.status === 401)) expect(r.body).toEqual({ error: "invalid_token", error_description: expect.stringMatching(/^the initial access token has no registrations left$/) });
    const racers = (await api.get(`/admin/realms/${realm}/clients`)).body.filter((c: { name: string }) => c.name.startsWith("racer-"));
    expect(racers).toHaveLength(1);
    expect((await api.get(iat())).body.find((t: { id: string }) => t.id === one.body.id).remainingCount).toBe(0);
  });

  it("refuses anonymous registration by default, and allows it once the realm's policy does", async () => {
    const policy = await api.get(`/admin/realms/${realm}/client-registration-policy`);
    expect(policy.body).toEqual({
      anonymousRegistrationAllowed: false, allowedRedirectUriHosts: [], maxClients: 200, registeredClients: expect.any(Number),
      allowedGrantTypes: ["authorization_code", "client_credentials", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
    });
    const refused = await register(undefined);
    expect([refused.status, refused.body]).toEqual([401, { error: "invalid_token", error_description: "an initial access token is required: the realm does not allow anonymous registration" }]);
    await expect(oidc.dynamicClientRegistration(new URL(issuer()), { grant_types: ["client_credentials"] }, undefined, { execute: [oidc.allowInsecureRequests] }))
      .rejects.toMatchObject({ status: 401 });

    expect((await api.put(`/admin/realms/${realm}/client-registration-policy`, { anonymousRegistrationAllowed: true })).body.anonymousRegistrationAllowed).toBe(true);
    const config = await oidc.dynamicClientRegistration(new URL(issuer()), { grant_types: ["client_credentials"], client_name: "anon" }, undefined, { execute: [oidc.allowInsecureRequests] });
    expect(config.clientMetadata()).toMatchObject({ client_name: "anon", token_endpoint_auth_method: "client_secret_basic" });
    expect((await oidc.clientCredentialsGrant(config)).access_token).toEqual(expect.any(String));
    const badBearer = await http("POST", endpoint(), { body: {}, headers: { authorization: "Basic eDp5" } });
    expect([badBearer.status, badBearer.body]).toEqual([401, { error: "invalid_token", error_description: "the Authorization header must carry a Bearer token" }]);
    await api.put(`/admin/realms/${realm}/client-registration-policy`, { anonymousRegistrationAllowed: false });
    expect((await register(undefined)).status).toBe(401);
  });

  it("counts registrations against the realm's per-address rate limit, answering 429 in OAuth format", async () => {
    const limited = uniqueName("dcr-limited");
    expect((await api.post("/admin/realms", { name: limited, rateLimitPerIp: 2 })).status).toBe(201);
    await awayFromMinuteEdge();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await register(undefined, undefined, limited));
    expect(statuses.map((r) => r.status)).toEqual([401, 401, 429]);
    expect(statuses[2]!.body).toEqual({ error: "too_many_requests", error_description: expect.stringMatching(/^rate limit exceeded; retry after \d+ s$/) });
    expect(statuses[2]!.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("answers 404 realm_not_found for an unknown or disabled realm", async () => {
    const off = uniqueName("dcr-off");
    expect((await api.post("/admin/realms", { name: off, enabled: false })).status).toBe(201);
    const token = (await api.post(iat(off), {})).body.token as string;
    const disabled = await register(token, undefined, off);
    expect([disabled.status, disabled.body]).toEqual([404, { error: "realm_not_found", error_description: "realm not found" }]);
    const unknown = await register(token, undefined, "no-such-realm");
    expect([unknown.status, unknown.body]).toEqual([404, { error: "realm_not_found", error_description: 'realm "no-such-realm" not found' }]);
  });

  it("documents every response it received", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
