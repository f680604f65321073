import { adminApi, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

/** Keycloak's editUsernameAllowed (docs/admin-api.md): the realm setting through the Admin API, realm export and import. */
for (const target of targets()) describe(`editable usernames (${target.mode})`, () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await target.start("account-username");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  it("keeps editUsernameAllowed as a realm setting: false by default, a boolean, exported and imported", async () => {
    const r = uniqueName("acct-edit");
    const created = await api.post("/admin/realms", { name: r });
    expect([created.status, created.body.editUsernameAllowed]).toEqual([201, false]);
    const badUpdate = await api.put(`/admin/realms/${r}`, { editUsernameAllowed: "yes" });
    expect([badUpdate.status, badUpdate.body]).toEqual([400, { error: "invalid_field", message: "editUsernameAllowed must be a boolean", field: "editUsernameAllowed" }]);
    const badCreate = await api.post("/admin/realms", { name: uniqueName("acct-edit-bad"), editUsernameAllowed: 1 });
    expect([badCreate.status, badCreate.body]).toEqual([400, { error: "invalid_field", message: "editUsernameAllowed must be a boolean", field: "editUsernameAllowed" }]);
    const on = await api.put(`/admin/realms/${r}`, { editUsernameAllowed: true });
    expect([on.status, on.body.editUsernameAllowed]).toEqual([200, true]);
    expect((await api.get(`/admin/realms/${r}`)).body.editUsernameAllowed).toBe(true);

    const doc = (await api.get(`/admin/realms/${r}/export`)).body;
    expect(doc.realm.editUsernameAllowed).toBe(true);
    expect((await api.del(`/admin/realms/${r}`)).status).toBe(200);
    const restored = await api.post("/admin/realms/import", doc);
    expect([restored.status, restored.body.editUsernameAllowed]).toEqual([201, true]);
    expect((await api.get(`/admin/realms/${r}`)).body.editUsernameAllowed).toBe(true);
    // A document exported before the setting existed imports as Keycloak's default.
    delete doc.realm.editUsernameAllowed;
    const older = await api.post("/admin/realms/import?overwrite=true", doc);
    expect([older.status, older.body.editUsernameAllowed]).toEqual([201, false]);

    // A Keycloak realm export carries it over under the same name, with nothing to report.
    const kc = await api.post("/admin/realms/import", { realm: uniqueName("acct-kc"), enabled: true, editUsernameAllowed: true });
    expect([kc.status, kc.body.editUsernameAllowed, kc.body.importReport]).toEqual([201, true, []]);
  });

  afterAll(() => expectResponsesDocumented(recorded));
});
