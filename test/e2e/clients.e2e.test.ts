import { readFileSync } from "node:fs";
import { adminApi, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Client Admin API, spec 1.11, 2.3, 4.3 (methods per DESIGN 7), in every run mode.
describe.each(targets())("clients ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  const clients = () => `/admin/realms/${realm}/clients`;

  beforeAll(async () => {
    server = await target.start("clients");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("clients");
    expect((await api.post("/admin/realms", { name: realm, adminEventsEnabled: true })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  it("creates a confidential client with every default and a secret shown once", async () => {
    const clientId = uniqueName("app");
    const res = await api.post(clients(), { clientId });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), clientId, name: "", description: "", clientType: "CONFIDENTIAL",
      enabled: true, redirectUris: [], webOrigins: [], grantTypes: ["authorization_code", "refresh_token"],
      requireConsent: false, backchannelLogoutUri: "", backchannelLogoutSessionRequired: true,
      tokenEndpointAuthMethod: "client_secret_basic", clientAuthenticatorType: "client-secret", jwksUri: "",
      requestObjectSignatureAlg: "", requirePushedAuthorizationRequests: false, dpopBoundAccessTokens: false, dpopNonceRequired: false, standardTokenExchangeEnabled: false,
      idTokenSignedResponseAlg: "", accessTokenSignedResponseAlg: "", clientProfile: "",
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    const secret = res.body.secret as string;
    const got = await api.get(`${clients()}/${clientId}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty("secret");
    expect(got.text).not.toContain(secret);
    const list = await api.get(clients());
    expect(list.status).toBe(200);
    expect(list.body.map((c: { clientId: string }) => c.clientId)).toContain(clientId);
    expect(list.text).not.toContain(secret);
  });

  it("creates a client with every create field", async () => {
    const clientId = uniqueName("full");
    const body = {
      clientId, name: "Full <App>", description: "d", clientType: "PUBLIC", enabled: false,
      redirectUris: ["https://app.example.test/cb", "http://localhost:3000/cb", "com.example.app:/oauth2redirect"],
      webOrigins: ["https://app.example.test", "+"], grantTypes: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
      requireConsent: true, backchannelLogoutUri: "https://app.example.test/bcl", backchannelLogoutSessionRequired: false,
    };
    const res = await api.post(clients(), body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(body);
    expect(res.body).not.toHaveProperty("secret");
  });

  it("accepts the migration field `type` and refuses a disagreement with clientType", async () => {
    const pub = await api.post(clients(), { clientId: uniqueName("mig"), type: "public" });
    expect(pub.status).toBe(201);
    expect(pub.body.clientType).toBe("PUBLIC");
    const conf = await api.post(clients(), { clientId: uniqueName("mig"), type: "confidential", clientType: "CONFIDENTIAL" });
    expect(conf.status).toBe(201);
    expect(conf.body.clientType).toBe("CONFIDENTIAL");
    const bad = await api.post(clients(), { clientId: uniqueName("mig"), type: "public", clientType: "CONFIDENTIAL" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "invalid_request", message: "type and clientType disagree", field: "type" });
    const upper = await api.post(clients(), { clientId: uniqueName("mig"), type: "PUBLIC" });
    expect(upper.status).toBe(400);
    expect(upper.body.field).toBe("type");
  });

  it("requires clientId of at least 2 characters", async () => {
    const one = await api.post(clients(), { clientId: "a" });
    expect(one.status).toBe(400);
    expect(one.body).toEqual({ error: "invalid_request", message: "clientId must be at least 2 characters", field: "clientId" });
    const missing = await api.post(clients(), {});
    expect(missing.body).toEqual({ error: "invalid_request", message: "clientId is required", field: "clientId" });
    const two = await api.post(clients(), { clientId: "ab" });
    expect(two.status).toBe(201);
    const slug = await api.post(clients(), { clientId: "Not A Slug" });
    expect(slug.status).toBe(400);
    expect(slug.body.field).toBe("clientId");
  });

  it("answers 409 for a duplicate clientId, and exactly one 201 under concurrency", async () => {
    const clientId = uniqueName("dup");
    const results = await Promise.all(Array.from({ length: 8 }, () => api.post(clients(), { clientId })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const conflict = results.find((r) => r.status === 409);
    expect(conflict?.body).toEqual({ error: "conflict", message: `client "${clientId}" already exists`, field: "clientId" });
  });

  it.each([
    ["https://app.example.test/cb", 201],
    ["https://app.example.test/cb?x=1", 201],
    ["http://localhost:8080/cb", 201],
    ["http://127.0.0.1/cb", 201],
    ["http://[::1]:9000/cb", 201],
    ["com.example.app:/oauth2redirect", 201],
    ["http://app.example.test/cb", 400],
    ["https://app.example.test/cb#frag", 400],
    ["https://*.example.test/cb", 400],
    ["https://app.example.test/*", 400],
    ["javascript:alert(1)", 400],
    ["JAVASCRIPT:alert(1)", 400],
    ["data:text/html,hi", 400],
    ["VBScript:msgbox", 400],
    ["file:///etc/passwd", 400],
    ["/relative/cb", 400],
    ["not a uri", 400],
    ["myapp:/cb", 400],
  ])("redirect URI %s -> %i", async (uri, status) => {
    const res = await api.post(clients(), { clientId: uniqueName("ru"), redirectUris: [uri] });
    expect(res.status).toBe(status);
    if (status === 400) {
      expect(res.body.error).toBe("invalid_request");
      expect(res.body.field).toBe("redirectUris[0]");
    }
  });

  it.each([
    [{ webOrigins: ["https://app.example.test/path"] }, "webOrigins[0]"],
    [{ webOrigins: ["https://*.example.test"] }, "webOrigins[0]"],
    [{ grantTypes: ["implicit"] }, "grantTypes[0]"],
    [{ clientType: "PUBLIC", grantTypes: ["client_credentials"] }, "grantTypes"],
    [{ clientType: "internal" }, "clientType"],
    [{ backchannelLogoutUri: "http://rp.example.test/bcl" }, "backchannelLogoutUri"],
    [{ backchannelLogoutUri: "relative" }, "backchannelLogoutUri"],
    [{ enabled: "yes" }, "enabled"],
    [{ secret: "mine" }, "secret"],
    [{ id: "x" }, "id"],
    [{ grantTypesPresent: true }, "grantTypesPresent"],
  ])("refuses %j naming %s", async (extra, field) => {
    const res = await api.post(clients(), { clientId: uniqueName("bad"), ...extra });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  // webOrigins holds what CORS (gateway/src/oidc/cors.ts) can match, Keycloak's forms: "*", "+", exact origins.
  it("accepts \"*\" and \"+\" as web origins, on create and update", async () => {
    const clientId = uniqueName("wo");
    const created = await api.post(clients(), { clientId, webOrigins: ["*", "+", "https://app.example.test"] });
    expect(created.status).toBe(201);
    expect(created.body.webOrigins).toEqual(["*", "+", "https://app.example.test"]);
    const updated = await api.put(`${clients()}/${clientId}`, { webOrigins: ["*"] });
    expect(updated.status).toBe(200);
    expect((await api.get(`${clients()}/${clientId}`)).body.webOrigins).toEqual(["*"]);
  });

  const WEB_ORIGIN_RULE = 'an origin like https://app.example.com (scheme, host and port only, as browsers send it), "+" (the origins of the redirect URIs) or "*" (any origin)';
  it.each([
    ["https://*.example.test", 0, `webOrigins[0] must not contain a wildcard; it must be ${WEB_ORIGIN_RULE}`],
    ["https://app.example.test/", 1, `webOrigins[1] must be ${WEB_ORIGIN_RULE}`],
    ["https://App.example.test", 1, `webOrigins[1] must be ${WEB_ORIGIN_RULE}`],
  ])("refuses the web origin %s that no Origin header could match, with the 400 body", async (origin, index, message) => {
    const list = index === 0 ? [origin] : ["+", origin];
    const clientId = uniqueName("wo");
    const created = await api.post(clients(), { clientId, webOrigins: list });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ error: "invalid_request", message, field: `webOrigins[${index}]` });
    expect((await api.post(clients(), { clientId })).status).toBe(201);
    const updated = await api.put(`${clients()}/${clientId}`, { webOrigins: list });
    expect(updated.status).toBe(400);
    expect(updated.body).toEqual({ error: "invalid_request", message, field: `webOrigins[${index}]` });
  });

  it("404s unknown realms and clients", async () => {
    const r = await api.get("/admin/realms/no-such-realm/clients");
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: "realm_not_found", message: 'realm "no-such-realm" not found' });
    const c = await api.get(`${clients()}/nope`);
    expect(c.status).toBe(404);
    expect(c.body).toEqual({ error: "client_not_found", message: 'client "nope" not found' });
    for (const [m, p] of [["PUT", ""], ["DELETE", ""], ["POST", "/regenerate-secret"], ["GET", "/service-account-user"]] as const) {
      const res = await api.call(m, `${clients()}/nope${p}`, m === "PUT" ? { name: "x" } : undefined);
      expect(res.status).toBe(404);
    }
  });

  it("updates only the update fields", async () => {
    const clientId = uniqueName("upd");
    await api.post(clients(), { clientId, redirectUris: ["https://a.example.test/cb"], backchannelLogoutSessionRequired: false });
    const res = await api.put(`${clients()}/${clientId}`, {
      name: "N", description: "D", enabled: false, redirectUris: ["https://b.example.test/cb"], webOrigins: ["+"],
      grantTypes: ["authorization_code"], requireConsent: true, backchannelLogoutUri: "https://b.example.test/bcl",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      clientId, name: "N", description: "D", enabled: false, redirectUris: ["https://b.example.test/cb"], webOrigins: ["+"],
      grantTypes: ["authorization_code"], requireConsent: true, backchannelLogoutUri: "https://b.example.test/bcl",
      backchannelLogoutSessionRequired: false, clientType: "CONFIDENTIAL",
    });
    expect(res.body).not.toHaveProperty("secret");
    const partial = await api.put(`${clients()}/${clientId}`, { name: "M" });
    expect(partial.body).toMatchObject({ name: "M", description: "D", redirectUris: ["https://b.example.test/cb"] });
    const cleared = await api.put(`${clients()}/${clientId}`, { redirectUris: [] });
    expect(cleared.body.redirectUris).toEqual([]);
  });

  it.each([
    [{ clientId: "other" }, "clientId"],
    [{ clientType: "PUBLIC" }, "clientType"],
    [{ type: "public" }, "type"],
    [{ backchannelLogoutSessionRequired: true }, "backchannelLogoutSessionRequired"],
    [{ secret: "x" }, "secret"],
    [{ id: "x" }, "id"],
    [{ createdAt: "2020-01-01T00:00:00Z" }, "createdAt"],
    [{ redirectUrisPresent: true }, "redirectUrisPresent"],
  ])("refuses the read-only or create-only field in %j on update", async (body, field) => {
    const clientId = uniqueName("ro");
    await api.post(clients(), { clientId });
    const res = await api.put(`${clients()}/${clientId}`, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "unknown_field", message: `unknown or read-only field: ${field}`, field });
  });

  it("validates update values", async () => {
    const clientId = uniqueName("updv");
    await api.post(clients(), { clientId, clientType: "PUBLIC" });
    const ru = await api.put(`${clients()}/${clientId}`, { redirectUris: ["javascript:alert(1)"] });
    expect(ru.status).toBe(400);
    expect(ru.body.field).toBe("redirectUris[0]");
    const cc = await api.put(`${clients()}/${clientId}`, { grantTypes: ["client_credentials"] });
    expect(cc.status).toBe(400);
    expect(cc.body).toEqual({ error: "invalid_request", message: "a PUBLIC client cannot use client_credentials", field: "grantTypes" });
  });

  it("regenerates the secret of a confidential client, refuses it for a public one", async () => {
    const clientId = uniqueName("regen");
    const created = await api.post(clients(), { clientId });
    const res = await api.post(`${clients()}/${clientId}/regenerate-secret`);
    expect(res.status).toBe(200);
    expect(res.body.clientId).toBe(clientId);
    expect(res.body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.secret).not.toBe(created.body.secret);
    const pub = uniqueName("pub");
    await api.post(clients(), { clientId: pub, clientType: "PUBLIC" });
    const refused = await api.post(`${clients()}/${pub}/regenerate-secret`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: "public_client", message: "a PUBLIC client has no secret", field: "clientType" });
  });

  it("gives client_credentials clients a service-account user, following grant changes and deletion", async () => {
    const clientId = uniqueName("svc");
    await api.post(clients(), { clientId, grantTypes: ["client_credentials"] });
    const sa = await api.get(`${clients()}/${clientId}/service-account-user`);
    expect(sa.status).toBe(200);
    expect(sa.body).toMatchObject({ username: `service-account-${clientId}`, enabled: true, serviceAccountClientId: clientId });
    expect(sa.body.id).toMatch(/^[0-9a-f-]{36}$/);

    const plain = uniqueName("nosvc");
    await api.post(clients(), { clientId: plain });
    const none = await api.get(`${clients()}/${plain}/service-account-user`);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ error: "service_account_not_found", message: `service-account user of client "${plain}" not found` });
    // Added by update, removed by update.
    await api.put(`${clients()}/${plain}`, { grantTypes: ["client_credentials"] });
    expect((await api.get(`${clients()}/${plain}/service-account-user`)).status).toBe(200);
    await api.put(`${clients()}/${plain}`, { grantTypes: ["authorization_code"] });
    expect((await api.get(`${clients()}/${plain}/service-account-user`)).status).toBe(404);

    // Deleting the client deletes the user: a new client with the same clientId gets a new user.
    expect((await api.del(`${clients()}/${clientId}`)).status).toBe(204);
    await api.post(clients(), { clientId, grantTypes: ["client_credentials"] });
    const again = await api.get(`${clients()}/${clientId}/service-account-user`);
    expect(again.status).toBe(200);
    expect(again.body.id).not.toBe(sa.body.id);
  });

  it.each([
    ["the client is deleted", (clientId: string) => api.del(`${clients()}/${clientId}`), 204],
    ["the client loses client_credentials", (clientId: string) => api.put(`${clients()}/${clientId}`, { grantTypes: ["authorization_code"] }), 200],
  ] as const)("removes the service-account user from its groups when %s, as a deleted user (spec 4.6)", async (_when, removeIt, status) => {
    const clientId = uniqueName("grouped");
    expect((await api.post(clients(), { clientId, grantTypes: ["client_credentials"] })).status).toBe(201);
    const sa = (await api.get(`${clients()}/${clientId}/service-account-user`)).body;
    const users = `/admin/realms/${realm}/users`;
    // "zz-" sorts after "service-account-": a membership left behind would take the first page.
    const human = await api.post(users, { username: uniqueName("zz-member") });
    expect(human.status).toBe(201);
    const group = await api.post(`/admin/realms/${realm}/groups`, { name: uniqueName("robots") });
    expect(group.status).toBe(201);
    const groupPath = `/admin/realms/${realm}/groups/${group.body.id}`;
    for (const userId of [sa.id, human.body.id]) {
      const added = await api.put(`${users}/${userId}/groups/${group.body.id}`);
      expect([added.status, added.body]).toEqual([200, { userId, groupId: group.body.id }]);
    }
    const before = await api.get(`${groupPath}/members`);
    expect([before.status, before.body.map((u: { id: string }) => u.id)]).toEqual([200, [sa.id, human.body.id]]);

    expect((await removeIt(clientId)).status).toBe(status);
    expect((await api.get(`${clients()}/${clientId}/service-account-user`)).status).toBe(404);
    const members = await api.get(`${groupPath}/members`);
    expect([members.status, members.body]).toEqual([200, [human.body]]);
    const firstPage = await api.get(`${groupPath}/members?first=0&max=1`);
    expect([firstPage.status, firstPage.body]).toEqual([200, [human.body]]);
    const got = await api.get(groupPath);
    expect([got.status, got.body.memberCount]).toEqual([200, 1]);
    const groupsOfSa = await api.get(`${users}/${sa.id}/groups`);
    expect([groupsOfSa.status, groupsOfSa.body]).toEqual([404, { error: "user_not_found", message: `user "${sa.id}" not found` }]);
  });

  it("deletes a client with 204, then 404s", async () => {
    const clientId = uniqueName("del");
    await api.post(clients(), { clientId });
    const res = await api.del(`${clients()}/${clientId}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await api.get(`${clients()}/${clientId}`)).status).toBe(404);
    expect((await api.del(`${clients()}/${clientId}`)).status).toBe(404);
  });

  it("answers 405 with Allow for other methods", async () => {
    const res = await api.call("PATCH", clients());
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, GET, HEAD");
  });

  it("records admin events without the secret, and never logs it", async () => {
    const clientId = uniqueName("ev");
    const created = await api.post(clients(), { clientId });
    const regen = await api.post(`${clients()}/${clientId}/regenerate-secret`);
    await api.put(`${clients()}/${clientId}`, { name: "Evented" });
    await api.del(`${clients()}/${clientId}`);
    const events = await eventually(
      () => api.get(`/admin/realms/${realm}/admin-events?resourceType=CLIENT`),
      (r) => (r.body ?? []).filter((e: { resourcePath: string }) => e.resourcePath.startsWith(`clients/${created.body.id}`)).length === 4,
    );
    const mine = events.body.filter((e: { resourcePath: string }) => e.resourcePath.startsWith(`clients/${created.body.id}`));
    expect(mine.map((e: { operationType: string }) => e.operationType)).toEqual(["DELETE", "UPDATE", "ACTION", "CREATE"]);
    expect(JSON.parse(mine[3].representation)).toMatchObject({ clientId, clientType: "CONFIDENTIAL" });
    expect(JSON.parse(mine[3].representation)).not.toHaveProperty("secret");
    for (const secret of [created.body.secret, regen.body.secret]) {
      expect(events.text).not.toContain(secret);
      if (server.process) expect(readFileSync(server.process.logFile, "utf8")).not.toContain(secret);
    }
  });

  it("drops the clients of a deleted realm", async () => {
    const name = uniqueName("cascade");
    await api.post("/admin/realms", { name });
    await api.post(`/admin/realms/${name}/clients`, { clientId: "kept-name" });
    await api.del(`/admin/realms/${name}`);
    await api.post("/admin/realms", { name });
    const list = await api.get(`/admin/realms/${name}/clients`);
    // Only the default every realm gets (the account console's client).
    expect(list.body.map((c: { clientId: string }) => c.clientId)).toEqual(["account-console"]);
    expect((await api.post(`/admin/realms/${name}/clients`, { clientId: "kept-name" })).status).toBe(201);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
