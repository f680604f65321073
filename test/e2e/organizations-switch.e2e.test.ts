import { adminApi, recordResponses, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { exportSchemaProblems } from "./support/realm-export-schema.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

/** Keycloak 26's body is {"errorMessage": ...}; Tessera's Admin API error format carries the same message. */
const OFF = { error: "organizations_not_enabled", message: "Organizations not enabled for this realm." };

// Keycloak 26's organizationsEnabled realm switch: the realm field (default off, as Keycloak's),
// the organizations Admin API's 404 while it is off, and the field through export and import.
describe.each(targets())("the organizationsEnabled realm switch ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await target.start("organizations-switch");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  async function realm(extra: Record<string, unknown> = {}): Promise<string> {
    const name = uniqueName("orgswitch");
    const res = await api.post("/admin/realms", { name, ...extra });
    expect(res.status).toBe(201);
    return name;
  }
  const orgs = (r: string) => `/admin/realms/${r}/organizations`;

  it("is false in a new realm, as Keycloak's default, and true when the create asks for it", async () => {
    const off = await realm();
    expect((await api.get(`/admin/realms/${off}`)).body.organizationsEnabled).toBe(false);
    const on = await realm({ organizationsEnabled: true });
    expect((await api.get(`/admin/realms/${on}`)).body.organizationsEnabled).toBe(true);
  });

  it("refuses a value that is not a boolean, naming the field, on create and update", async () => {
    const create = await api.post("/admin/realms", { name: uniqueName("orgswitch"), organizationsEnabled: "yes" });
    expect([create.status, create.body.field]).toEqual([400, "organizationsEnabled"]);
    const r = await realm();
    const update = await api.put(`/admin/realms/${r}`, { organizationsEnabled: 1 });
    expect([update.status, update.body.field]).toEqual([400, "organizationsEnabled"]);
    expect((await api.get(`/admin/realms/${r}`)).body.organizationsEnabled).toBe(false);
  });

  it("answers every organizations path with Keycloak's 404 while off, and works once it is on", async () => {
    const r = await realm();
    const user = await api.post(`/admin/realms/${r}/users`, { username: "ulla", email: "ulla@acme.test" });
    expect(user.status).toBe(201);
    const someId = "00000000-0000-4000-8000-000000000000";
    const answers = [
      await api.post(orgs(r), { name: "Acme" }),
      await api.get(orgs(r)),
      await api.get(`${orgs(r)}/count`),
      await api.get(`${orgs(r)}/${someId}`),
      await api.put(`${orgs(r)}/${someId}`, { name: "x" }),
      await api.del(`${orgs(r)}/${someId}`),
      await api.get(`${orgs(r)}/${someId}/members`),
      await api.post(`${orgs(r)}/${someId}/members`, JSON.stringify(user.body.id)),
      await api.post(`${orgs(r)}/${someId}/members/invite-user`, { email: "new@acme.test" }),
      await api.get(`${orgs(r)}/${someId}/roles`),
      await api.get(`${orgs(r)}/members/${user.body.id}/organizations`),
    ];
    for (const res of answers) expect([res.status, res.body]).toEqual([404, OFF]);
    // An unknown realm is the realm's 404, as Keycloak resolves the realm before the switch.
    expect((await api.get(orgs(`nope-${r}`))).body.error).toBe("realm_not_found");

    const on = await api.put(`/admin/realms/${r}`, { organizationsEnabled: true });
    expect([on.status, on.body.organizationsEnabled]).toEqual([200, true]);
    const created = await api.post(orgs(r), { name: "Acme", alias: "acme" });
    expect(created.status).toBe(201);
    expect((await api.get(`${orgs(r)}/count`)).body).toBe(1);

    // Off again: the organization is kept, out of reach, and back as it was when switched on.
    expect((await api.put(`/admin/realms/${r}`, { organizationsEnabled: false })).body.organizationsEnabled).toBe(false);
    const hidden = await api.get(`${orgs(r)}/${created.body.id}`);
    expect([hidden.status, hidden.body]).toEqual([404, OFF]);
    expect((await api.put(`/admin/realms/${r}`, { organizationsEnabled: true })).status).toBe(200);
    expect((await api.get(`${orgs(r)}/${created.body.id}`)).body).toEqual(created.body);
  });

  it("carries the field through export and import, off and on", async () => {
    for (const enabled of [false, true]) {
      const r = await realm({ organizationsEnabled: enabled });
      const exported = await api.get(`/admin/realms/${r}/export`);
      expect(exported.status).toBe(200);
      expect(exportSchemaProblems(exported.body)).toEqual([]);
      expect(exported.body.realm.organizationsEnabled).toBe(enabled);
      expect((await api.del(`/admin/realms/${r}`)).status).toBe(200);
      const imported = await api.post("/admin/realms/import", exported.body);
      expect([imported.status, imported.body.organizationsEnabled]).toEqual([201, enabled]);
      expect((await api.get(orgs(r))).status).toBe(enabled ? 200 : 404);
    }
  });

  it("imports a document exported before the switch existed with organizations on", async () => {
    const r = await realm({ organizationsEnabled: true });
    expect((await api.post(orgs(r), { name: "Acme", alias: "acme", domains: [{ name: "acme.test", verified: true }] })).status).toBe(201);
    const exported = (await api.get(`/admin/realms/${r}/export`)).body;
    delete exported.realm.organizationsEnabled;
    expect(exportSchemaProblems(exported)).toEqual([]);
    expect((await api.del(`/admin/realms/${r}`)).status).toBe(200);
    const imported = await api.post("/admin/realms/import", exported);
    expect([imported.status, imported.body.organizationsEnabled]).toEqual([201, true]);
    expect((await api.get(orgs(r))).body.map((o: { alias: string }) => o.alias)).toEqual(["acme"]);
  });

  it("reads Keycloak's organizationsEnabled from a Keycloak realm, off when it is absent", async () => {
    for (const [given, expected] of [[true, true], [undefined, false]] as const) {
      const name = uniqueName("kcorgs");
      const res = await api.post("/admin/realms/import", { realm: name, enabled: true, ...(given === undefined ? {} : { organizationsEnabled: given }) });
      expect([res.status, res.body.organizationsEnabled]).toEqual([201, expected]);
      expect(JSON.stringify(res.body.importReport ?? [])).not.toContain("organizationsEnabled");
    }
  });
});

afterAll(() => expectResponsesDocumented(recorded));
