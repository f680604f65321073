import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms, titleOf, type PageResponse } from "./support/browser-session.js";

/**
 * Keycloak's per-user required actions (docs/login-and-mfa.md, Required actions): the user field
 * through the Admin API, the login pages that run them before a code is issued, the password
 * grant's refusal, and realm export / import.
 */
for (const target of targets()) describe(`required actions (${target.mode})`, () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let cliSecret: string;
  const CB = "http://localhost:3993/cb";
  const PASSWORD = "Correct-Horse-9";

  beforeAll(async () => {
    server = await target.start("required-actions");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("actions");
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
    const cli = await api.post(`/admin/realms/${realm}/clients`, { clientId: "cli", grantTypes: ["password"] });
    expect(cli.status).toBe(201);
    cliSecret = cli.body.secret;
  }, 90_000);
  afterAll(async () => server?.stop());

  const users = () => `/admin/realms/${realm}/users`;
  const createUser = async (username: string, extra: Record<string, unknown> = {}) => {
    const res = await api.post(users(), { username, email: `${username}@example.com`, firstName: "First", lastName: "Last", password: PASSWORD, ...extra });
    expect(res.status).toBe(201);
    return res.body as { id: string; requiredActions: string[]; requirePasswordReset: boolean };
  };
  const authorizeUrl = () => `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: "web", redirect_uri: CB, response_type: "code", scope: "openid", state: "s1",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256",
  })}`;
  const login = async (b: BrowserSession, username: string): Promise<PageResponse> => {
    const page = await b.get(authorizeUrl());
    expect(parseForms(page.text)[0]!.fields.step).toBe("login");
    return b.submit(page, { username, password: PASSWORD });
  };
  const passwordGrant = (username: string) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
    form: { grant_type: "password", username, password: PASSWORD, scope: "openid" },
    headers: { authorization: `Basic ${Buffer.from(`cli:${cliSecret}`).toString("base64")}` },
  });

  it("keeps requiredActions as a set in Keycloak's order, refuses unknown names, and is requirePasswordReset for UPDATE_PASSWORD", async () => {
    const ann = await createUser("ann", { requiredActions: ["VERIFY_EMAIL", "UPDATE_PROFILE", "TERMS_AND_CONDITIONS", "UPDATE_PROFILE"] });
    expect([ann.requiredActions, ann.requirePasswordReset]).toEqual([["TERMS_AND_CONDITIONS", "UPDATE_PROFILE", "VERIFY_EMAIL"], false]);
    expect((await api.get(`${users()}/${ann.id}`)).body.requiredActions).toEqual(["TERMS_AND_CONDITIONS", "UPDATE_PROFILE", "VERIFY_EMAIL"]);

    const unknown = await api.put(`${users()}/${ann.id}`, { requiredActions: ["UPDATE_PROFILE", "webauthn-register"] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      error: "invalid_request", field: "requiredActions",
      message: 'requiredActions holds unknown required actions ("webauthn-register"); known: CONFIGURE_TOTP, TERMS_AND_CONDITIONS, UPDATE_PASSWORD, UPDATE_PROFILE, VERIFY_EMAIL',
    });
    const badCreate = await api.post(users(), { username: "bob-bad", requiredActions: ["update_password"] });
    expect([badCreate.status, badCreate.body.field]).toEqual([400, "requiredActions"]);

    // UPDATE_PASSWORD and requirePasswordReset are one fact, whichever names it.
    const listed = await api.put(`${users()}/${ann.id}`, { requiredActions: ["UPDATE_PASSWORD", "CONFIGURE_TOTP"] });
    expect([listed.status, listed.body.requiredActions, listed.body.requirePasswordReset]).toEqual([200, ["CONFIGURE_TOTP", "UPDATE_PASSWORD"], true]);
    const flag = await api.put(`${users()}/${ann.id}`, { requirePasswordReset: false });
    expect([flag.body.requiredActions, flag.body.requirePasswordReset]).toEqual([["CONFIGURE_TOTP"], false]);
    const again = await api.put(`${users()}/${ann.id}`, { requirePasswordReset: true, firstName: "Ann" });
    expect([again.body.requiredActions, again.body.requirePasswordReset]).toEqual([["CONFIGURE_TOTP", "UPDATE_PASSWORD"], true]);
    const clash = await api.put(`${users()}/${ann.id}`, { requiredActions: [], requirePasswordReset: true });
    expect([clash.status, clash.body.field]).toEqual([400, "requirePasswordReset"]);
    // An update without the list keeps it; [] clears it.
    expect((await api.put(`${users()}/${ann.id}`, { lastName: "L" })).body.requiredActions).toEqual(["CONFIGURE_TOTP", "UPDATE_PASSWORD"]);
    const cleared = await api.put(`${users()}/${ann.id}`, { requiredActions: [] });
    expect([cleared.body.requiredActions, cleared.body.requirePasswordReset]).toEqual([[], false]);
    const created = await createUser("cid", { requirePasswordReset: true });
    expect(created.requiredActions).toEqual(["UPDATE_PASSWORD"]);
  });

  it("runs TERMS_AND_CONDITIONS then UPDATE_PROFILE at login before the code; a decline refuses the login", async () => {
    const dora = await createUser("dora");
    const set = await api.put(`${users()}/${dora.id}`, { requiredActions: ["UPDATE_PROFILE", "TERMS_AND_CONDITIONS"] });
    expect(set.body.requiredActions).toEqual(["TERMS_AND_CONDITIONS", "UPDATE_PROFILE"]);

    // The password grant cannot run pages: refused as Keycloak refuses it, after the right password only.
    const grant = await passwordGrant("dora");
    expect([grant.status, grant.body]).toEqual([400, { error: "invalid_grant", error_description: "Account is not fully set up" }]);

    const b1 = new BrowserSession(server.url);
    const terms = await login(b1, "dora");
    expect([terms.status, titleOf(terms), parseForms(terms.text)[0]!.fields.step]).toEqual([200, "Terms and Conditions", "terms"]);
    expect(terms.text).toContain("Terms and conditions to be defined");
    // A post for a step the login is not at is refused as the other steps refuse it.
    const early = await b1.submit(terms, { step: "update_profile", email: "x@example.com", firstName: "X", lastName: "Y" });
    expect(early.status).toBe(400);
    expect(early.text).toContain("expired");
    const declined = await b1.submit(terms, { decision: "decline" });
    expect(declined.status).toBe(403);
    expect(declined.headers.get("location")).toBeNull();
    expect(declined.text).toContain("You need to agree to Terms and Conditions");
    const refused = await eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=LOGIN_ERROR&userId=${dora.id}`)).body as any[], (e) => e.length > 0);
    expect([refused[0].error, refused[0].details.custom_required_action]).toEqual(["rejected_by_user", "TERMS_AND_CONDITIONS"]);
    expect((await api.get(`${users()}/${dora.id}`)).body.requiredActions).toEqual(["TERMS_AND_CONDITIONS", "UPDATE_PROFILE"]);

    const b2 = new BrowserSession(server.url);
    const terms2 = await login(b2, "dora");
    const before = Math.floor(Date.now() / 1000);
    const profile = await b2.submit(terms2, { decision: "accept" });
    expect([profile.status, titleOf(profile), parseForms(profile.text)[0]!.fields]).toEqual([200, "Update Account Information", expect.objectContaining({
      step: "update_profile", email: "dora@example.com", firstName: "First", lastName: "Last",
    })]);
    expect(parseForms(profile.text)[0]!.fields.username).toBeUndefined();
    const invalid = await b2.submit(profile, { email: "not-an-email", firstName: "Dora" });
    expect(invalid.status).toBe(200);
    expect(parseForms(invalid.text)[0]!.fields.step).toBe("update_profile");
    expect(invalid.text).toMatch(/<p class="alert" role="alert">[^<]*email[^<]*<\/p>/);
    const missing = await b2.submit(invalid, { email: "dora@example.org", firstName: "" });
    expect(missing.text).toContain('<p class="alert" role="alert">Please specify first name.</p>');
    const done = await b2.submit(missing, { email: "dora@example.org", firstName: "Dora", lastName: "Explorer" });
    expect(done.status).toBe(302);
    const back = new URL(done.location);
    expect([`${back.origin}${back.pathname}`, back.searchParams.get("state"), back.searchParams.get("code")?.length ? "code" : ""]).toEqual([CB, "s1", "code"]);

    const after = (await api.get(`${users()}/${dora.id}`)).body;
    expect([after.requiredActions, after.email, after.firstName, after.lastName, after.emailVerified]).toEqual([[], "dora@example.org", "Dora", "Explorer", false]);
    const accepted = Number(after.attributes.terms_and_conditions[0]);
    expect(accepted).toBeGreaterThanOrEqual(before);
    expect(accepted).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
    const types = await eventually(async () => ((await api.get(`/admin/realms/${realm}/events?userId=${dora.id}`)).body as any[]).map((e) => e.type),
      (t) => t.includes("LOGIN"));
    expect(types).toEqual(expect.arrayContaining(["UPDATE_PROFILE", "UPDATE_EMAIL", "LOGIN"]));
    expect([(await passwordGrant("dora")).status]).toEqual([200]);
  });

  it("carries requiredActions through realm export and import", async () => {
    const r = uniqueName("actions-move");
    expect((await api.post("/admin/realms", { name: r })).status).toBe(201);
    const eve = await api.post(`/admin/realms/${r}/users`, { username: "eve", requiredActions: ["UPDATE_PASSWORD", "TERMS_AND_CONDITIONS"] });
    expect(eve.status).toBe(201);
    const doc = (await api.get(`/admin/realms/${r}/export?includeUsers=true`)).body;
    const exported = doc.users.find((u: { username: string }) => u.username === "eve");
    expect([exported.requiredActions, exported.requirePasswordReset]).toEqual([["TERMS_AND_CONDITIONS", "UPDATE_PASSWORD"], true]);
    expect((await api.del(`/admin/realms/${r}`)).status).toBe(200);
    expect((await api.post("/admin/realms/import", doc)).status).toBe(201);
    const found = (await api.get(`/admin/realms/${r}/users/${eve.body.id}`)).body;
    expect([found.requiredActions, found.requirePasswordReset]).toEqual([["TERMS_AND_CONDITIONS", "UPDATE_PASSWORD"], true]);
    // A document written before the field existed imports with requirePasswordReset alone.
    delete doc.users[0].requiredActions;
    doc.users[0].requirePasswordReset = false;
    expect((await api.post("/admin/realms/import?overwrite=true", doc)).status).toBe(201);
    expect((await api.get(`/admin/realms/${r}/users/${eve.body.id}`)).body.requiredActions).toEqual([]);
  });
});
