import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";

/**
 * The OpenAPI document against live traffic (spec 1.13): a tour of the Admin API (realms, users,
 * clients, roles and mappings, groups, client scopes, events, keys, sessions) and the OIDC
 * token, userinfo, introspection and revocation endpoints, every response recorded and checked
 * against its documented status, media type and schema (ajv). Errors are part of the tour.
 */
describe.each(targets())("OpenAPI document against the server's answers ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  const recorded = recordResponses();
  const realm = uniqueName("oas");

  beforeAll(async () => {
    server = await target.start("openapi-conformance");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  it("serves the document and the reference page publicly, the page under a CSP without eval or inline script", async () => {
    const doc = await http("GET", `${server.url}/admin/openapi.json`);
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(["/admin/realms", "/realms/{realmName}/protocol/openid-connect/token"]));
    const page = await http("GET", `${server.url}/admin/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("connect-src 'self'");
    expect(page.text).toContain('<script src="docs/scalar.js"></script>');
    const bundle = await http("GET", `${server.url}/admin/docs/scalar.js`);
    expect([bundle.status, bundle.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
    expect(bundle.text.length).toBeGreaterThan(1_000_000);
    expect(bundle.text).not.toContain("new Function(");
    const start = await http("GET", `${server.url}/admin/docs/start.js`);
    expect(start.text).toContain('url: "openapi.json"');
    // The document holds no secret: not the API key the server runs with.
    expect(doc.text).not.toContain(server.apiKey);
  });

  it("documents every answer of a tour of the Admin API", async () => {
    expect((await api.post("/admin/realms", { name: realm, displayName: "OAS", adminEventsEnabled: true, eventsEnabled: true })).status).toBe(201);
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(409);
    expect((await api.post("/admin/realms", { name: uniqueName("oas"), nope: 1 })).status).toBe(400);
    expect((await api.get("/admin/realms")).status).toBe(200);
    expect((await api.get("/admin/realms/themes")).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}`)).status).toBe(200);
    expect((await api.put(`/admin/realms/${realm}`, { displayName: "OAS 2", registrationAllowed: true })).status).toBe(200);
    expect((await api.get("/admin/realms/no-such-realm")).status).toBe(404);

    const user = await api.post(`/admin/realms/${realm}/users`, { username: "ada", email: "ada@example.test", firstName: "Ada", password: "Oas-password-1" });
    expect(user.status).toBe(201);
    const userId = user.body.id as string;
    expect((await api.get(`/admin/realms/${realm}/users?search=ada&limit=5`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/users?limit=x`)).status).toBe(400);
    expect((await api.get(`/admin/realms/${realm}/users/${userId}`)).status).toBe(200);
    expect((await api.put(`/admin/realms/${realm}/users/${userId}`, { lastName: "Lovelace" })).status).toBe(200);
    expect((await api.put(`/admin/realms/${realm}/users/${userId}/reset-password`, { password: "Oas-password-2", temporary: false })).status).toBe(204);
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/mfa/status`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/brute-force/locked-users`)).status).toBe(200);
    expect((await api.post(`/admin/realms/${realm}/users/import`, { users: [{ username: "bob" }, { username: "ada" }] })).status).toBe(200);

    const client = await api.post(`/admin/realms/${realm}/clients`, { clientId: "svc", grantTypes: ["client_credentials", "password"] });
    expect(client.status).toBe(201);
    expect((await api.get(`/admin/realms/${realm}/clients`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/clients/svc`)).status).toBe(200);
    expect((await api.put(`/admin/realms/${realm}/clients/svc`, { description: "service" })).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/clients/svc/service-account-user`)).status).toBe(200);
    const secret = (await api.post(`/admin/realms/${realm}/clients/svc/regenerate-secret`)).body.secret as string;

    expect((await api.post(`/admin/realms/${realm}/roles`, { name: "reader", description: "reads" })).status).toBe(201);
    expect((await api.get(`/admin/realms/${realm}/roles`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/roles/reader`)).status).toBe(200);
    expect((await api.post(`/admin/realms/${realm}/clients/svc/roles`, { name: "admin" })).status).toBe(201);
    expect((await api.get(`/admin/realms/${realm}/clients/svc/roles`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/clients/svc/roles/admin`)).status).toBe(200);
    expect((await api.post(`/admin/realms/${realm}/users/${userId}/role-mappings/realm`, { roleNames: ["reader"] })).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/role-mappings/realm`)).status).toBe(200);
    expect((await api.post(`/admin/realms/${realm}/users/${userId}/role-mappings/clients/svc`, { roleNames: ["admin"] })).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/role-mappings/clients/svc`)).status).toBe(200);
    expect((await api.del(`/admin/realms/${realm}/users/${userId}/role-mappings/clients/svc`, { roleNames: ["admin"] })).status).toBe(200);

    const group = await api.post(`/admin/realms/${realm}/groups`, { name: "staff" });
    expect(group.status).toBe(201);
    const groupId = group.body.id as string;
    expect((await api.get(`/admin/realms/${realm}/groups`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/groups/${groupId}`)).status).toBe(200);
    expect((await api.put(`/admin/realms/${realm}/groups/${groupId}`, { name: "staff-2" })).status).toBe(200);
    expect((await api.put(`/admin/realms/${realm}/users/${userId}/groups/${groupId}`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/groups`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/groups/${groupId}/members?first=0&max=10`)).status).toBe(200);
    expect((await api.post(`/admin/realms/${realm}/groups/${groupId}/role-mappings`, { roleNames: ["reader"] })).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/groups/${groupId}/role-mappings`)).status).toBe(200);
    expect((await api.del(`/admin/realms/${realm}/users/${userId}/groups/${groupId}`)).status).toBe(200);

    const scope = await api.post(`/admin/realms/${realm}/client-scopes`, { name: "billing", description: "billing", protocol: "openid-connect" });
    expect(scope.status).toBe(201);
    const scopeId = scope.body.id as string;
    expect((await api.get(`/admin/realms/${realm}/client-scopes`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/client-scopes/${scopeId}`)).status).toBe(200);
    expect((await api.put(`/admin/realms/${realm}/client-scopes/${scopeId}`, { description: "billing data" })).status).toBe(200);
    const mapper = await api.post(`/admin/realms/${realm}/client-scopes/${scopeId}/protocol-mappers`, {
      name: "plan", mapperType: "oidc-hardcoded-claim-mapper", config: { "claim.name": "plan", "claim.value": "gold" },
    });
    expect(mapper.status).toBe(201);
    expect((await api.put(`/admin/realms/${realm}/client-scopes/${scopeId}/protocol-mappers/${mapper.body.id}`, { name: "plan-2" })).status).toBe(200);
    expect((await api.post(`/admin/realms/${realm}/clients/svc/optional-client-scopes`, { clientScopeId: scopeId })).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/clients/svc/optional-client-scopes`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/clients/svc/default-client-scopes`)).status).toBe(200);
    expect((await api.del(`/admin/realms/${realm}/clients/svc/optional-client-scopes/${scopeId}`)).status).toBe(204);
    expect((await api.del(`/admin/realms/${realm}/client-scopes/${scopeId}/protocol-mappers/${mapper.body.id}`)).status).toBe(204);

    // OIDC: token (client_credentials and password), userinfo, introspection, revocation.
    const oidc = `${server.url}/realms/${realm}/protocol/openid-connect`;
    const basic = `Basic ${Buffer.from(`svc:${secret}`).toString("base64")}`;
    expect((await http("GET", `${server.url}/realms/${realm}/.well-known/openid-configuration`)).status).toBe(200);
    expect((await http("GET", `${oidc}/certs`)).status).toBe(200);
    const cc = await http("POST", `${oidc}/token`, { form: { grant_type: "client_credentials" }, headers: { authorization: basic } });
    expect(cc.status).toBe(200);
    const pw = await http("POST", `${oidc}/token`, {
      form: { grant_type: "password", username: "ada", password: "Oas-password-2", scope: "openid profile email" }, headers: { authorization: basic },
    });
    expect(pw.status).toBe(200);
    expect((await http("POST", `${oidc}/token`, { form: { grant_type: "password", username: "ada", password: "wrong" }, headers: { authorization: basic } })).status).toBe(400);
    expect((await http("POST", `${oidc}/token`, { form: { grant_type: "client_credentials" }, headers: { authorization: "Basic c3ZjOm5v" } })).status).toBe(401);
    const info = await http("GET", `${oidc}/userinfo`, { headers: { authorization: `Bearer ${pw.body.access_token}` } });
    expect([info.status, info.body.preferred_username]).toEqual([200, "ada"]);
    expect((await http("GET", `${oidc}/userinfo`)).status).toBe(401);
    const active = await http("POST", `${oidc}/token/introspect`, { form: { token: pw.body.access_token }, headers: { authorization: basic } });
    expect([active.status, active.body.active]).toEqual([200, true]);
    expect((await http("POST", `${oidc}/revoke`, { form: { token: pw.body.refresh_token, token_type_hint: "refresh_token" }, headers: { authorization: basic } })).status).toBe(200);
    const inactive = await http("POST", `${oidc}/token/introspect`, { form: { token: "not-a-token" }, headers: { authorization: basic } });
    expect(inactive.body).toEqual({ active: false });

    // Sessions, events, keys.
    expect((await api.get(`/admin/realms/${realm}/sessions`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/sessions`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/offline-sessions`)).status).toBe(200);
    expect((await api.del(`/admin/realms/${realm}/users/${userId}/sessions`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/events?max=50`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/admin-events?max=50`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/events?dateFrom=yesterday`)).status).toBe(400);
    expect((await api.get(`/admin/realms/${realm}/keys`)).status).toBe(200);
    expect((await api.post(`/admin/realms/${realm}/keys/rotate`, {})).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/saml-keys`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/export?includeUsers=true`)).status).toBe(200);
    expect((await api.del(`/admin/realms/${realm}/events`)).status).toBe(204);

    // Operations and admin login.
    expect((await http("GET", `${server.url}/health`)).status).toBe(200);
    expect((await http("GET", `${server.url}/health/ready`)).status).toBe(200);
    expect((await http("GET", `${server.url}/`, { headers: { accept: "application/json" } })).status).toBe(200);
    const login = await http("POST", `${server.url}/admin/auth/login`, { body: { username: server.adminUsername, password: server.adminPassword } });
    expect(login.status).toBe(200);
    expect((await http("GET", `${server.url}/admin/auth/me`, { headers: { authorization: `Bearer ${login.body.accessToken}` } })).status).toBe(200);
    expect((await http("POST", `${server.url}/admin/auth/login`, { body: { username: "nobody" } })).status).toBe(400);

    // Deletes last.
    expect((await api.del(`/admin/realms/${realm}/clients/svc/roles/admin`)).status).toBe(204);
    expect((await api.del(`/admin/realms/${realm}/roles/reader`)).status).toBe(204);
    expect((await api.del(`/admin/realms/${realm}/groups/${groupId}`)).status).toBe(200);
    expect((await api.del(`/admin/realms/${realm}/client-scopes/${scopeId}`)).status).toBe(204);
    expect((await api.del(`/admin/realms/${realm}/clients/svc`)).status).toBe(204);
    expect((await api.del(`/admin/realms/${realm}/users/${userId}`)).status).toBe(204);
    expect((await api.del(`/admin/realms/${realm}`)).status).toBe(200);

    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(90);
  }, 120_000);
});
