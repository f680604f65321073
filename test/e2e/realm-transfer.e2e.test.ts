import { createLocalJWKSet, jwtVerify } from "jose";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { exportSchemaProblems } from "./support/realm-export-schema.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Realm export and import (spec 1.9, 2.1, 4.1; DESIGN 3: every service exports and imports its
// own part). A realm with one of everything goes out, is deleted, comes back, and goes out again.
describe.each(targets())("realm export and import ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  beforeAll(async () => {
    server = await target.start("realm-transfer");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  const SMTP_PASSWORD = "smtp-secret-Xq7";
  const SP_CERT_SUBJECT = undefined;
  void SP_CERT_SUBJECT;

  /** A public EC key (RFC 7517 appendix A.1) for the web client's request objects. */
  const WEB_JWK = { kty: "EC", crv: "P-256", x: "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4", y: "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM", kid: "1" };

  /** A realm with a realm role, two clients (one with a service account), a client role, a client scope with a mapper, a group tree, a user and a SAML SP. */
  async function fullRealm(): Promise<{ realm: string; secret: string; userId: string }> {
    const realm = uniqueName("xfer");
    const ok = (res: { status: number; text: string }, status: number) => { if (res.status !== status) throw new Error(`${res.status} ${res.text}`); };
    ok(await api.post("/admin/realms", { name: realm, displayName: "Transfer", smtpHost: "smtp.example.test", smtpPassword: SMTP_PASSWORD, adminEventsEnabled: true, passwordMinLength: 10, requirePushedAuthorizationRequests: true, resetPasswordAllowed: true }), 201);
    const base = `/admin/realms/${realm}`;
    ok(await api.post(`${base}/roles`, { name: "editor", description: "edits" }), 201);
    const svc = await api.post(`${base}/clients`, { clientId: "svc", grantTypes: ["client_credentials"], standardTokenExchangeEnabled: true });
    ok(svc, 201);
    ok(await api.post(`${base}/clients/svc/roles`, { name: "reader" }), 201);
    ok(await api.post(`${base}/clients`, { clientId: "web", clientType: "PUBLIC", redirectUris: ["https://app.example.test/cb"], webOrigins: ["https://app.example.test"], grantTypes: ["authorization_code", "password"], jwks: { keys: [WEB_JWK] }, requestObjectSignatureAlg: "ES256", requirePushedAuthorizationRequests: true, dpopNonceRequired: true }), 201);
    const scope = await api.post(`${base}/client-scopes`, { name: "extra", description: "extra claims" });
    ok(scope, 201);
    ok(await api.post(`${base}/client-scopes/${scope.body.id}/protocol-mappers`, { name: "tier", mapperType: "oidc-hardcoded-claim-mapper", config: { "claim.name": "tier", "claim.value": "gold", "access.token.claim": "true" } }), 201);
    ok(await api.post(`${base}/clients/web/optional-client-scopes`, { clientScopeId: scope.body.id }), 200);
    const staff = await api.post(`${base}/groups`, { name: "staff" });
    const admins = await api.post(`${base}/groups`, { name: "admins", parentId: staff.body.id });
    ok(admins, 201);
    ok(await api.post(`${base}/groups/${admins.body.id}/role-mappings`, { roleNames: ["editor"] }), 200);
    const alice = await api.post(`${base}/users`, { username: "alice", email: "alice@example.test", firstName: "Alice", password: "alice-password-1" });
    ok(alice, 201);
    ok(await api.put(`${base}/users/${alice.body.id}/groups/${admins.body.id}`), 200);
    ok(await api.post(`${base}/users/${alice.body.id}/role-mappings/clients/svc`, { roleNames: ["reader"] }), 200);
    const sa = await api.get(`${base}/clients/svc/service-account-user`);
    ok(await api.post(`${base}/users/${sa.body.id}/role-mappings/realm`, { roleNames: ["editor"] }), 200);
    ok(await api.post(`${base}/saml-service-providers`, { entityId: "https://sp.example.test/metadata", name: "SP", acsUrl: "https://sp.example.test/acs" }), 201);
    return { realm, secret: svc.body.secret as string, userId: alice.body.id as string };
  }

  async function exportRealm(realm: string, query: string): Promise<any> {
    const res = await api.get(`/admin/realms/${realm}/export${query}`);
    expect(res.status).toBe(200);
    expect(exportSchemaProblems(res.body)).toEqual([]);
    return res.body;
  }

  async function clientCredentialsToken(realm: string, secret: string): Promise<string> {
    const res = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "client_credentials", client_id: "svc", client_secret: secret },
    });
    expect(res.status).toBe(200);
    return res.body.access_token as string;
  }

  it("round-trips a realm with one of everything: export, delete, import, export again gives the same document", async () => {
    const { realm, secret } = await fullRealm();
    const token = await clientCredentialsToken(realm, secret);
    // The SAML key exists once metadata was read.
    expect((await http("GET", `${server.url}/realms/${realm}/protocol/saml/descriptor`)).status).toBe(200);
    const first = await exportRealm(realm, "?includeUsers=true&includeSecrets=true");
    expect(first.formatVersion).toBe(1);
    expect(first.realm).toMatchObject({ name: realm, displayName: "Transfer", smtpPassword: SMTP_PASSWORD, passwordMinLength: 10, requirePushedAuthorizationRequests: true, resetPasswordAllowed: true });
    expect(first.roles.map((r: { name: string }) => r.name).sort()).toEqual(["editor", "offline_access"]);
    const svc = first.clients.find((c: { clientId: string }) => c.clientId === "svc");
    expect(svc).toMatchObject({ clientType: "CONFIDENTIAL", standardTokenExchangeEnabled: true, secret, roles: [{ name: "reader" }], serviceAccount: { username: "service-account-svc", realmRoles: ["editor"], clientRoles: {} } });
    expect(first.clients.find((c: { clientId: string }) => c.clientId === "web")).toMatchObject({
      clientType: "PUBLIC", optionalClientScopes: expect.arrayContaining(["extra", "offline_access"]),
      jwks: { keys: [WEB_JWK] }, requestObjectSignatureAlg: "ES256", requirePushedAuthorizationRequests: true,
      dpopBoundAccessTokens: false, dpopNonceRequired: true,
    });
    expect(first.clientScopes.find((s: { name: string }) => s.name === "extra").protocolMappers).toEqual([
      expect.objectContaining({
        name: "tier", mapperType: "oidc-hardcoded-claim-mapper",
        config: { "claim.name": "tier", "claim.value": "gold", "access.token.claim": "true", "id.token.claim": "true", "userinfo.token.claim": "true", "introspection.token.claim": "true" },
      }),
    ]);
    expect(first.groups).toEqual([expect.objectContaining({ name: "staff", subGroups: [expect.objectContaining({ name: "admins", realmRoles: ["editor"], subGroups: [] })] })]);
    expect(first.users).toEqual([expect.objectContaining({
      username: "alice", email: "alice@example.test", groups: ["/staff/admins"], realmRoles: [], clientRoles: { svc: ["reader"] },
      credentials: [expect.objectContaining({ type: "password", passwordHash: expect.stringMatching(/^\$argon2id\$/) })],
    })]);
    expect(first.signingKeys.length).toBeGreaterThanOrEqual(1);
    expect(first.samlSigningKeys).toHaveLength(1);
    expect(first.samlServiceProviders).toEqual([expect.objectContaining({ entityId: "https://sp.example.test/metadata" })]);
    expect(first.identityProviders).toEqual([]);
    expect(first.userFederationProviders).toEqual([]);

    expect((await api.del(`/admin/realms/${realm}`)).status).toBe(200);
    const imported = await api.post("/admin/realms/import", first);
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ name: realm, displayName: "Transfer", smtpPassword: "**********", importReport: [] });

    const second = await exportRealm(realm, "?includeUsers=true&includeSecrets=true");
    const { exportedAt: _a, ...a } = first;
    const { exportedAt: _b, ...b } = second;
    expect(b).toEqual(a);

    // The token signed before the export verifies against the imported realm's published keys.
    const jwks = (await http("GET", `${server.url}/realms/${realm}/protocol/openid-connect/certs`)).body;
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: `${server.url}/realms/${realm}` });
    expect(payload.azp ?? payload.client_id).toBe("svc");
    // The client secret and the user's password work after the import.
    await clientCredentialsToken(realm, secret);
    const login = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "password", client_id: "web", username: "alice", password: "alice-password-1", scope: "openid" },
    });
    expect(login.status).toBe(200);
    // The import is an admin event of the imported realm.
    const events = await eventually(() => api.get(`/admin/realms/${realm}/admin-events`), (r) => (r.body?.events ?? r.body ?? []).length > 0);
    const list = (events.body.events ?? events.body) as Array<{ operationType: string; resourcePath: string }>;
    expect(list).toEqual(expect.arrayContaining([expect.objectContaining({ operationType: "CREATE", resourcePath: `realms/${realm}` })]));
  }, 60_000);

  it("leaves every secret out without includeSecrets: absent, not masked", async () => {
    const { realm, secret } = await fullRealm();
    await clientCredentialsToken(realm, secret);
    const res = await api.get(`/admin/realms/${realm}/export?includeUsers=true`);
    expect(res.status).toBe(200);
    expect(exportSchemaProblems(res.body)).toEqual([]);
    expect(res.text).not.toContain(secret);
    expect(res.text).not.toContain(SMTP_PASSWORD);
    expect(res.text).not.toContain("**********");
    expect(res.text).not.toContain("PRIVATE KEY");
    expect(res.body.realm).not.toHaveProperty("smtpPassword");
    for (const c of res.body.clients) expect(c).not.toHaveProperty("secret");
    expect(res.body).not.toHaveProperty("signingKeys");
    expect(res.body).not.toHaveProperty("samlSigningKeys");
    // Without includeUsers there are no users at all.
    const bare = await exportRealm(realm, "");
    expect(bare).not.toHaveProperty("users");
  }, 60_000);

  it("answers 409 for an existing realm without overwrite, and replaces it with overwrite=true", async () => {
    const { realm } = await fullRealm();
    const doc = await exportRealm(realm, "?includeUsers=true");
    const conflict = await api.post("/admin/realms/import", doc);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toBe("conflict");
    doc.realm.displayName = "Replaced";
    doc.users[0].username = "alice-replaced";
    const replaced = await api.post("/admin/realms/import?overwrite=true", doc);
    expect(replaced.status).toBe(201);
    expect(replaced.body.displayName).toBe("Replaced");
    // The report names what the document could not carry: svc's secret was not exported.
    expect(replaced.body.importReport).toEqual([
      { path: expect.stringMatching(/^\$\.clients\[\d\]\.secret$/), message: expect.stringContaining("regenerate") },
    ]);
    const users = await api.get(`/admin/realms/${realm}/users`);
    // The replaced realm's users; the client's service account travels with its client.
    expect(users.body.users.map((u: { username: string }) => u.username).sort()).toEqual(["alice-replaced", "service-account-svc"]);
  }, 60_000);

  it("validates the whole document first: a 400 lists every problem with its path, and nothing is written", async () => {
    const { realm } = await fullRealm();
    const doc = await exportRealm(realm, "?includeUsers=true");
    doc.realm.name = `${realm}-copy`;
    doc.realm.accessTokenLifespan = 0;
    doc.clients[0].defaultClientScopes.push("no-such-scope");
    doc.users[0].groups.push("/nowhere");
    doc.users[0].credentials[0].passwordHash = "md5:abc";
    doc.groups[0].unknownField = true;
    const res = await api.post("/admin/realms/import", doc);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_document");
    // The schema problem alone first (a document of the wrong shape is not checked further)...
    expect(res.body.problems).toEqual([{ path: "$.groups[0]", message: expect.stringContaining("unknownField") }]);
    delete doc.groups[0].unknownField;
    const again = await api.post("/admin/realms/import", doc);
    expect(again.status).toBe(400);
    const paths = (again.body.problems as Array<{ path: string }>).map((p) => p.path).sort();
    // ...then every rule, at once; ids shared with the live source realm are refused too.
    expect(paths).toEqual(expect.arrayContaining([
      "$.realm.accessTokenLifespan", "$.clients[0].defaultClientScopes[" + (doc.clients[0].defaultClientScopes.length - 1) + "]",
      "$.users[0].groups[1]", "$.users[0].credentials[0].passwordHash", "$.users[0].id",
    ]));
    expect((await api.get(`/admin/realms/${realm}-copy`)).status).toBe(404);
  }, 60_000);

  it("answers 404 for an unknown realm, 400 for a bad flag or body, and 405 for other methods on the import path", async () => {
    const missing = await api.get("/admin/realms/no-such-realm-xfer/export");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("realm_not_found");
    const { realm } = await fullRealm();
    const flag = await api.get(`/admin/realms/${realm}/export?includeUsers=yes`);
    expect(flag.status).toBe(400);
    expect(flag.body).toMatchObject({ error: "invalid_request", field: "includeUsers" });
    const notObject = await api.post("/admin/realms/import", [1, 2]);
    expect(notObject.status).toBe(400);
    const format = await api.post("/admin/realms/import?format=xml", {});
    expect(format.body).toMatchObject({ error: "invalid_request", field: "format" });
    const get = await api.get("/admin/realms/import");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  }, 60_000);
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
