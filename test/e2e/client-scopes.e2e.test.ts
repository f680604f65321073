import { randomUUID } from "node:crypto";
import { adminApi, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Client scopes, protocol mappers and client scope assignments, spec 2.8 and 4.9.
describe.each(targets())("client scopes ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  const scopes = () => `/admin/realms/${realm}/client-scopes`;

  beforeAll(async () => {
    server = await target.start("client-scopes");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("scopes");
    expect((await api.post("/admin/realms", { name: realm, adminEventsEnabled: true })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const mapper = (name: string, mapperType: string, config: Record<string, string>) => ({ name, mapperType, config });

  it("starts every realm with Keycloak's built-in scopes and mappers", async () => {
    const res = await api.get(scopes());
    expect(res.status).toBe(200);
    expect(res.body.map((s: { name: string }) => s.name)).toEqual(["acr", "address", "basic", "email", "offline_access", "organization", "phone", "profile", "roles", "web-origins"]);
    const email = res.body.find((s: { name: string }) => s.name === "email");
    expect(email).toMatchObject({ protocol: "openid-connect", description: "OpenID Connect built-in scope: email" });
    expect(email.protocolMappers).toEqual([
      { id: expect.any(String), name: "email", mapperType: "oidc-usermodel-property-mapper", protocol: "openid-connect",
        config: { "id.token.claim": "true", "access.token.claim": "true", "userinfo.token.claim": "true", "user.attribute": "email", "claim.name": "email", "jsonType.label": "String" } },
      { id: expect.any(String), name: "email verified", mapperType: "oidc-usermodel-property-mapper", protocol: "openid-connect",
        config: { "id.token.claim": "true", "access.token.claim": "true", "userinfo.token.claim": "true", "user.attribute": "emailVerified", "claim.name": "email_verified", "jsonType.label": "boolean" } },
    ]);
    const profile = res.body.find((s: { name: string }) => s.name === "profile");
    expect(profile.protocolMappers.map((m: { config: Record<string, string> }) => m.config["claim.name"]))
      .toEqual(expect.arrayContaining(["preferred_username", "given_name", "family_name"]));
    const roles = res.body.find((s: { name: string }) => s.name === "roles");
    expect(roles.protocolMappers.map((m: { mapperType: string }) => m.mapperType)).toEqual([
      "oidc-usermodel-realm-role-mapper", "oidc-usermodel-client-role-mapper", "oidc-audience-resolve-mapper",
    ]);
    // OIDC Core 5.4's address and phone scopes.
    const address = res.body.find((s: { name: string }) => s.name === "address");
    expect(address.protocolMappers).toEqual([{
      id: expect.any(String), name: "address", mapperType: "oidc-address-mapper", protocol: "openid-connect",
      config: {
        "id.token.claim": "true", "access.token.claim": "true", "userinfo.token.claim": "true",
        "user.attribute.formatted": "formatted", "user.attribute.street": "street", "user.attribute.locality": "locality",
        "user.attribute.region": "region", "user.attribute.postal_code": "postal_code", "user.attribute.country": "country",
      },
    }]);
    const phone = res.body.find((s: { name: string }) => s.name === "phone");
    expect(phone.protocolMappers.map((m: { config: Record<string, string> }) => [m.config["user.attribute"], m.config["claim.name"], m.config["jsonType.label"]]).sort())
      .toEqual([["phoneNumber", "phone_number", "String"], ["phoneNumberVerified", "phone_number_verified", "boolean"]]);
  });

  it("seeds a realm's defaults once under concurrent first use", async () => {
    const name = uniqueName("seed");
    await api.post("/admin/realms", { name });
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => api.get(`/admin/realms/${name}/client-scopes`)),
      ...Array.from({ length: 4 }, () => api.get(`/admin/realms/${name}/roles`)),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    const after = await api.get(`/admin/realms/${name}/client-scopes`);
    expect(after.body).toHaveLength(10);
    expect(after.body.find((s: { name: string }) => s.name === "email").protocolMappers).toHaveLength(2);
    expect((await api.get(`/admin/realms/${name}/roles`)).body.map((r: { name: string }) => r.name)).toEqual(["offline_access"]);
    // A deleted default stays deleted.
    const email = after.body.find((s: { name: string }) => s.name === "email");
    expect((await api.del(`/admin/realms/${name}/client-scopes/${email.id}`)).status).toBe(204);
    expect((await api.get(`/admin/realms/${name}/client-scopes`)).body).toHaveLength(9);
  });

  it("creates, gets, updates and deletes a scope", async () => {
    const name = uniqueName("sc");
    const res = await api.post(scopes(), { name, description: "Mine" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name, description: "Mine", protocol: "openid-connect", protocolMappers: [] });
    const id = res.body.id;
    expect((await api.get(`${scopes()}/${id}`)).body).toEqual(res.body);
    const dup = await api.post(scopes(), { name });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: "conflict", message: `client scope "${name}" already exists`, field: "name" });
    const upd = await api.put(`${scopes()}/${id}`, { description: "Changed" });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ name, description: "Changed" });
    const renamed = await api.put(`${scopes()}/${id}`, { name: `${name}-2` });
    expect(renamed.body.name).toBe(`${name}-2`);
    const clash = await api.put(`${scopes()}/${id}`, { name: "email" });
    expect(clash.status).toBe(409);
    const ro = await api.put(`${scopes()}/${id}`, { protocol: "saml" });
    expect(ro.status).toBe(400);
    expect(ro.body).toEqual({ error: "unknown_field", message: "unknown or read-only field: protocol", field: "protocol" });
    expect((await api.del(`${scopes()}/${id}`)).status).toBe(204);
    const gone = await api.get(`${scopes()}/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: "client_scope_not_found", message: `client scope "${id}" not found` });
    expect((await api.del(`${scopes()}/${id}`)).status).toBe(404);
    expect((await api.put(`${scopes()}/${id}`, { description: "x" })).status).toBe(404);
  });

  it.each([
    [{}, "name"],
    [{ name: "" }, "name"],
    [{ name: "has space" }, "name"],
    [{ name: "ok-x", protocol: "cas" }, "protocol"],
    [{ name: "ok-y", id: "x" }, "id"],
    [{ name: "ok-z", protocolMappers: [] }, "protocolMappers"],
  ])("refuses the scope %j naming %s", async (body, field) => {
    const res = await api.post(scopes(), body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  it("adds, updates and deletes protocol mappers", async () => {
    const scope = (await api.post(scopes(), { name: uniqueName("mp") })).body;
    const path = `${scopes()}/${scope.id}/protocol-mappers`;
    const body = mapper("dept", "oidc-usermodel-attribute-mapper", { "user.attribute": "department", "claim.name": "org.department", "access.token.claim": "true" });
    const res = await api.post(path, body);
    expect(res.status).toBe(201);
    // The token switches left out take Keycloak's defaults (every token), stored explicitly.
    const defaults = { "id.token.claim": "true", "userinfo.token.claim": "true", "introspection.token.claim": "true" };
    expect(res.body).toEqual({ id: expect.any(String), protocol: "openid-connect", ...body, config: { ...body.config, ...defaults } });
    expect((await api.get(`${scopes()}/${scope.id}`)).body.protocolMappers).toEqual([res.body]);
    const dup = await api.post(path, body);
    expect(dup.status).toBe(409);
    const upd = await api.put(`${path}/${res.body.id}`, { name: "department", config: { "user.attribute": "dept", "claim.name": "dept" } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ name: "department", mapperType: "oidc-usermodel-attribute-mapper", config: { "user.attribute": "dept", "claim.name": "dept" } });
    const typeChange = await api.put(`${path}/${res.body.id}`, { mapperType: "oidc-hardcoded-claim-mapper" });
    expect(typeChange.status).toBe(400);
    expect(typeChange.body.field).toBe("mapperType");
    const badCfg = await api.put(`${path}/${res.body.id}`, { config: { "claim.name": "x" } });
    expect(badCfg.status).toBe(400);
    expect(badCfg.body).toEqual({ error: "invalid_request", message: "config.user.attribute is required for oidc-usermodel-attribute-mapper", field: "config.user.attribute" });
    expect((await api.del(`${path}/${res.body.id}`)).status).toBe(204);
    const gone = await api.del(`${path}/${res.body.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: "mapper_not_found", message: `protocol mapper "${res.body.id}" not found` });
    expect((await api.post(`${scopes()}/${randomUUID()}/protocol-mappers`, body)).status).toBe(404);
  });

  it.each([
    [mapper("m", "oidc-nope", {}), "mapperType", "mapperType must be one of"],
    [{ name: "m", config: {} }, "mapperType", "mapperType is required"],
    [mapper("", "oidc-hardcoded-claim-mapper", { "claim.name": "a", "claim.value": "b" }), "name", "name must be at least 1 characters"],
    [mapper("m", "oidc-usermodel-attribute-mapper", { "user.attribute": "x" }), "config.claim.name", "config.claim.name is required"],
    [mapper("m", "oidc-usermodel-property-mapper", { "user.attribute": "password", "claim.name": "p" }), "config.user.attribute", "config.user.attribute must be one of"],
    [mapper("m", "oidc-hardcoded-claim-mapper", { "claim.name": "a" }), "config.claim.value", "config.claim.value is required"],
    [mapper("m", "oidc-hardcoded-claim-mapper", { "claim.name": "a", "claim.value": "{", "jsonType.label": "JSON" }), "config.claim.value", "must be valid JSON"],
    [mapper("m", "oidc-hardcoded-claim-mapper", { "claim.name": "a", "claim.value": "b", "jsonType.label": "float" }), "config.jsonType.label", "must be one of"],
    [mapper("m", "oidc-hardcoded-claim-mapper", { "claim.name": "a", "claim.value": "b", "id.token.claim": "yes" }), "config.id.token.claim", 'must be "true" or "false"'],
    [mapper("m", "oidc-hardcoded-claim-mapper", { "claim.name": "iss", "claim.value": "b" }), "config.claim.name", "protocol claim"],
    [mapper("m", "oidc-hardcoded-claim-mapper", { "claim.name": "a..b", "claim.value": "b" }), "config.claim.name", "claim name"],
    [mapper("m", "oidc-hardcoded-claim-mapper", { "claim.name": "a", "claim.value": "b", "bogus": "1" }), "config.bogus", "is not a setting"],
    [mapper("m", "oidc-audience-mapper", {}), "config.included.client.audience", "exactly one of"],
    [mapper("m", "oidc-audience-mapper", { "included.client.audience": "a", "included.custom.audience": "b" }), "config.included.client.audience", "exactly one of"],
    [mapper("m", "oidc-group-membership-mapper", { "claim.name": "groups", "full.path": "1" }), "config.full.path", 'must be "true" or "false"'],
    [{ ...mapper("m", "oidc-sub-mapper", {}), protocol: "saml" }, "protocol", "the scope's protocol"],
  ])("refuses the mapper %j naming %s", async (body, field, message) => {
    const scope = (await api.post(scopes(), { name: uniqueName("mv") })).body;
    const res = await api.post(`${scopes()}/${scope.id}/protocol-mappers`, body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(res.body.message).toContain(message);
  });

  it.each([
    mapper("a", "oidc-usermodel-attribute-mapper", { "user.attribute": "x", "claim.name": "x", "multivalued": "true", "jsonType.label": "String" }),
    mapper("b", "oidc-usermodel-property-mapper", { "user.attribute": "emailVerified", "claim.name": "ev", "jsonType.label": "boolean" }),
    mapper("c", "oidc-hardcoded-claim-mapper", { "claim.name": "tier", "claim.value": "{\"a\":1}", "jsonType.label": "JSON" }),
    mapper("d", "oidc-group-membership-mapper", { "claim.name": "groups", "full.path": "false", "userinfo.token.claim": "true" }),
    mapper("e", "oidc-usermodel-realm-role-mapper", { "claim.name": "roles", "multivalued": "true" }),
    mapper("f", "oidc-usermodel-client-role-mapper", { "claim.name": "resource_access.${client_id}.roles", "usermodel.clientRoleMapping.clientId": "app" }),
    mapper("g", "oidc-audience-mapper", { "included.custom.audience": "https://api.example.test" }),
  ])("accepts a valid %s mapper", async (body) => {
    const scope = (await api.post(scopes(), { name: uniqueName("ok") })).body;
    const res = await api.post(`${scopes()}/${scope.id}/protocol-mappers`, body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(body);
  });

  it("gives new clients Keycloak's default and optional scopes", async () => {
    const clientId = uniqueName("cs");
    await api.post(`/admin/realms/${realm}/clients`, { clientId });
    const defaults = await api.get(`/admin/realms/${realm}/clients/${clientId}/default-client-scopes`);
    expect(defaults.status).toBe(200);
    expect(defaults.body.map((s: { name: string }) => s.name)).toEqual(["acr", "basic", "email", "profile", "roles", "web-origins"]);
    const optional = await api.get(`/admin/realms/${realm}/clients/${clientId}/optional-client-scopes`);
    expect(optional.body.map((s: { name: string }) => s.name)).toEqual(["address", "offline_access", "organization", "phone"]);
  });

  it("assigns and removes default and optional scopes; never both", async () => {
    const clientId = uniqueName("asg");
    await api.post(`/admin/realms/${realm}/clients`, { clientId });
    const scope = (await api.post(scopes(), { name: uniqueName("as") })).body;
    const def = `/admin/realms/${realm}/clients/${clientId}/default-client-scopes`;
    const opt = `/admin/realms/${realm}/clients/${clientId}/optional-client-scopes`;
    const res = await api.post(def, { clientScopeId: scope.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ clientId, clientScopeId: scope.id, clientScopeName: scope.name, kind: "default" });
    expect((await api.post(def, { clientScopeId: scope.id })).status).toBe(200);
    const both = await api.post(opt, { clientScopeId: scope.id });
    expect(both.status).toBe(409);
    expect(both.body).toEqual({ error: "conflict", message: `client scope "${scope.name}" is already a default scope of client "${clientId}"`, field: "clientScopeId" });
    expect((await api.get(def)).body.map((s: { id: string }) => s.id)).toContain(scope.id);
    const wrongKind = await api.del(`${opt}/${scope.id}`);
    expect(wrongKind.status).toBe(404);
    expect(wrongKind.body.error).toBe("scope_assignment_not_found");
    expect((await api.del(`${def}/${scope.id}`)).status).toBe(204);
    expect((await api.post(opt, { clientScopeId: scope.id })).body.kind).toBe("optional");
    // Deleting the scope removes its assignments.
    await api.del(`${scopes()}/${scope.id}`);
    expect((await api.get(opt)).body.map((s: { id: string }) => s.id)).not.toContain(scope.id);
  });

  it("validates assignment bodies and 404s unknown clients and scopes", async () => {
    const clientId = uniqueName("asv");
    await api.post(`/admin/realms/${realm}/clients`, { clientId });
    const def = `/admin/realms/${realm}/clients/${clientId}/default-client-scopes`;
    const missing = await api.post(def, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "invalid_request", message: "clientScopeId is required", field: "clientScopeId" });
    const ghost = randomUUID();
    const unknown = await api.post(def, { clientScopeId: ghost });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "client_scope_not_found", message: `client scope "${ghost}" not found` });
    expect((await api.post(def, { clientScopeId: ghost, kind: "x" })).body.field).toBe("kind");
    expect((await api.get(`/admin/realms/${realm}/clients/nope/default-client-scopes`)).status).toBe(404);
    expect((await api.del(`${def}/${ghost}`)).status).toBe(404);
  });

  it("records scope, mapper and assignment admin events", async () => {
    const scope = (await api.post(scopes(), { name: uniqueName("ev") })).body;
    const m = (await api.post(`${scopes()}/${scope.id}/protocol-mappers`, mapper("hc", "oidc-hardcoded-claim-mapper", { "claim.name": "a", "claim.value": "b" }))).body;
    const clientId = uniqueName("evc");
    const client = (await api.post(`/admin/realms/${realm}/clients`, { clientId })).body;
    await api.post(`/admin/realms/${realm}/clients/${clientId}/optional-client-scopes`, { clientScopeId: scope.id });
    const byType = (t: string, pred: (p: string) => boolean, n: number) => eventually(
      () => api.get(`/admin/realms/${realm}/admin-events?resourceType=${t}`),
      (r) => (r.body ?? []).filter((e: { resourcePath: string }) => pred(e.resourcePath)).length === n,
    );
    expect((await byType("CLIENT_SCOPE", (p) => p === `client-scopes/${scope.id}`, 1)).status).toBe(200);
    const mapperEvents = await byType("PROTOCOL_MAPPER", (p) => p === `client-scopes/${scope.id}/protocol-mappers/${m.id}`, 1);
    expect(JSON.parse(mapperEvents.body.find((e: { resourcePath: string }) => e.resourcePath.endsWith(m.id)).representation)).toMatchObject({ name: "hc" });
    const asg = await byType("CLIENT_SCOPE_CLIENT_MAPPING", (p) => p === `clients/${client.id}/optional-client-scopes/${scope.id}`, 1);
    expect(asg.status).toBe(200);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
