import { adminApi, http, uniqueName } from "./support/http.js";
import type { TestServer } from "./support/embedded-server.js";
import { targets } from "./support/targets.js";

// A realm's locale settings (Keycloak's internationalizationEnabled, supportedLocales,
// defaultLocale) and text overrides (Keycloak's /localization Admin API): validation, statuses
// and bodies, realm export and import (Tessera's and Keycloak's documents), discovery's
// ui_locales_supported. In both run modes: over MongoDB, concurrent text writes do interleave.
describe.each(targets())("localization Admin API ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let plain: string;

  beforeAll(async () => {
    server = await target.start("localization-admin");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("i18n");
    plain = uniqueName("i18n-off");
    const created = await api.post("/admin/realms", { name: realm, displayName: "Shop", internationalizationEnabled: true, supportedLocales: ["en", "de"], defaultLocale: "de" });
    expect([created.status, created.body.internationalizationEnabled, created.body.supportedLocales, created.body.defaultLocale]).toEqual([201, true, ["en", "de"], "de"]);
    const off = await api.post("/admin/realms", { name: plain, displayName: "Plain" });
    expect([off.status, off.body.internationalizationEnabled, off.body.supportedLocales, off.body.defaultLocale]).toEqual([201, false, [], ""]);
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses ill-formed locale settings, naming the field", async () => {
    const bad = await api.post("/admin/realms", { name: uniqueName("i18n-bad"), supportedLocales: ["en", "de_DE"] });
    expect([bad.status, bad.body.error, bad.body.field]).toEqual([400, "invalid_request", "supportedLocales"]);
    const outside = await api.post("/admin/realms", { name: uniqueName("i18n-bad"), supportedLocales: ["en", "de"], defaultLocale: "fr" });
    expect([outside.status, outside.body.field, outside.body.message]).toEqual([400, "defaultLocale", "defaultLocale \"fr\" must be one of supportedLocales (en, de)"]);
    const update = await api.put(`/admin/realms/${realm}`, { supportedLocales: ["en", "fr"] });
    expect([update.status, update.body.field]).toEqual([400, "defaultLocale"]);
    // A tag without a shipped bundle is a locale all the same (its texts fall back to English).
    const sw = await api.post("/admin/realms", { name: uniqueName("i18n-sw"), internationalizationEnabled: true, supportedLocales: ["en", "SW"] });
    expect([sw.status, sw.body.supportedLocales]).toEqual([201, ["en", "sw"]]);
  });

  it("lists the supported locales in discovery only with internationalization (OIDC Discovery 1.0 section 3)", async () => {
    const advertised = await http("GET", `${server.url}/realms/${realm}/.well-known/openid-configuration`);
    expect([advertised.status, advertised.body.ui_locales_supported]).toEqual([200, ["en", "de"]]);
    const discovery = await http("GET", `${server.url}/realms/${plain}/.well-known/openid-configuration`);
    expect(discovery.body).not.toHaveProperty("ui_locales_supported");
  });

  it("serves Keycloak's localization Admin API with its statuses and bodies", async () => {
    const base = `/admin/realms/${realm}/localization`;
    expect(await api.get(base).then((r) => [r.status, r.body])).toEqual([200, []]);
    expect(await api.get(`${base}/de`).then((r) => [r.status, r.body])).toEqual([200, {}]);
    expect((await api.put(`${base}/de`, { loginAccountTitle: "Willkommen zurück", doNext: "Los" })).status).toBe(204);
    expect((await api.post(`${base}/en`, { doNext: "Onwards" })).status).toBe(204);
    expect(await api.get(base).then((r) => [r.status, r.body])).toEqual([200, ["de", "en"]]);
    expect((await api.post(`${base}/de`, { doLogIn: "Einloggen" })).status).toBe(204);
    expect(await api.get(`${base}/de`).then((r) => r.body)).toEqual({ loginAccountTitle: "Willkommen zurück", doNext: "Los", doLogIn: "Einloggen" });
    expect((await api.put(`${base}/de`, { loginAccountTitle: "Willkommen" })).status).toBe(204);
    expect(await api.get(`${base}/de`).then((r) => r.body)).toEqual({ loginAccountTitle: "Willkommen" });

    const one = await http("GET", `${server.url}${base}/de/loginAccountTitle`, { headers: { "X-Admin-API-Key": server.apiKey } });
    expect([one.status, one.headers.get("content-type"), one.text]).toEqual([200, "text/plain; charset=utf-8", "Willkommen"]);
    const put = await http("PUT", `${server.url}${base}/de/doForgotPassword`, { body: "Kennwort vergessen?", headers: { "X-Admin-API-Key": server.apiKey, "content-type": "text/plain" } });
    expect(put.status).toBe(204);
    const json = await http("PUT", `${server.url}${base}/de/doForgotPassword`, { body: { text: "x" }, headers: { "X-Admin-API-Key": server.apiKey } });
    expect([json.status, json.body]).toEqual([415, { error: "unsupported_media_type", message: "the request body must be text/plain: the text itself" }]);
    const badKey = await api.put(`${base}/de`, { "no spaces": "x" });
    expect([badKey.status, badKey.body.error, badKey.body.field]).toEqual([400, "invalid_request", "key"]);
    const badLocale = await api.put(`${base}/de_DE`, { doLogIn: "x" });
    expect([badLocale.status, badLocale.body.field]).toEqual([400, "locale"]);
    const tooLong = await api.put(`${base}/de`, { doLogIn: "x".repeat(4001) });
    expect([tooLong.status, tooLong.body.field]).toEqual([400, "text"]);
    const unknownRealm = await api.get("/admin/realms/no-such-realm-i18n/localization");
    expect([unknownRealm.status, unknownRealm.body.error]).toEqual([404, "realm_not_found"]);

    const delKey = await http("DELETE", `${server.url}${base}/de/doForgotPassword`, { headers: { "X-Admin-API-Key": server.apiKey } });
    expect(delKey.status).toBe(204);
    const again = await http("DELETE", `${server.url}${base}/de/doForgotPassword`, { headers: { "X-Admin-API-Key": server.apiKey } });
    expect([again.status, again.body]).toEqual([404, { error: "localization_not_found", message: "localization text \"doForgotPassword\" of locale \"de\" not found" }]);
    const missingKey = await http("GET", `${server.url}${base}/de/doForgotPassword`, { headers: { "X-Admin-API-Key": server.apiKey } });
    expect([missingKey.status, missingKey.body]).toEqual([404, { error: "localization_not_found", message: "localization text not found" }]);
    expect((await api.del(`${base}/en`)).status).toBe(204);
    expect(await api.del(`${base}/en`).then((r) => [r.status, r.body.error])).toEqual([404, "localization_not_found"]);
    expect(await api.get(base).then((r) => r.body)).toEqual(["de"]);
  });

  it("keeps every one of many texts written at once (no lost update)", async () => {
    // Admin events on: each write then waits for its staged event, so the requests interleave.
    const busy = uniqueName("i18n-busy");
    expect((await api.post("/admin/realms", { name: busy, adminEventsEnabled: true })).status).toBe(201);
    const base = `/admin/realms/${busy}/localization`;
    const keys = Array.from({ length: 20 }, (_, i) => `concurrentKey${i}`);
    const answers = await Promise.all(keys.map((key) => http("PUT", `${server.url}${base}/fr/${key}`, {
      body: `texte ${key}`, headers: { "X-Admin-API-Key": server.apiKey, "content-type": "text/plain" },
    })));
    expect(answers.map((a) => a.status)).toEqual(keys.map(() => 204));
    expect(await api.get(`${base}/fr`).then((r) => r.body)).toEqual(Object.fromEntries(keys.map((k) => [k, `texte ${k}`])));
  });

  it("exports and imports the locale settings and overrides, as Keycloak's localizationTexts", async () => {
    const exported = await api.get(`/admin/realms/${realm}/export?includeUsers=true`);
    expect(exported.status).toBe(200);
    expect(exported.body.realm).toMatchObject({
      internationalizationEnabled: true, supportedLocales: ["en", "de"], defaultLocale: "de", localizationTexts: { de: { loginAccountTitle: "Willkommen" } },
    });
    // Dropped, then the document brings it back (ids belong to their realm: the same name, replaced).
    expect((await api.put(`/admin/realms/${realm}`, { internationalizationEnabled: false, supportedLocales: [], defaultLocale: "" })).status).toBe(200);
    expect((await api.del(`/admin/realms/${realm}/localization/de`)).status).toBe(204);
    const imported = await api.post("/admin/realms/import?overwrite=true", exported.body);
    expect([imported.status, imported.body.name]).toEqual([201, realm]);
    const got = await api.get(`/admin/realms/${realm}`);
    expect([got.body.internationalizationEnabled, got.body.supportedLocales, got.body.defaultLocale]).toEqual([true, ["en", "de"], "de"]);
    expect(await api.get(`/admin/realms/${realm}/localization/de`).then((r) => r.body)).toEqual({ loginAccountTitle: "Willkommen" });

    // Keycloak's own export shape: the same four fields.
    const kc = await api.post("/admin/realms/import?format=keycloak", {
      realm: uniqueName("i18n-kc"), enabled: true, internationalizationEnabled: true, supportedLocales: ["fr", "en"], defaultLocale: "fr",
      localizationTexts: { fr: { doLogIn: "Entrer" } },
    });
    expect(kc.status).toBe(201);
    expect([kc.body.internationalizationEnabled, kc.body.supportedLocales, kc.body.defaultLocale]).toEqual([true, ["fr", "en"], "fr"]);
    expect(await api.get(`/admin/realms/${kc.body.name}/localization/fr`).then((r) => r.body)).toEqual({ doLogIn: "Entrer" });
  });
});
