import { adminApi, recordResponses, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { exportSchemaProblems } from "./support/realm-export-schema.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Keycloak 26's organizationsEnabled realm switch: the realm field (default off, as Keycloak's)
// and the field through export and import.
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
