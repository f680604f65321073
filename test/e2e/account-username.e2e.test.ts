import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

/**
 * Keycloak's editUsernameAllowed (docs/account-console.md, docs/admin-api.md): the realm setting
 * through the Admin API, realm export and import, and the account API's username change, with
 * tokens of the realm's `account-console` got as the console gets them (authorization code + PKCE
 * through the hosted login, openid-client as the relying party).
 */
for (const target of targets()) describe(`editable usernames (${target.mode})`, () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  const PASSWORD = "Correct-Horse-9";

  beforeAll(async () => {
    server = await target.start("account-username");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  /** A sign-in to the account console of `r` in a browser of its own: its tokens. */
  async function signIn(r: string, username: string, password = PASSWORD, b = new BrowserSession(server.url)) {
    const consoleUrl = `${server.url}/realms/${r}/account/`;
    const { rp, start, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm: r }), consoleUrl, password).calls();
    const config = await rp("account-console");
    const s = await start(config, { scope: "openid" });
    const tokens = await redeem(config, s, await login(b, await b.get(s.url.href), username, password));
    return { access: tokens.access_token };
  }

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

  it("lets users change their username only where the realm's editUsernameAllowed is set, as the Admin API checks one", async () => {
    const r = uniqueName("acct-rename");
    expect((await api.post("/admin/realms", { name: r, eventsEnabled: true })).status).toBe(201);
    const gil = await api.post(`/admin/realms/${r}/users`, { username: "gil", email: "gil@example.com", password: PASSWORD });
    expect(gil.status).toBe(201);
    expect((await api.post(`/admin/realms/${r}/users`, { username: "hana", password: PASSWORD })).status).toBe(201);
    expect((await api.post(`/admin/realms/${r}/clients`, { clientId: "cli", clientType: "PUBLIC", grantTypes: ["password"] })).status).toBe(201);
    const me = await signIn(r, "gil");
    const at = (method: string, path: string, body?: unknown, token = me.access) => http(method, `${server.url}/realms/${r}/account${path}`, {
      ...(body !== undefined ? { body } : {}), headers: { Authorization: `Bearer ${token}` },
    });
    const passwordGrant = (username: string) => http("POST", `${server.url}/realms/${r}/protocol/openid-connect/token`, {
      form: { grant_type: "password", client_id: "cli", username, password: PASSWORD },
    });
    const metadata = (usernameReadOnly: boolean) => ({
      attributes: [
        { name: "username", displayName: "Username", required: true, readOnly: usernameReadOnly },
        { name: "email", displayName: "Email", required: false, readOnly: false },
        { name: "firstName", displayName: "First name", required: false, readOnly: false },
        { name: "lastName", displayName: "Last name", required: false, readOnly: false },
      ],
    });

    // Off (the default): the metadata says so, and a rename is refused with nothing written.
    const offMeta = await at("GET", "/profile?userProfileMetadata=true");
    expect([offMeta.status, offMeta.body]).toEqual([200, {
      id: gil.body.id, username: "gil", firstName: "", lastName: "", email: "gil@example.com", emailVerified: false, createdAt: expect.any(String),
      userProfileMetadata: metadata(true),
    }]);
    const off = await at("POST", "/profile", { username: "gilbert", firstName: "Gil" });
    expect([off.status, off.body]).toEqual([400, { error: "username_read_only", message: "username cannot be changed in this realm", field: "username" }]);
    expect((await api.get(`/admin/realms/${r}/users/${gil.body.id}`)).body).toMatchObject({ username: "gil", firstName: "" });

    expect((await api.put(`/admin/realms/${r}`, { editUsernameAllowed: true })).status).toBe(200);
    const onMeta = await at("GET", "/profile?userProfileMetadata=true");
    expect([onMeta.status, onMeta.body.userProfileMetadata]).toEqual([200, metadata(false)]);
    const taken = await at("POST", "/profile", { username: "Hana" });
    expect([taken.status, taken.body]).toEqual([409, { error: "conflict", message: 'username "Hana" already exists', field: "username" }]);
    const invalid = await at("POST", "/profile", { username: "gil/bert" });
    expect([invalid.status, invalid.body]).toEqual([400, {
      error: "invalid_request", message: 'username must not contain "/": letters, digits and . - _ @ are allowed', field: "username",
    }]);
    const short = await at("POST", "/profile", { username: "g" });
    expect([short.status, short.body.error, short.body.field]).toEqual([400, "invalid_request", "username"]);

    const renamed = await at("POST", "/profile", { username: "gilbert", firstName: "Gil" });
    expect([renamed.status, renamed.body]).toEqual([200, {
      id: gil.body.id, username: "gilbert", firstName: "Gil", lastName: "", email: "gil@example.com", emailVerified: false, createdAt: expect.any(String),
    }]);
    expect((await api.get(`/admin/realms/${r}/users/${gil.body.id}`)).body.username).toBe("gilbert");
    // The new username signs in, through the hosted login and the password grant; the old one no longer does.
    const again = await signIn(r, "gilbert");
    expect((await at("GET", "/profile", undefined, again.access)).body.username).toBe("gilbert");
    const granted = await passwordGrant("gilbert");
    expect(granted.status).toBe(200);
    expect(JSON.parse(Buffer.from(String(granted.body.access_token).split(".")[1]!, "base64url").toString()).preferred_username).toBe("gilbert");
    const old = await passwordGrant("gil");
    expect([old.status, old.body.error]).toEqual([400, "invalid_grant"]);

    // UPDATE_PROFILE carries Keycloak's previous_username and updated_username for the rename only.
    const events = await eventually(
      async () => ((await api.get(`/admin/realms/${r}/events?type=UPDATE_PROFILE`)).body as Array<{ details?: Record<string, string> }>),
      (e) => e.length === 1);
    expect(events.map((e) => [e.details?.previous_username, e.details?.updated_username])).toEqual([["gil", "gilbert"]]);
  });

  afterAll(() => expectResponsesDocumented(recorded));
});
