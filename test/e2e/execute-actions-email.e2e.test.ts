import { generate } from "otplib";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms } from "./support/browser-session.js";
import { decodeQuotedPrintable, startSmtpSink } from "./support/smtp-sink.js";

// Keycloak's execute-actions-email: the Admin API mails a signed, single-use, expiring link
// (smtp-server as the mail sink), whose hosted pages run the listed required actions over HTTP.
describe("execute-actions-email (embedded)", () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let realm: string;
  let cliSecret: string;
  const CB = "http://localhost:3992/cb";

  beforeAll(async () => {
    server = await startEmbeddedServer("execute-actions-email");
    api = adminApi(server.url, server.apiKey);
    sink = await startSmtpSink();
    realm = uniqueName("actions");
    const created = await api.post("/admin/realms", {
      name: realm, displayName: "Actions Realm", eventsEnabled: true, adminEventsEnabled: true, requireEmailVerification: true,
      passwordRequireDigits: true, smtpHost: "127.0.0.1", smtpPort: sink.port, smtpFrom: "id@example.com",
    });
    expect([created.status, created.body.actionTokenGeneratedByAdminLifespan, created.body.actionTokenGeneratedByUserLifespan]).toEqual([201, 43_200, 300]);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "spa", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "off", clientType: "PUBLIC", redirectUris: [CB], enabled: false })).status).toBe(201);
    const cli = await api.post(`/admin/realms/${realm}/clients`, { clientId: "cli", grantTypes: ["password"] });
    expect(cli.status).toBe(201);
    cliSecret = cli.body.secret;
  }, 90_000);
  afterAll(async () => {
    await sink?.stop();
    await server?.stop();
  });

  const user = async (username: string, extra: Record<string, unknown> = {}) => {
    const res = await api.post(`/admin/realms/${realm}/users`, { username, email: `${username}@example.com`, password: "Start-Pass-1", ...extra });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const send = (id: string, actions: unknown, query: Record<string, string> = {}) =>
    api.put(`/admin/realms/${realm}/users/${id}/execute-actions-email?${new URLSearchParams(query)}`, actions);
  const mailsTo = (to: string) => sink.mails.filter((m) => m.to.includes(to));
  const mailOf = async (to: string, n = 1) => {
    await eventually(async () => mailsTo(to).length, (c) => c === n);
    return decodeQuotedPrintable(mailsTo(to)[n - 1]!.raw);
  };
  const linkIn = (mail: string) => {
    const m = /\/realms\/[^/\s]+\/login-actions\/action-token\?key=[A-Za-z0-9_-]+/.exec(mail);
    if (!m) throw new Error("no action link in mail");
    return `${server.url}${m[0]}`;
  };
  const passwordGrant = (username: string, password: string) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
    form: { grant_type: "password", username, password, scope: "openid" }, headers: { authorization: `Basic ${Buffer.from(`cli:${cliSecret}`).toString("base64")}` },
  });
  const events = (type: string) => eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=${type}`)).body as any[], (e) => e.length > 0);

  it("runs UPDATE_PASSWORD then VERIFY_EMAIL from the mailed link, once, and records the events", async () => {
    const id = await user("ada");
    expect((await passwordGrant("ada", "Start-Pass-1")).body.error_description).toBe("Account is not fully set up");
    const sent = await send(id, ["UPDATE_PASSWORD", "VERIFY_EMAIL"], { client_id: "spa", redirect_uri: CB });
    expect([sent.status, sent.text]).toEqual([204, ""]);
    const mail = await mailOf("ada@example.com");
    expect(mail).toMatch(/^Subject: Update Your Account for Actions Realm\r?$/m);
    expect(mail).toContain("performing the following action(s): Update Password, Verify Email.");
    expect(mail).toContain("This link will expire within 12 hours.");
    const link = linkIn(mail);

    const b = new BrowserSession(server.url);
    const form = await b.get(link);
    expect(form.status).toBe(200);
    expect(form.text).toContain("id=\"password-new\"");
    const weak = await b.submit(form, { "password-new": "weakpassword", "password-confirm": "weakpassword" });
    expect(weak.status).toBe(200);
    expect(/<ul class="alert" role="alert" id="password-errors">([\s\S]*?)<\/ul>/.exec(weak.text)?.[1]).toMatch(/digit/);
    const done = await b.submit(weak, { "password-new": "Ada-Pass-22", "password-confirm": "Ada-Pass-22" });
    expect(done.status).toBe(200);
    expect(done.text).toContain("<p class=\"notice\" role=\"status\" id=\"account-updated\">Your account has been updated.</p>");
    expect(done.text).toContain(`<a id="back-to-application" href="${CB}">« Back to application</a>`);

    expect((await api.get(`/admin/realms/${realm}/users/${id}`)).body.emailVerified).toBe(true);
    expect((await passwordGrant("ada", "Start-Pass-1")).status).toBe(400);
    const grant = await passwordGrant("ada", "Ada-Pass-22");
    expect(grant.status).toBe(200);
    expect(grant.body.id_token).toEqual(expect.any(String));

    const again = await new BrowserSession(server.url).get(link);
    expect(again.status).toBe(400);
    expect(again.text).toContain("<code id=\"error-code\">link_already_used</code>");

    const token = (await events("EXECUTE_ACTION_TOKEN")).find((e) => e.userId === id);
    expect(token).toMatchObject({ type: "EXECUTE_ACTION_TOKEN", clientId: "spa", userId: id, details: { username: "ada", required_actions: "UPDATE_PASSWORD,VERIFY_EMAIL", redirect_uri: CB } });
    for (const type of ["UPDATE_PASSWORD", "VERIFY_EMAIL", "EXECUTE_ACTIONS"]) {
      expect((await events(type)).filter((e) => e.userId === id)).toHaveLength(1);
    }
    const used = (await events("EXECUTE_ACTION_TOKEN_ERROR")).filter((e) => e.userId === id);
    expect(used.map((e) => e.error)).toEqual(["expired_code"]);
    const admin = await eventually(async () => (await api.get(`/admin/realms/${realm}/admin-events?operationTypes=ACTION`)).body as any[],
      (l) => l.some((e) => e.resourcePath === `users/${id}/execute-actions-email`));
    expect(admin.find((e) => e.resourcePath === `users/${id}/execute-actions-email`)).toMatchObject({ operationType: "ACTION", resourceType: "USER" });
    expect(JSON.stringify(admin)).not.toContain(new URL(link).searchParams.get("key")!);
  }, 60_000);

  it("runs CONFIGURE_TOTP: enrolment, recovery codes, then the account updated page without a back link", async () => {
    const id = await user("eli", { emailVerified: true });
    expect((await send(id, ["CONFIGURE_TOTP"])).status).toBe(204);
    const mail = await mailOf("eli@example.com");
    expect(mail).toContain("performing the following action(s): Configure OTP.");
    const b = new BrowserSession(server.url);
    const enrol = await b.get(linkIn(mail));
    expect(enrol.status).toBe(200);
    const secret = /<span class="secret" id="otp-secret">([A-Z2-7]+)<\/span>/.exec(enrol.text)?.[1];
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const codes = await b.submit(enrol, { otp: await generate({ secret: secret!, epoch: Math.floor(Date.now() / 1000) }) });
    expect(codes.status).toBe(200);
    expect(parseForms(codes.text)[0]!.fields.step).toBe("recovery_codes");
    const done = await b.submit(codes, {});
    expect(done.text).toContain("<p class=\"notice\" role=\"status\" id=\"account-updated\">Your account has been updated.</p>");
    expect(done.text).not.toContain("back-to-application");
    expect((await api.get(`/admin/realms/${realm}/users/${id}/mfa/status`)).body).toEqual({ enabled: true });
    expect((await events("UPDATE_TOTP")).filter((e) => e.userId === id)).toHaveLength(1);
  }, 30_000);

  it("refuses a link past its lifespan with the expired-link page", async () => {
    const id = await user("bo");
    expect((await send(id, ["VERIFY_EMAIL"], { lifespan: "1" })).status).toBe(204);
    const mail = await mailOf("bo@example.com");
    expect(mail).toContain("This link will expire within 1 second.");
    await new Promise((r) => setTimeout(r, 1_100));
    const res = await new BrowserSession(server.url).get(linkIn(mail));
    expect(res.status).toBe(400);
    expect(res.text).toContain("<code id=\"error-code\">invalid_link</code>");
    expect((await api.get(`/admin/realms/${realm}/users/${id}`)).body.emailVerified).toBe(false);
    const errors = (await events("EXECUTE_ACTION_TOKEN_ERROR")).filter((e) => e.error === "invalid_code");
    expect(errors.length).toBeGreaterThan(0);
  }, 30_000);

  it("runs TERMS_AND_CONDITIONS and UPDATE_PROFILE from the link on the login's pages", async () => {
    const id = await user("tess", { firstName: "Tess", lastName: "T" });
    expect((await send(id, ["UPDATE_PROFILE", "TERMS_AND_CONDITIONS"])).status).toBe(204);
    const mail = await mailOf("tess@example.com");
    expect(mail).toContain("performing the following action(s): Update Profile, Terms and Conditions.");
    const b = new BrowserSession(server.url);
    const terms = await b.get(linkIn(mail));
    expect([terms.status, parseForms(terms.text)[0]!.fields.step]).toEqual([200, "update_profile"]);
    const next = await b.submit(terms, { email: "tess@example.com", firstName: "Tessa", lastName: "T" });
    expect([next.status, parseForms(next.text)[0]!.fields.step]).toEqual([200, "terms"]);
    const done = await b.submit(next, { decision: "accept" });
    expect(done.status).toBe(200);
    expect(done.text).toContain("Your account has been updated.");
    const after = (await api.get(`/admin/realms/${realm}/users/${id}`)).body;
    expect([after.firstName, typeof after.attributes.terms_and_conditions[0]]).toEqual(["Tessa", "string"]);
  });

  it("answers Keycloak's 400s: no email, disabled, bad client, bad redirect, unknown action", async () => {
    const plain = await api.post(`/admin/realms/${realm}/users`, { username: "noemail", password: "Start-Pass-1" });
    const off = await user("offuser", { enabled: false });
    const ok = await user("cy");
    const cases: Array<[string, unknown, Record<string, string>, unknown]> = [
      [plain.body.id, ["UPDATE_PASSWORD"], {}, { error: "user_email_missing", message: "User email missing", field: "email" }],
      [off, ["UPDATE_PASSWORD"], {}, { error: "user_disabled", message: "User is disabled", field: "enabled" }],
      [ok, ["UPDATE_PASSWORD"], { redirect_uri: CB }, { error: "client_id_missing", message: "Client id missing", field: "client_id" }],
      [ok, ["UPDATE_PASSWORD"], { client_id: "nope" }, { error: "client_not_found", message: "Client doesn't exist", field: "client_id" }],
      [ok, ["UPDATE_PASSWORD"], { client_id: "off" }, { error: "client_disabled", message: "Client is not enabled", field: "client_id" }],
      [ok, ["UPDATE_PASSWORD"], { client_id: "spa", redirect_uri: "http://evil.example/cb" }, { error: "invalid_redirect_uri", message: "Invalid redirect uri.", field: "redirect_uri" }],
      [ok, ["webauthn-register"], {}, { error: "invalid_required_actions", message: "Provided invalid required actions", field: "actions" }],
      [ok, { actions: ["UPDATE_PASSWORD"] }, {}, { error: "invalid_field", message: "the body must be a JSON array of required action names", field: "actions" }],
    ];
    for (const [id, body, query, expected] of cases) {
      const res = await send(id, body, query);
      expect([res.status, res.body]).toEqual([400, expected]);
    }
    const unknown = await send("no-such-user", ["UPDATE_PASSWORD"]);
    expect(unknown.status).toBe(404);
    expect(mailsTo("cy@example.com")).toHaveLength(0);
  }, 30_000);

  it("takes the lifespans as realm fields, checked, and exports them", async () => {
    const updated = await api.put(`/admin/realms/${realm}`, { actionTokenGeneratedByAdminLifespan: 600, actionTokenGeneratedByUserLifespan: 120 });
    expect([updated.status, updated.body.actionTokenGeneratedByAdminLifespan, updated.body.actionTokenGeneratedByUserLifespan]).toEqual([200, 600, 120]);
    const bad = await api.put(`/admin/realms/${realm}`, { actionTokenGeneratedByAdminLifespan: 0 });
    expect([bad.status, bad.body.field]).toEqual([400, "actionTokenGeneratedByAdminLifespan"]);
    const id = await user("dee");
    expect((await send(id, ["UPDATE_PASSWORD"])).status).toBe(204);
    expect(await mailOf("dee@example.com")).toContain("This link will expire within 10 minutes.");
    const exported = await api.get(`/admin/realms/${realm}/export`);
    expect(exported.status).toBe(200);
    expect([exported.body.realm.actionTokenGeneratedByAdminLifespan, exported.body.realm.actionTokenGeneratedByUserLifespan]).toEqual([600, 120]);
  }, 30_000);
});
