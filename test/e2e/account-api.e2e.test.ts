import { generate } from "otplib";
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
 * The account API (docs/account-console.md) over HTTP: tokens of the realm's own `account-console`
 * client, got as the console gets them (authorization code + PKCE through the hosted login, with
 * openid-client as the relying party), and what they may do to their user only.
 */
for (const target of targets()) describe(`account API (${target.mode})`, () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  const realm = uniqueName("acct");
  const other = uniqueName("acct-other");
  const PASSWORD = "Correct-Horse-9";
  const CB = "http://localhost:3997/cb";
  let aliceId = "";

  beforeAll(async () => {
    server = await target.start("account-api");
    api = adminApi(server.url, server.apiKey);
    expect((await api.post("/admin/realms", { name: realm, passwordMinLength: 10, passwordRequireDigits: true })).status).toBe(201);
    expect((await api.post("/admin/realms", { name: other })).status).toBe(201);
    const alice = await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.com", emailVerified: true, firstName: "Alice", lastName: "Liddell", password: PASSWORD });
    expect(alice.status).toBe(201);
    aliceId = alice.body.id;
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "bob", email: "bob@example.com", password: PASSWORD })).status).toBe(201);
    expect((await api.post(`/admin/realms/${other}/users`, { username: "alice", password: PASSWORD })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "asks", clientType: "PUBLIC", redirectUris: [CB], requireConsent: true })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const consoleUrl = (r: string) => `${server.url}/realms/${r}/account/`;
  /** A sign-in to the account console of `r` in a browser of its own: its tokens. */
  async function signIn(r = realm, username = "alice", password = PASSWORD, b = new BrowserSession(server.url)) {
    const { rp, start, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm: r }), consoleUrl(r), password).calls();
    const config = await rp("account-console");
    const s = await start(config, { scope: "openid" });
    const tokens = await redeem(config, s, await login(b, await b.get(s.url.href), username, password));
    return { access: tokens.access_token, refresh: tokens.refresh_token!, sid: String(tokens.claims()!.sid), browser: b };
  }
  const call = (method: string, path: string, token?: string, body?: unknown) =>
    http(method, `${server.url}/realms/${realm}/account${path}`, { ...(body !== undefined ? { body } : {}), headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const refresh = (r: string, clientId: string, token: string) =>
    http("POST", `${server.url}/realms/${r}/protocol/openid-connect/token`, { form: { grant_type: "refresh_token", client_id: clientId, refresh_token: token } });

  it("gives every realm a public account-console client whose one redirect URI is the console", async () => {
    const res = await api.get(`/admin/realms/${other}/clients/account-console`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      clientId: "account-console", clientType: "PUBLIC", enabled: true, redirectUris: [consoleUrl(other)],
      grantTypes: ["authorization_code", "refresh_token"], requireConsent: false,
    });
    const page = await http("GET", consoleUrl(other));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    expect(page.text).toContain("<title>Account console</title>");
    const bare = await http("GET", `${server.url}/realms/${other}/account`);
    expect([bare.status, bare.headers.get("location")]).toEqual([302, "account/"]);
  });

  it("answers 401 without a token, and refuses another realm's token and another client's", async () => {
    const none = await call("GET", "/profile");
    expect([none.status, none.body]).toEqual([401, { error: "unauthorized", message: "missing credentials: send Authorization: Bearer <access token of account-console>" }]);
    expect(none.headers.get("www-authenticate")).toBe(`Bearer realm="${realm}"`);

    const foreign = await signIn(other);
    const refused = await call("GET", "/profile", foreign.access);
    expect([refused.status, refused.body]).toEqual([401, { error: "invalid_token", message: "the access token is not active" }]);
    expect(refused.headers.get("www-authenticate")).toBe(`Bearer realm="${realm}", error="invalid_token", error_description="the access token is not active"`);

    const { rp, start, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();
    const b = new BrowserSession(server.url);
    const asks = await rp("asks");
    const s = await start(asks);
    const consent = await login(b, await b.get(s.url.href));
    const app = await redeem(asks, s, await b.submit(consent, { decision: "approve" }));
    const wrongClient = await call("GET", "/profile", app.access_token);
    expect([wrongClient.status, wrongClient.body]).toEqual([403, { error: "insufficient_scope", message: "the account API takes tokens issued to account-console" }]);

    const garbage = await call("GET", "/profile", "not.a.token");
    expect(garbage.status).toBe(401);
  });

  it("reads and updates the profile, resets emailVerified with a new email, and names the field at fault", async () => {
    const me = await signIn();
    const read = await call("GET", "/profile", me.access);
    expect([read.status, read.body]).toEqual([200, {
      id: aliceId, username: "alice", firstName: "Alice", lastName: "Liddell", email: "alice@example.com", emailVerified: true, createdAt: expect.any(String),
    }]);
    expect(read.headers.get("cache-control")).toBe("no-store");

    const saved = await call("POST", "/profile", me.access, { firstName: "Alicia", lastName: "L.", email: "alicia@example.com" });
    expect([saved.status, saved.body]).toMatchObject([200, { id: aliceId, username: "alice", firstName: "Alicia", lastName: "L.", email: "alicia@example.com", emailVerified: false }]);
    expect((await api.get(`/admin/realms/${realm}/users/${aliceId}`)).body).toMatchObject({ firstName: "Alicia", email: "alicia@example.com", emailVerified: false });

    const sameName = await call("POST", "/profile", me.access, { username: "alice", firstName: "Alice" });
    expect([sameName.status, sameName.body.firstName]).toEqual([200, "Alice"]);
    const badEmail = await call("POST", "/profile", me.access, { email: "not-an-email" });
    expect([badEmail.status, badEmail.body.field, badEmail.body.error]).toEqual([400, "email", "invalid_request"]);
    const taken = await call("POST", "/profile", me.access, { email: "bob@example.com" });
    expect([taken.status, taken.body.field]).toEqual([409, "email"]);
    const rename = await call("POST", "/profile", me.access, { username: "alice2" });
    expect([rename.status, rename.body]).toEqual([400, { error: "username_read_only", message: "username cannot be changed in this realm", field: "username" }]);
    const readOnly = await call("POST", "/profile", me.access, { emailVerified: true });
    expect([readOnly.status, readOnly.body]).toEqual([400, { error: "unknown_field", message: "unknown or read-only field: emailVerified", field: "emailVerified" }]);
    const notText = await call("POST", "/profile", me.access, { firstName: 7 });
    expect([notText.status, notText.body]).toEqual([400, { error: "invalid_request", message: "firstName must be a string", field: "firstName" }]);
  });

  it("lists the user's sessions and signs one out, whose refresh token then fails", async () => {
    const here = await signIn(realm, "bob");
    const there = await signIn(realm, "bob");
    const list = await call("GET", "/sessions", here.access);
    expect(list.status).toBe(200);
    expect(list.body.map((s: { id: string; current: boolean; type: string; clients: string[] }) => [s.id, s.type, s.current, s.clients]))
      .toEqual([[here.sid, "sso", true, ["account-console"]], [there.sid, "sso", false, ["account-console"]]]);
    expect(list.body[0]).toEqual({
      id: here.sid, type: "sso", ipAddress: expect.stringMatching(/\S/), started: expect.any(Number), lastAccess: expect.any(Number),
      expires: expect.any(Number), clients: ["account-console"], current: true,
    });
    expect((await refresh(realm, "account-console", there.refresh)).status).toBe(200);

    const out = await call("DELETE", `/sessions/${there.sid}`, here.access);
    expect(out.status).toBe(204);
    const dead = await eventually(() => refresh(realm, "account-console", there.refresh), (r) => r.status === 400);
    expect([dead.status, dead.body.error]).toEqual([400, "invalid_grant"]);
    expect((await call("GET", "/sessions", here.access)).body.map((s: { id: string }) => s.id)).toEqual([here.sid]);

    // Another user's session is no session of this one.
    const alice = await signIn();
    const foreign = await call("DELETE", `/sessions/${alice.sid}`, here.access);
    expect([foreign.status, foreign.body]).toEqual([404, { error: "session_not_found", message: `session "${alice.sid}" not found` }]);
    expect((await refresh(realm, "account-console", alice.refresh)).status).toBe(200);

    const all = await call("DELETE", "/sessions", here.access);
    expect(all.status).toBe(204);
    const ended = await eventually(() => refresh(realm, "account-console", here.refresh), (r) => r.status === 400);
    expect(ended.status).toBe(400);
  });

  it("lists consents and revokes one, with the client's tokens", async () => {
    const { rp, start, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();
    const b = new BrowserSession(server.url);
    const asks = await rp("asks");
    const s = await start(asks);
    const page = await login(b, await b.get(s.url.href), "bob");
    const app = await redeem(asks, s, await b.submit(page, { decision: "approve" }));
    const me = await signIn(realm, "bob");

    const list = await call("GET", "/applications", me.access);
    expect([list.status, list.body]).toEqual([200, [{
      clientId: "asks", consent: { grantedScopes: ["email", "profile"], createdDate: expect.any(Number), lastUpdatedDate: expect.any(Number) },
    }]]);
    const revoked = await call("DELETE", "/applications/asks/consent", me.access);
    expect(revoked.status).toBe(204);
    expect((await call("GET", "/applications", me.access)).body).toEqual([]);
    const dead = await refresh(realm, "asks", app.refresh_token!);
    expect([dead.status, dead.body.error]).toEqual([400, "invalid_grant"]);
    const again = await call("DELETE", "/applications/asks/consent", me.access);
    expect([again.status, again.body]).toEqual([404, { error: "consent_not_found", message: "consent of client \"asks\" not found" }]);
  });

  it("enrols an authenticator application (TOTP) with a first code, lists it without its secret, and removes it", async () => {
    const me = await signIn();
    const begun = await call("POST", "/totp", me.access);
    expect([begun.status, begun.body]).toEqual([200, {
      secret: expect.stringMatching(/^[A-Z2-7]{16,}$/), otpauthUri: expect.stringMatching(/^otpauth:\/\/totp\//), qrCode: expect.stringMatching(/^data:image\/png;base64,/),
    }]);
    const now = Date.now();
    const wrongCode = (await generate({ secret: begun.body.secret, epoch: Math.floor(now / 1000) })) === "000000" ? "111111" : "000000";
    const wrong = await call("POST", "/totp/confirm", me.access, { code: wrongCode });
    expect([wrong.status, wrong.body]).toEqual([400, { error: "invalid_otp_code", message: "the code is not valid for this secret; check the device's clock", field: "code" }]);
    const confirmed = await call("POST", "/totp/confirm", me.access, { code: await generate({ secret: begun.body.secret, epoch: Math.floor(now / 1000) }) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes.length).toBeGreaterThanOrEqual(5);
    expect((await api.get(`/admin/realms/${realm}/users/${aliceId}/mfa/status`)).body).toEqual({ enabled: true });

    const listed = await call("GET", "/credentials", me.access);
    expect(listed.body.map((c: { id: string; type: string; userLabel: string }) => [c.id, c.type, c.userLabel])).toEqual([["password", "password", ""], ["otp", "otp", ""]]);
    expect(listed.text).not.toContain(begun.body.secret);
    const twice = await call("POST", "/totp", me.access);
    expect([twice.status, twice.body.error]).toEqual([400, "otp_already_configured"]);

    expect((await call("DELETE", "/credentials/otp", me.access)).status).toBe(204);
    expect((await api.get(`/admin/realms/${realm}/users/${aliceId}/mfa/status`)).body).toEqual({ enabled: false });
    expect((await call("GET", "/credentials", me.access)).body.map((c: { id: string }) => c.id)).toEqual(["password"]);
  });

  it("changes the password only with the current one and within the realm's policy", async () => {
    const me = await signIn(realm, "bob");
    const creds = await call("GET", "/credentials", me.access);
    expect([creds.status, creds.body]).toEqual([200, [{ id: "password", type: "password", userLabel: "", createdDate: expect.any(Number) }]]);
    const noOtp = await call("DELETE", "/credentials/otp", me.access);
    expect([noOtp.status, noOtp.body]).toEqual([404, { error: "credential_not_found", message: "credential \"otp\" not found" }]);
    // The password is changed, never removed: its path takes POST alone.
    const keep = await call("DELETE", "/password", me.access);
    expect([keep.status, keep.headers.get("allow")]).toEqual([405, "POST"]);
    const removePassword = await call("DELETE", "/credentials/password", me.access);
    expect([removePassword.status, removePassword.body]).toEqual([400, { error: "password_required", message: "the password cannot be removed; change it instead", field: "credentialId" }]);

    const wrong = await call("POST", "/password", me.access, { currentPassword: "Wrong-Horse-9", newPassword: "Brand-New-Pass-42" });
    expect([wrong.status, wrong.body]).toEqual([400, { error: "invalid_current_password", message: "the current password is not correct", field: "currentPassword" }]);
    const weak = await call("POST", "/password", me.access, { currentPassword: PASSWORD, newPassword: "short-pass" });
    expect([weak.status, weak.body]).toEqual([400, { error: "invalid_password", message: "password does not meet the password policy: a digit", field: "newPassword" }]);
    const mismatch = await call("POST", "/password", me.access, { currentPassword: PASSWORD, newPassword: "Brand-New-Pass-42", confirmation: "other" });
    expect([mismatch.status, mismatch.body.field]).toEqual([400, "confirmation"]);
    const missing = await call("POST", "/password", me.access, { newPassword: "Brand-New-Pass-42" });
    expect([missing.status, missing.body]).toEqual([400, { error: "invalid_request", message: "currentPassword is required", field: "currentPassword" }]);

    const changed = await call("POST", "/password", me.access, { currentPassword: PASSWORD, newPassword: "Brand-New-Pass-42", confirmation: "Brand-New-Pass-42" });
    expect(changed.status).toBe(204);
    // password.changed ends the user's sessions, this one too.
    const dead = await eventually(() => refresh(realm, "account-console", me.refresh), (r) => r.status === 400);
    expect(dead.status).toBe(400);
    const again = await signIn(realm, "bob", "Brand-New-Pass-42");
    expect((await call("GET", "/profile", again.access)).body.username).toBe("bob");
  });

  it("counts wrong current passwords as login failures (brute force)", async () => {
    const locking = uniqueName("acct-lock");
    expect((await api.post("/admin/realms", { name: locking, bruteForceEnabled: true, maxLoginFailures: 2, lockoutDuration: 900 })).status).toBe(201);
    const carol = await api.post(`/admin/realms/${locking}/users`, { username: "carol", password: PASSWORD });
    expect(carol.status).toBe(201);
    const me = await signIn(locking, "carol");
    const change = (currentPassword: string) => http("POST", `${server.url}/realms/${locking}/account/password`, {
      body: { currentPassword, newPassword: "Brand-New-Pass-42" }, headers: { Authorization: `Bearer ${me.access}` },
    });
    for (let i = 0; i < 2; i++) expect((await change("Wrong-Horse-9")).status).toBe(400);
    const lockedUsers = await eventually(() => api.get(`/admin/realms/${locking}/brute-force/locked-users`), (r) => r.body.length === 1);
    expect(lockedUsers.body.map((u: { userId: string; failureCount: number }) => [u.userId, u.failureCount])).toEqual([[carol.body.id, 2]]);
    // Locked now: the right password is refused the same way, and nothing changed.
    const locked = await change(PASSWORD);
    expect([locked.status, locked.body]).toEqual([400, { error: "invalid_current_password", message: "the current password is not correct", field: "currentPassword" }]);
    expect((await api.post(`/admin/realms/${locking}/brute-force/users/${carol.body.id}/unlock`)).status).toBe(204);
    expect((await change(PASSWORD)).status).toBe(204);
  });

  it("lists the identity providers the account is linked to and unlinks them (a user with a password may drop the last)", async () => {
    // Links come from brokered logins; here from a realm document (the broker's own import path).
    const linked = uniqueName("acct-links");
    expect((await api.post("/admin/realms", { name: linked })).status).toBe(201);
    const idp = (alias: string) => ({
      alias, providerType: "oidc", clientId: "tessera", clientSecret: "s3cret-value", authorizationUrl: "https://idp.example.com/authorize",
      tokenUrl: "https://idp.example.com/token", issuer: "https://idp.example.com",
    });
    for (const alias of ["corp", "github-ish"]) expect((await api.post(`/admin/realms/${linked}/identity-providers`, idp(alias))).status).toBe(201);
    expect((await api.post(`/admin/realms/${linked}/users`, { username: "dan", password: PASSWORD })).status).toBe(201);
    const doc = (await api.get(`/admin/realms/${linked}/export?includeUsers=true&includeSecrets=true`)).body;
    const user = (name: string) => doc.users.find((u: { username: string }) => u.username === name);
    user("dan").federatedIdentities = [{ identityProvider: "corp", userId: "corp-dan", userName: "dan@corp" }, { identityProvider: "github-ish", userId: "gh-7", userName: "dan7" }];
    expect((await api.post("/admin/realms/import?overwrite=true", doc)).status).toBe(201);

    const me = await signIn(linked, "dan");
    const at = (path: string) => `${server.url}/realms/${linked}/account${path}`;
    const auth = { Authorization: `Bearer ${me.access}` };
    const list = await http("GET", at("/linked-accounts"), { headers: auth });
    expect([list.status, list.body]).toEqual([200, [
      { identityProvider: "corp", userName: "dan@corp", createdAt: expect.any(String) },
      { identityProvider: "github-ish", userName: "dan7", createdAt: expect.any(String) },
    ]]);
    expect((await http("DELETE", at("/linked-accounts/corp"), { headers: auth })).status).toBe(204);
    expect((await http("GET", at("/linked-accounts"), { headers: auth })).body.map((l: { identityProvider: string }) => l.identityProvider)).toEqual(["github-ish"]);
    const none = await http("DELETE", at("/linked-accounts/corp"), { headers: auth });
    expect([none.status, none.body]).toEqual([404, { error: "link_not_found", message: "no link to identity provider \"corp\"" }]);
    // With a password, the last link may go too.
    expect((await http("DELETE", at("/linked-accounts/github-ish"), { headers: auth })).status).toBe(204);
    expect((await api.get(`/admin/realms/${linked}/users/${user("dan").id}/federated-identity`)).body).toEqual([]);
  });

  it("keeps a MANAGED organization member's link to the organization's identity provider, as Keycloak does", async () => {
    const managed = uniqueName("acct-managed");
    expect((await api.post("/admin/realms", { name: managed, organizationsEnabled: true })).status).toBe(201);
    expect((await api.post(`/admin/realms/${managed}/identity-providers`, {
      alias: "corp", providerType: "oidc", clientId: "tessera", clientSecret: "s3cret-value", authorizationUrl: "https://idp.example.com/authorize",
      tokenUrl: "https://idp.example.com/token", issuer: "https://idp.example.com",
    })).status).toBe(201);
    const org = await api.post(`/admin/realms/${managed}/organizations`, { name: "Corp", alias: "corp-org", identityProviders: ["corp"] });
    const eve = await api.post(`/admin/realms/${managed}/users`, { username: "eve", password: PASSWORD });
    const fay = await api.post(`/admin/realms/${managed}/users`, { username: "fay", password: PASSWORD });
    for (const u of [eve, fay]) expect((await api.post(`/admin/realms/${managed}/organizations/${org.body.id}/members`, JSON.stringify(u.body.id))).status).toBe(201);
    // The links, and eve's MANAGED membership as a brokered first login leaves it, through the import.
    const doc = (await api.get(`/admin/realms/${managed}/export?includeUsers=true&includeSecrets=true`)).body;
    for (const u of doc.users as Array<Record<string, unknown>>) u.federatedIdentities = [{ identityProvider: "corp", userId: `corp-${String(u.username)}`, userName: `${String(u.username)}@corp` }];
    doc.users.find((u: { username: string }) => u.username === "eve").managedOrganizations = ["corp-org"];
    expect((await api.post("/admin/realms/import?overwrite=true", doc)).status).toBe(201);

    const unlink = async (username: string) => http("DELETE", `${server.url}/realms/${managed}/account/linked-accounts/corp`, {
      headers: { Authorization: `Bearer ${(await signIn(managed, username)).access}` },
    });
    const refused = await unlink("eve");
    expect([refused.status, refused.body]).toEqual([400, {
      error: "managed_member", message: 'the account belongs to organization "corp-org" through this identity provider; its link cannot be removed', field: "alias",
    }]);
    expect((await api.get(`/admin/realms/${managed}/users/${eve.body.id}/federated-identity`)).body).toHaveLength(1);
    // An UNMANAGED member of the same organization may unlink.
    expect((await unlink("fay")).status).toBe(204);
    expect((await api.get(`/admin/realms/${managed}/users/${fay.body.id}/federated-identity`)).body).toEqual([]);
  });

  it("records the user's changes as login events of account-console where the realm records events", async () => {
    const audited = uniqueName("acct-events");
    expect((await api.post("/admin/realms", { name: audited, eventsEnabled: true })).status).toBe(201);
    const fay = await api.post(`/admin/realms/${audited}/users`, { username: "fay", email: "fay@example.com", password: PASSWORD });
    expect(fay.status).toBe(201);
    const other = await signIn(audited, "fay");
    const me = await signIn(audited, "fay");
    const at = (method: string, path: string, body?: unknown) => http(method, `${server.url}/realms/${audited}/account${path}`, {
      ...(body !== undefined ? { body } : {}), headers: { Authorization: `Bearer ${me.access}` },
    });
    expect((await at("POST", "/profile", { email: "fay@example.org" })).status).toBe(200);
    expect((await at("DELETE", `/sessions/${other.sid}`)).status).toBe(204);
    const TYPES = ["UPDATE_PROFILE", "UPDATE_EMAIL", "LOGOUT"];
    const events = await eventually(
      async () => ((await api.get(`/admin/realms/${audited}/events`)).body as Array<{ type: string }>).filter((e) => TYPES.includes(e.type)),
      (e) => e.length === 3);
    expect(events.map((e: any) => [e.type, e.clientId, e.userId, e.sessionId ?? ""]).sort()).toEqual([
      ["LOGOUT", "account-console", fay.body.id, other.sid], ["UPDATE_EMAIL", "account-console", fay.body.id, me.sid],
      ["UPDATE_PROFILE", "account-console", fay.body.id, me.sid],
    ]);
  });

  afterAll(() => expectResponsesDocumented(recorded));
});
