import { randomUUID } from "node:crypto";
import { adminApi, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Realm roles, client roles and role mappings, spec 2.4, 4.4, 4.5, 4.6 (methods per DESIGN 7).
// Users come from service-account users (spec 1.11): the user Admin API lives on another branch.
describe.each(targets())("roles ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  const base = () => `/admin/realms/${realm}`;

  /** A fresh user: the service-account user of a new client_credentials client. */
  async function newUser(): Promise<string> {
    const clientId = uniqueName("sa");
    expect((await api.post(`${base()}/clients`, { clientId, grantTypes: ["client_credentials"] })).status).toBe(201);
    return (await api.get(`${base()}/clients/${clientId}/service-account-user`)).body.id;
  }

  beforeAll(async () => {
    server = await target.start("roles");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("roles");
    expect((await api.post("/admin/realms", { name: realm, adminEventsEnabled: true })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  it("starts every realm with the offline_access realm role", async () => {
    const res = await api.get(`${base()}/roles`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: expect.any(String), name: "offline_access", description: "${role_offline-access}", clientRole: false, composite: false }]);
  });

  it("creates, gets, lists and deletes realm roles", async () => {
    const res = await api.post(`${base()}/roles`, { name: "editor", description: "Edits" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "editor", description: "Edits", clientRole: false, composite: false });
    expect((await api.get(`${base()}/roles/editor`)).body).toEqual(res.body);
    const list = await api.get(`${base()}/roles`);
    expect(list.body.map((r: { name: string }) => r.name)).toEqual(expect.arrayContaining(["editor", "offline_access"]));
    const dup = await api.post(`${base()}/roles`, { name: "editor" });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: "conflict", message: 'role "editor" already exists', field: "name" });
    const del = await api.del(`${base()}/roles/editor`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    const gone = await api.get(`${base()}/roles/editor`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: "role_not_found", message: 'role "editor" not found' });
    expect((await api.del(`${base()}/roles/editor`)).status).toBe(404);
  });

  it.each([
    [{}, "name", "invalid_request"],
    [{ name: "" }, "name", "invalid_request"],
    [{ name: "x".repeat(256) }, "name", "invalid_request"],
    [{ name: "ok", composite: true }, "composite", "unknown_field"],
    [{ name: 5 }, "name", "invalid_field"],
  ])("refuses the role %j naming %s", async (body, field, reason) => {
    const res = await api.post(`${base()}/roles`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(reason);
    expect(res.body.field).toBe(field);
  });

  it("accepts a role name of 255 characters", async () => {
    expect((await api.post(`${base()}/roles`, { name: "r".repeat(255) })).status).toBe(201);
  });

  it("creates client roles scoped to their client", async () => {
    const clientId = uniqueName("rc");
    await api.post(`${base()}/clients`, { clientId });
    const res = await api.post(`${base()}/clients/${clientId}/roles`, { name: "viewer" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), name: "viewer", description: "", clientRole: true, clientId, composite: false });
    // The same name is free in the realm and in another client.
    expect((await api.post(`${base()}/roles`, { name: "viewer" })).status).toBe(201);
    const other = uniqueName("rc2");
    await api.post(`${base()}/clients`, { clientId: other });
    expect((await api.post(`${base()}/clients/${other}/roles`, { name: "viewer" })).status).toBe(201);
    const dup = await api.post(`${base()}/clients/${clientId}/roles`, { name: "viewer" });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: "conflict", message: `role "viewer" already exists in client "${clientId}"`, field: "name" });
    const list = await api.get(`${base()}/clients/${clientId}/roles`);
    expect(list.body).toEqual([res.body]);
    expect((await api.get(`${base()}/clients/${clientId}/roles/viewer`)).body).toEqual(res.body);
    expect((await api.del(`${base()}/clients/${clientId}/roles/viewer`)).status).toBe(204);
    expect((await api.get(`${base()}/clients/${clientId}/roles`)).body).toEqual([]);
    const missing = await api.get(`${base()}/clients/nope/roles`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "client_not_found", message: 'client "nope" not found' });
  });

  it("assigns, lists and removes a user's realm roles", async () => {
    const userId = await newUser();
    await api.post(`${base()}/roles`, { name: "ra" });
    await api.post(`${base()}/roles`, { name: "rb" });
    const path = `${base()}/users/${userId}/role-mappings/realm`;
    expect((await api.get(path)).body).toEqual([]);
    const assigned = await api.post(path, { roleNames: ["ra", "rb", "ra"] });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toEqual({ roleNames: ["ra", "rb"] });
    // Idempotent.
    expect((await api.post(path, { roleNames: ["ra"] })).body).toEqual({ roleNames: ["ra"] });
    const list = await api.get(path);
    expect(list.body.map((r: { name: string }) => r.name)).toEqual(["ra", "rb"]);
    expect(list.body[0]).toEqual({ id: expect.any(String), name: "ra", description: "", clientRole: false, composite: false });
    const removed = await api.del(path, { roleNames: ["ra"] });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ roleNames: ["ra"] });
    expect((await api.get(path)).body.map((r: { name: string }) => r.name)).toEqual(["rb"]);
    // Deleting a role removes its mappings.
    await api.del(`${base()}/roles/rb`);
    expect((await api.get(path)).body).toEqual([]);
  });

  it("applies nothing when a role name is unknown", async () => {
    const userId = await newUser();
    await api.post(`${base()}/roles`, { name: "known" });
    const path = `${base()}/users/${userId}/role-mappings/realm`;
    const res = await api.post(path, { roleNames: ["known", "ghost", "phantom"] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "unknown_roles", message: "unknown roles: ghost, phantom", field: "roleNames" });
    expect((await api.get(path)).body).toEqual([]);
    const del = await api.del(path, { roleNames: ["ghost"] });
    expect(del.status).toBe(400);
    expect(del.body.error).toBe("unknown_roles");
  });

  it.each([
    [{}, "roleNames", "invalid_request"],
    [{ roleNames: [] }, "roleNames", "invalid_request"],
    [{ roleNames: "a" }, "roleNames", "invalid_field"],
    [{ roleNames: ["a"], clientId: "x" }, "clientId", "unknown_field"],
  ])("refuses the mapping body %j", async (body, field, reason) => {
    const userId = await newUser();
    const res = await api.post(`${base()}/users/${userId}/role-mappings/realm`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(reason);
    expect(res.body.field).toBe(field);
  });

  it("assigns, lists and removes a user's client roles", async () => {
    const userId = await newUser();
    const clientId = uniqueName("crm");
    await api.post(`${base()}/clients`, { clientId });
    await api.post(`${base()}/clients/${clientId}/roles`, { name: "reader" });
    await api.post(`${base()}/roles`, { name: "reader-realm" });
    const path = `${base()}/users/${userId}/role-mappings/clients/${clientId}`;
    const ok = await api.post(path, { roleNames: ["reader"] });
    expect(ok.body).toEqual({ roleNames: ["reader"] });
    // A realm role is not a role of the client.
    const wrong = await api.post(path, { roleNames: ["reader-realm"] });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("unknown roles: reader-realm");
    const list = await api.get(path);
    expect(list.body).toEqual([{ id: expect.any(String), name: "reader", description: "", clientRole: true, clientId, composite: false }]);
    expect((await api.get(`${base()}/users/${userId}/role-mappings/realm`)).body).toEqual([]);
    expect((await api.del(path, { roleNames: ["reader"] })).body).toEqual({ roleNames: ["reader"] });
    expect((await api.get(path)).body).toEqual([]);
    // Deleting the client deletes its roles and their mappings.
    await api.post(path, { roleNames: ["reader"] });
    expect((await api.del(`${base()}/clients/${clientId}`)).status).toBe(204);
    expect((await api.get(path)).status).toBe(404);
    await api.post(`${base()}/clients`, { clientId });
    expect((await api.get(`${base()}/clients/${clientId}/roles`)).body).toEqual([]);
    expect((await api.get(path)).body).toEqual([]);
  });

  it("404s unknown users, groups and clients in mappings", async () => {
    const ghost = randomUUID();
    const u = await api.get(`${base()}/users/${ghost}/role-mappings/realm`);
    expect(u.status).toBe(404);
    expect(u.body).toEqual({ error: "user_not_found", message: `user "${ghost}" not found` });
    expect((await api.post(`${base()}/users/${ghost}/role-mappings/realm`, { roleNames: ["offline_access"] })).status).toBe(404);
    const g = await api.get(`${base()}/groups/${ghost}/role-mappings`);
    expect(g.status).toBe(404);
    expect(g.body).toEqual({ error: "group_not_found", message: `group "${ghost}" not found` });
    expect((await api.post(`${base()}/groups/${ghost}/role-mappings`, { roleNames: ["offline_access"] })).status).toBe(404);
    expect((await api.del(`${base()}/groups/${ghost}/role-mappings`, { roleNames: ["offline_access"] })).status).toBe(404);
    const userId = await newUser();
    const c = await api.get(`${base()}/users/${userId}/role-mappings/clients/nope`);
    expect(c.status).toBe(404);
    expect(c.body.error).toBe("client_not_found");
  });

  it("records role and mapping admin events", async () => {
    const userId = await newUser();
    const name = uniqueName("evrole");
    await api.post(`${base()}/roles`, { name });
    await api.post(`${base()}/users/${userId}/role-mappings/realm`, { roleNames: [name] });
    await api.del(`${base()}/users/${userId}/role-mappings/realm`, { roleNames: [name] });
    await api.del(`${base()}/roles/${name}`);
    const roleEvents = await eventually(
      () => api.get(`${base()}/admin-events?resourceType=REALM_ROLE`),
      (r) => (r.body ?? []).filter((e: { resourcePath: string }) => e.resourcePath === `roles/${name}`).length === 2,
    );
    expect(roleEvents.body.filter((e: { resourcePath: string }) => e.resourcePath === `roles/${name}`)
      .map((e: { operationType: string }) => e.operationType)).toEqual(["DELETE", "CREATE"]);
    const mapEvents = await eventually(
      () => api.get(`${base()}/admin-events?resourceType=REALM_ROLE_MAPPING`),
      (r) => (r.body ?? []).filter((e: { resourcePath: string }) => e.resourcePath === `users/${userId}/role-mappings/realm`).length === 2,
    );
    const mine = mapEvents.body.filter((e: { resourcePath: string }) => e.resourcePath === `users/${userId}/role-mappings/realm`);
    expect(mine.map((e: { operationType: string }) => e.operationType)).toEqual(["DELETE", "CREATE"]);
    expect(JSON.parse(mine[1].representation)).toEqual([{ id: expect.any(String), name }]);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
