import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, titleOf, type PageResponse } from "./support/browser-session.js";
import { decodeQuotedPrintable, startSmtpSink } from "./support/smtp-sink.js";

const PW = "Mail-Code-Pass-1";
const CB = "http://localhost:3996/cb";

// The email-otp step (docs/authentication-flows.md): a sign-in code mailed through the realm's
// SMTP server (smtp-server as the sink), typed on the code page; the password grant cannot give it.
describe.each(targets())("authentication flows: email-otp ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let realm: string;
  let secret: string;

  beforeAll(async () => {
    server = await target.start("authentication-flows-email");
    api = adminApi(server.url, server.apiKey);
    sink = await startSmtpSink();
    realm = uniqueName("flowmail");
    expect((await api.post("/admin/realms", {
      name: realm, displayName: "Code Realm", smtpHost: "127.0.0.1", smtpPort: sink.port, smtpFrom: "noreply@tessera.test", eventsEnabled: true,
    })).status).toBe(201);
    const c = await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", redirectUris: [CB], grantTypes: ["authorization_code", "password"] });
    expect(c.status).toBe(201);
    secret = c.body.secret;
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "eve", email: `eve-${realm}@inbox.test`, password: PW })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "noemail", password: PW })).status).toBe(201);
    const flow = await api.post(`/admin/realms/${realm}/authentication/flows`, {
      alias: "mailed code", steps: [{ type: "username-password", requirement: "REQUIRED" }, { type: "email-otp", requirement: "REQUIRED" }],
    });
    expect(flow.status).toBe(201);
    expect((await api.put(`/admin/realms/${realm}`, { browserFlow: "mailed code", directGrantFlow: "mailed code" })).status).toBe(200);
  }, 90_000);
  afterAll(async () => {
    await sink?.stop();
    await server?.stop();
  });

  const authUrl = () => `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: "web", redirect_uri: CB, response_type: "code", scope: "openid", state: "st",
  })}`;
  const codesTo = async (to: string, count: number) => {
    const mails = await eventually(async () => sink.mails.filter((m) => m.to.includes(to)), (l) => l.length >= count);
    return mails.map((m) => /sign-in code is (\d{6})\./.exec(decodeQuotedPrintable(m.raw))?.[1] ?? "");
  };

  it("mails a code after the password; a wrong code is refused, the mailed one ends in a code for the client", async () => {
    const to = `eve-${realm}@inbox.test`;
    const b = new BrowserSession(server.url);
    const page = await b.submit(await b.get(authUrl()), { username: "eve", password: PW });
    expect(page.status).toBe(200);
    expect(page.text).toContain("A sign-in code was sent to your email address. Enter it below.");
    // The code page speaks of the mail, not of an authenticator app.
    expect(titleOf(page)).toBe("Email code");
    expect(page.text).toContain("Enter the 6-digit code sent to your email address.");
    expect(page.text).toContain('<label for="otp">Email code</label>');
    expect(page.text).not.toContain("authenticator");
    const [code] = await codesTo(to, 1);
    expect(code).toMatch(/^\d{6}$/);
    const raw = decodeQuotedPrintable(sink.mails.find((m) => m.to.includes(to))!.raw);
    expect(raw).toContain("Subject: Your Code Realm sign-in code");
    const wrong: PageResponse = await b.submit(page, { otp: code === "000000" ? "111111" : "000000" });
    expect(wrong.text).toContain("Invalid sign-in code.");
    expect(wrong.text).toContain('<label for="otp">Email code</label>');
    const done = await b.submit(wrong, { otp: code! });
    expect(done.status).toBe(302);
    expect(new URL(done.location).searchParams.get("code")).toBeTruthy();
    const errors = await eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=LOGIN_ERROR`)).body as Array<{ error: string }>, (e) => e.length >= 1);
    expect(errors.map((e) => e.error)).toContain("invalid_user_credentials");
  });

  it("tells a user without an address the code could not be sent, and the password grant cannot give the code", async () => {
    const b = new BrowserSession(server.url);
    const page = await b.submit(await b.get(authUrl()), { username: "noemail", password: PW });
    expect(page.text).toContain("The sign-in code could not be sent by email. Please try again later.");
    const grant = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "password", client_id: "web", client_secret: secret, username: "eve", password: PW },
    });
    expect([grant.status, grant.body]).toEqual([400, {
      error: "invalid_grant", error_description: "The authentication flow requires a passkey or an email code, which the password grant cannot provide",
    }]);
  });
});
