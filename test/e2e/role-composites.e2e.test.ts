import { decodeJwt } from "jose";
import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Role updates and composite roles (Keycloak's; roles are spec 2.4): a holder of a composite holds
// what it contains, transitively, in its tokens. Holders are service accounts, whose
// client_credentials tokens carry their effective roles.
describe.each(targets())("role updates and composite roles ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  const base = () => `/admin/realms/${realm}`;

  /** A client_credentials client; its service account is the holder. */
  async function holder(): Promise<{ userId: string; roles(): Promise<{ realm: string[]; client: Record<string, string[]> }> }> {
    const clientId = uniqueName("sa");
    const created = await api.post(`${base()}/clients`, { clientId, grantTypes: ["client_credentials"] });
    expect(created.status).toBe(201);
    const userId = (await api.get(`${base()}/clients/${clientId}/service-account-user`)).body.id as string;
    return {
      userId,
      async roles() {
        const res = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
          form: { grant_type: "client_credentials", client_id: clientId, client_secret: created.body.secret },
        });
        expect(res.status).toBe(200);
        const claims = decodeJwt(res.body.access_token) as { realm_access?: { roles: string[] }; resource_access?: Record<string, { roles: string[] }> };
        const client = Object.fromEntries(Object.entries(claims.resource_access ?? {}).map(([k, v]) => [k, [...v.roles].sort()]));
        return { realm: [...(claims.realm_access?.roles ?? [])].sort(), client };
      },
    };
  }

  beforeAll(async () => {
    server = await target.start("role-composites");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("composites");
    expect((await api.post("/admin/realms", { name: realm, adminEventsEnabled: true })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  it("renames and describes a role with PUT; its holders keep it; a taken name is 409; offline_access keeps its name", async () => {
    const h = await holder();
    expect((await api.post(`${base()}/roles`, { name: "draft" })).status).toBe(201);
    expect((await api.post(`${base()}/roles`, { name: "taken" })).status).toBe(201);
    await api.post(`${base()}/users/${h.userId}/role-mappings/realm`, { roleNames: ["draft"] });
    const res = await api.put(`${base()}/roles/draft`, { name: "author", description: "Writes" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(String), name: "author", description: "Writes", clientRole: false, composite: false });
    expect((await api.get(`${base()}/roles/draft`)).status).toBe(404);
    expect((await api.get(`${base()}/users/${h.userId}/role-mappings/realm`)).body.map((r: { name: string }) => r.name)).toEqual(["author"]);
    expect((await h.roles()).realm).toEqual(["author", "offline_access"]);
    const clash = await api.put(`${base()}/roles/author`, { name: "taken" });
    expect([clash.status, clash.body]).toEqual([409, { error: "conflict", message: 'role "taken" already exists', field: "name" }]);
    const offline = await api.put(`${base()}/roles/offline_access`, { name: "offline" });
    expect([offline.status, offline.body]).toEqual([400, { error: "invalid_request", message: "the realm's offline_access role cannot be renamed", field: "name" }]);
    expect((await api.put(`${base()}/roles/offline_access`, { description: "Offline tokens" })).body.description).toBe("Offline tokens");
    expect((await api.put(`${base()}/roles/ghost`, { description: "x" })).status).toBe(404);
    const unknown = await api.put(`${base()}/roles/author`, { composite: true });
    expect([unknown.status, unknown.body.error, unknown.body.field]).toEqual([400, "unknown_field", "composite"]);
  });

  it("gives a composite's holders the roles it contains, transitively and across clients; cycles are harmless", async () => {
    const h = await holder();
    const api2 = uniqueName("api");
    expect((await api.post(`${base()}/clients`, { clientId: api2 })).status).toBe(201);
    expect((await api.post(`${base()}/clients/${api2}/roles`, { name: "read" })).status).toBe(201);
    for (const name of ["viewer", "editor", "chief"]) expect((await api.post(`${base()}/roles`, { name })).status).toBe(201);
    // editor contains viewer and the API's read role; chief contains editor.
    const added = await api.post(`${base()}/roles/editor/composites`, { roleNames: ["viewer", "viewer"] });
    expect([added.status, added.body]).toEqual([200, { roleNames: ["viewer"] }]);
    expect((await api.post(`${base()}/roles/editor/composites`, { roleNames: ["read"], clientId: api2 })).body).toEqual({ roleNames: ["read"] });
    expect((await api.post(`${base()}/roles/chief/composites`, { roleNames: ["editor"] })).status).toBe(200);
    expect((await api.get(`${base()}/roles/editor`)).body.composite).toBe(true);
    const listed = await api.get(`${base()}/roles/editor/composites`);
    expect(listed.body.map((r: { name: string; clientId?: string }) => [r.name, r.clientId ?? ""]).sort()).toEqual([["read", api2], ["viewer", ""]]);

    await api.post(`${base()}/users/${h.userId}/role-mappings/realm`, { roleNames: ["chief"] });
    expect(await h.roles()).toEqual({ realm: ["chief", "editor", "offline_access", "viewer"], client: { [api2]: ["read"] } });
    // A cycle (viewer contains chief) changes nothing for a holder of chief.
    expect((await api.post(`${base()}/roles/viewer/composites`, { roleNames: ["chief"] })).status).toBe(200);
    expect(await h.roles()).toEqual({ realm: ["chief", "editor", "offline_access", "viewer"], client: { [api2]: ["read"] } });
    expect((await api.del(`${base()}/roles/viewer/composites`, { roleNames: ["chief"] })).body).toEqual({ roleNames: ["chief"] });

    // Taken out of the composite, the role leaves the holder's next token.
    expect((await api.del(`${base()}/roles/editor/composites`, { roleNames: ["read"], clientId: api2 })).body).toEqual({ roleNames: ["read"] });
    expect(await h.roles()).toEqual({ realm: ["chief", "editor", "offline_access", "viewer"], client: {} });
    // A deleted role leaves every composite that held it.
    expect((await api.del(`${base()}/roles/viewer`)).status).toBe(204);
    expect((await api.get(`${base()}/roles/editor/composites`)).body).toEqual([]);
    expect((await api.get(`${base()}/roles/editor`)).body.composite).toBe(false);
    expect(await h.roles()).toEqual({ realm: ["chief", "editor", "offline_access"], client: {} });
  });

  it("refuses a role containing itself, unknown roles and bad bodies, changing nothing", async () => {
    for (const name of ["solo", "other"]) expect((await api.post(`${base()}/roles`, { name })).status).toBe(201);
    const self = await api.post(`${base()}/roles/solo/composites`, { roleNames: ["other", "solo"] });
    expect([self.status, self.body]).toEqual([400, { error: "invalid_request", message: 'role "solo" cannot contain itself', field: "roleNames" }]);
    const unknown = await api.post(`${base()}/roles/solo/composites`, { roleNames: ["other", "ghost"] });
    expect([unknown.status, unknown.body]).toEqual([400, { error: "unknown_roles", message: "unknown roles: ghost", field: "roleNames" }]);
    expect((await api.get(`${base()}/roles/solo/composites`)).body).toEqual([]);
    const empty = await api.post(`${base()}/roles/solo/composites`, { roleNames: [] });
    expect([empty.status, empty.body.field]).toEqual([400, "roleNames"]);
    expect((await api.post(`${base()}/roles/nope/composites`, { roleNames: ["other"] })).status).toBe(404);
    const noClient = await api.post(`${base()}/roles/solo/composites`, { roleNames: ["x"], clientId: "no-such-client" });
    expect([noClient.status, noClient.body.error]).toEqual([404, "client_not_found"]);
  });

  it("carries composites through realm export and import, by name; an unknown contained role is a 400 naming its path", async () => {
    const source = uniqueName("comp-src");
    expect((await api.post("/admin/realms", { name: source })).status).toBe(201);
    const app = uniqueName("app");
    expect((await api.post(`/admin/realms/${source}/clients`, { clientId: app })).status).toBe(201);
    expect((await api.post(`/admin/realms/${source}/clients/${app}/roles`, { name: "admin" })).status).toBe(201);
    expect((await api.post(`/admin/realms/${source}/clients/${app}/roles`, { name: "use" })).status).toBe(201);
    for (const name of ["base", "lead"]) expect((await api.post(`/admin/realms/${source}/roles`, { name })).status).toBe(201);
    await api.post(`/admin/realms/${source}/roles/lead/composites`, { roleNames: ["base"] });
    await api.post(`/admin/realms/${source}/roles/lead/composites`, { roleNames: ["use"], clientId: app });
    await api.post(`/admin/realms/${source}/clients/${app}/roles/admin/composites`, { roleNames: ["lead"] });
    const doc = (await api.get(`/admin/realms/${source}/export`)).body;
    expect(doc.roles.find((r: { name: string }) => r.name === "lead").composites).toEqual({ realmRoles: ["base"], clientRoles: { [app]: ["use"] } });
    expect(doc.roles.find((r: { name: string }) => r.name === "base").composites).toBeUndefined();
    const appDoc = doc.clients.find((c: { clientId: string }) => c.clientId === app);
    expect(appDoc.roles.find((r: { name: string }) => r.name === "admin").composites).toEqual({ realmRoles: ["lead"], clientRoles: {} });

    // Ids are kept: the realm goes, then comes back from its document.
    expect((await api.del(`/admin/realms/${source}`)).status).toBe(200);
    const done = await api.post("/admin/realms/import", doc);
    expect([done.status, done.body.problems]).toEqual([201, undefined]);
    const imported = await api.get(`/admin/realms/${source}/clients/${app}/roles/admin/composites`);
    expect(imported.body.map((r: { name: string }) => r.name)).toEqual(["lead"]);
    expect((await api.get(`/admin/realms/${source}/roles/lead/composites`)).body.map((r: { name: string; clientId?: string }) => [r.name, r.clientId ?? ""]).sort())
      .toEqual([["base", ""], ["use", app]]);

    const broken = structuredClone(doc);
    broken.roles.find((r: { name: string }) => r.name === "lead").composites.realmRoles = ["base", "ghost"];
    const refused = await api.post("/admin/realms/import?overwrite=true", broken);
    expect(refused.status).toBe(400);
    const index = broken.roles.findIndex((r: { name: string }) => r.name === "lead");
    expect(refused.body.problems).toEqual([{ path: `$.roles[${index}].composites.realmRoles[1]`, message: 'no realm role "ghost" in roles' }]);
  });

  it("lists effective roles at .../composite: through groups and their ancestors, and composites expanded", async () => {
    const svc = uniqueName("eff");
    expect((await api.post(`${base()}/clients`, { clientId: svc })).status).toBe(201);
    expect((await api.post(`${base()}/clients/${svc}/roles`, { name: "call" })).status).toBe(201);
    for (const name of ["eff-parent", "eff-child", "eff-own", "eff-inner"]) expect((await api.post(`${base()}/roles`, { name })).status).toBe(201);
    await api.post(`${base()}/roles/eff-own/composites`, { roleNames: ["eff-inner"] });
    await api.post(`${base()}/roles/eff-inner/composites`, { roleNames: ["call"], clientId: svc });
    const parent = (await api.post(`${base()}/groups`, { name: uniqueName("parent") })).body.id as string;
    const child = (await api.post(`${base()}/groups`, { name: "child", parentId: parent })).body.id as string;
    await api.post(`${base()}/groups/${parent}/role-mappings`, { roleNames: ["eff-parent"] });
    await api.post(`${base()}/groups/${child}/role-mappings`, { roleNames: ["eff-child"] });
    const userId = (await api.post(`${base()}/users`, { username: uniqueName("effu") })).body.id as string;
    expect((await api.put(`${base()}/users/${userId}/groups/${child}`, {})).status).toBe(200);
    await api.post(`${base()}/users/${userId}/role-mappings/realm`, { roleNames: ["eff-own"] });
    const names = (res: { body: Array<{ name: string }> }) => res.body.map((r) => r.name);

    expect(names(await api.get(`${base()}/users/${userId}/role-mappings/realm`))).toEqual(["eff-own"]);
    const realmEffective = await api.get(`${base()}/users/${userId}/role-mappings/realm/composite`);
    expect(realmEffective.status).toBe(200);
    expect(names(realmEffective)).toEqual(["eff-child", "eff-inner", "eff-own", "eff-parent", "offline_access"]);
    expect(names(await api.get(`${base()}/users/${userId}/role-mappings/clients/${svc}/composite`))).toEqual(["call"]);
    expect(names(await api.get(`${base()}/groups/${child}/role-mappings/composite`))).toEqual(["eff-child", "eff-parent"]);
    expect((await api.get(`${base()}/users/00000000-0000-4000-8000-000000000000/role-mappings/realm/composite`)).status).toBe(404);
  });

  it("records a composite change as an admin event at the role, with the roles", async () => {
    for (const name of ["ev-a", "ev-b"]) expect((await api.post(`${base()}/roles`, { name })).status).toBe(201);
    const id = (await api.get(`${base()}/roles/ev-a`)).body.id as string;
    await api.post(`${base()}/roles/ev-a/composites`, { roleNames: ["ev-b"] });
    const events = await eventually(
      () => api.get(`${base()}/admin-events?resourceType=REALM_ROLE`),
      (r) => (r.body ?? []).some((e: { resourcePath: string }) => e.resourcePath === `roles-by-id/${id}/composites`),
    );
    const mine = events.body.filter((e: { resourcePath: string }) => e.resourcePath === `roles-by-id/${id}/composites`);
    expect(mine.map((e: { operationType: string }) => e.operationType)).toEqual(["CREATE"]);
    expect(JSON.parse(mine[0].representation)).toEqual([{ id: expect.any(String), name: "ev-b" }]);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
