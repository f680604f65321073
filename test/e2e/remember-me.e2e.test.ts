import { adminApi, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

const FIELDS = ["rememberMe", "ssoSessionIdleTimeoutRememberMe", "ssoSessionMaxLifespanRememberMe"] as const;

/**
 * Keycloak's "Remember me" (docs/hosted-pages.md, docs/admin-api.md): the realm's rememberMe and
 * its SSO Session Idle / Max Remember Me through the Admin API, realm export and import, and a
 * Keycloak realm export.
 */
describe.each(targets())("Remember me ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await target.start("remember-me");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());
  afterAll(() => expectResponsesDocumented(recorded));

  const settingsOf = (realm: Record<string, unknown>) => FIELDS.map((f) => realm[f]);

  it("keeps rememberMe and its lifespans as realm settings: off and 0 by default, checked, exported and imported", async () => {
    const r = uniqueName("rm-settings");
    const created = await api.post("/admin/realms", { name: r });
    expect([created.status, ...settingsOf(created.body)]).toEqual([201, false, 0, 0]);
    for (const field of ["ssoSessionIdleTimeoutRememberMe", "ssoSessionMaxLifespanRememberMe"]) {
      const message = `${field} must be an integer between 0 and 315360000`;
      const bad = await api.put(`/admin/realms/${r}`, { [field]: -1 });
      expect([bad.status, bad.body]).toEqual([400, { error: "invalid_request", message, field }]);
      const badCreate = await api.post("/admin/realms", { name: uniqueName("rm-bad"), [field]: -60 });
      expect([badCreate.status, badCreate.body]).toEqual([400, { error: "invalid_request", message, field }]);
    }
    const notBoolean = await api.put(`/admin/realms/${r}`, { rememberMe: "yes" });
    expect([notBoolean.status, notBoolean.body]).toEqual([400, { error: "invalid_field", message: "rememberMe must be a boolean", field: "rememberMe" }]);
    expect(settingsOf((await api.get(`/admin/realms/${r}`)).body)).toEqual([false, 0, 0]);

    const on = await api.put(`/admin/realms/${r}`, { rememberMe: true, ssoSessionIdleTimeoutRememberMe: 86_400, ssoSessionMaxLifespanRememberMe: 1_209_600 });
    expect([on.status, ...settingsOf(on.body)]).toEqual([200, true, 86_400, 1_209_600]);
    expect(settingsOf((await api.get(`/admin/realms/${r}`)).body)).toEqual([true, 86_400, 1_209_600]);

    const doc = (await api.get(`/admin/realms/${r}/export`)).body;
    expect(settingsOf(doc.realm)).toEqual([true, 86_400, 1_209_600]);
    expect((await api.del(`/admin/realms/${r}`)).status).toBe(200);
    const restored = await api.post("/admin/realms/import", doc);
    expect([restored.status, ...settingsOf(restored.body), restored.body.importReport]).toEqual([201, true, 86_400, 1_209_600, []]);
    expect(settingsOf((await api.get(`/admin/realms/${r}`)).body)).toEqual([true, 86_400, 1_209_600]);
    // A document exported before the settings existed imports with Keycloak's defaults.
    for (const f of FIELDS) delete doc.realm[f];
    const older = await api.post("/admin/realms/import?overwrite=true", doc);
    expect([older.status, ...settingsOf(older.body)]).toEqual([201, false, 0, 0]);
    expect((await api.del(`/admin/realms/${r}`)).status).toBe(200);
  });

  it("takes the three fields of a Keycloak realm export under their own names, with nothing to report", async () => {
    const name = uniqueName("rm-kc");
    const kc = await api.post("/admin/realms/import", {
      realm: name, enabled: true, rememberMe: true, ssoSessionIdleTimeoutRememberMe: 3600, ssoSessionMaxLifespanRememberMe: 0,
    });
    expect([kc.status, ...settingsOf(kc.body), kc.body.importReport]).toEqual([201, true, 3600, 0, []]);
    expect((await api.del(`/admin/realms/${name}`)).status).toBe(200);
  });
});
