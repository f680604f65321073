import { adminApi, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms, type PageResponse } from "./support/browser-session.js";
import { decodeQuotedPrintable, startSmtpSink } from "./support/smtp-sink.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Self-service registration and email verification (spec 2.1 registrationAllowed,
// requireEmailVerification; spec 2.7 REGISTER / VERIFY_EMAIL events), through the hosted pages.
describe.each(targets())("registration and email verification ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let closed: string;
  let open: string;
  const CB = "http://localhost:3996/cb";
  const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

  beforeAll(async () => {
    server = await target.start("registration");
    api = adminApi(server.url, server.apiKey);
    sink = await startSmtpSink();
    closed = uniqueName("noreg");
    open = uniqueName("reg");
    expect((await api.post("/admin/realms", { name: closed, registrationAllowed: false })).status).toBe(201);
    expect((await api.post("/admin/realms", {
      name: open, registrationAllowed: true, requireEmailVerification: true, eventsEnabled: true,
      passwordRequireDigits: true, passwordRequireUppercase: true,
      smtpHost: "127.0.0.1", smtpPort: sink.port, smtpFrom: "id@example.com",
    })).status).toBe(201);
    for (const r of [closed, open]) {
      expect((await api.post(`/admin/realms/${r}/clients`, { clientId: "spa", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
    }
  }, 90_000);
  afterAll(async () => {
    await sink?.stop();
    await server?.stop();
  });

  const authUrl = (r: string) => `${server.url}/realms/${r}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: "spa", redirect_uri: CB, response_type: "code", scope: "openid", state: "st", code_challenge: CHALLENGE, code_challenge_method: "S256",
  })}`;
  const registerLink = (page: PageResponse) => /<a id="register-link" href="([^"]+)"/.exec(page.text)?.[1]?.replace(/&amp;/g, "&");
  const mailsTo = (to: string) => sink.mails.filter((m) => m.to.includes(to));
  const linkIn = (raw: string) => {
    const m = /\/realms\/[^/\s]+\/login-actions\/verify-email\?key=[A-Za-z0-9_-]+/.exec(decodeQuotedPrintable(raw));
    if (!m) throw new Error("no verification link in mail");
    return `${server.url}${m[0]}`;
  };

  it("shows the registration link only when the realm allows registration", async () => {
    const b = new BrowserSession(server.url);
    const login = await b.get(authUrl(closed));
    expect(login.status).toBe(200);
    expect(registerLink(login)).toBeUndefined();
    const tx = parseForms(login.text)[0]!.fields.tx!;
    const refused = await b.get(`${server.url}/realms/${closed}/login-actions/registration?tx=${tx}`);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("Registration is not allowed in this realm.");
    const allowed = await new BrowserSession(server.url).get(authUrl(open));
    expect(registerLink(allowed)).toMatch(new RegExp(`^/realms/${open}/login-actions/registration\\?tx=[A-Za-z0-9_-]+$`));
  });

  it("registers (every failed policy rule shown), requires a verified email, resends, verifies once, then logs in", async () => {
    const b = new BrowserSession(server.url);
    const login = await b.get(authUrl(open));
    const form = await b.get(`${server.url}${registerLink(login)}`);
    expect(form.status).toBe(200);
    expect(Object.keys(parseForms(form.text)[0]!.fields).sort()).toEqual(["csrf", "email", "firstName", "lastName", "password", "password-confirm", "tx", "username"]);
    const values = { username: "erin", email: "erin@example.com", firstName: "Erin", lastName: "E" };
    const weak = await b.submit(form, { ...values, password: "short", "password-confirm": "short" });
    expect(weak.status).toBe(200);
    const errors = /<ul class="alert" role="alert" id="registration-errors">([\s\S]*?)<\/ul>/.exec(weak.text)?.[1] ?? "";
    expect(errors).toContain("The password does not meet the password policy:");
    expect(errors).toMatch(/at least 8 characters/);
    expect(errors).toMatch(/uppercase/);
    expect(errors).toMatch(/digit/);
    expect(parseForms(weak.text)[0]!.fields.email).toBe("erin@example.com");
    expect(sink.mails).toHaveLength(0);

    const check = await b.submit(weak, { ...values, password: "Erin-Pass-42", "password-confirm": "Erin-Pass-42" });
    expect(check.status).toBe(200);
    expect(check.text).toContain("<title>Verify your email");
    expect(check.text).toContain("erin@example.com");
    await eventually(async () => mailsTo("erin@example.com").length, (n) => n === 1);
    const first = linkIn(mailsTo("erin@example.com")[0]!.raw);

    const users = (await api.get(`/admin/realms/${open}/users?username=erin`)).body.users;
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ username: "erin", email: "erin@example.com", firstName: "Erin", emailVerified: false });
    const events = await eventually(async () => (await api.get(`/admin/realms/${open}/events?type=REGISTER`)).body as any[], (e) => e.length === 1);
    expect(events[0]).toMatchObject({ type: "REGISTER", clientId: "spa", userId: users[0].id, details: { username: "erin", email: "erin@example.com", register_method: "form" } });

    // A later login is refused until verified: the same page, with a resend action (another mail).
    const b2 = new BrowserSession(server.url);
    const again = await b2.submit(await b2.get(authUrl(open)), { username: "erin", password: "Erin-Pass-42" });
    expect(again.status).toBe(200);
    expect(again.text).toContain("You need to verify your email address to log in.");
    expect(again.headers.getSetCookie().some((c) => c.startsWith("TESSERA_SESSION="))).toBe(false);
    await eventually(async () => mailsTo("erin@example.com").length, (n) => n === 2);
    const resent = await b2.submit(again, {});
    expect(resent.status).toBe(200);
    expect(resent.text).toContain("A new verification email was sent.");
    await eventually(async () => mailsTo("erin@example.com").length, (n) => n === 3);

    const verified = await new BrowserSession(server.url).get(first);
    expect(verified.status).toBe(200);
    expect(verified.text).toContain("Your email address is verified. You can now log in.");
    const replay = await new BrowserSession(server.url).get(first);
    expect(replay.status).toBe(400);
    expect(replay.text).toContain("This verification link was already used.");
    const forged = await new BrowserSession(server.url).get(`${first.slice(0, -4)}AAAA`);
    expect(forged.status).toBe(400);
    expect((await api.get(`/admin/realms/${open}/users/${users[0].id}`)).body.emailVerified).toBe(true);

    const b3 = new BrowserSession(server.url);
    const done = await b3.submit(await b3.get(authUrl(open)), { username: "erin", password: "Erin-Pass-42" });
    expect(done.status).toBe(302);
    expect(new URL(done.location).searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const verifyEvents = await eventually(async () => (await api.get(`/admin/realms/${open}/events?type=VERIFY_EMAIL`)).body as any[], (e) => e.length === 1);
    expect(verifyEvents[0]).toMatchObject({ type: "VERIFY_EMAIL", userId: users[0].id, details: { email: "erin@example.com" } });
  }, 60_000);

  it("continues the login as the new user when no verification is required", async () => {
    expect((await api.put(`/admin/realms/${open}`, { registrationAllowed: true })).status).toBe(200);
    const plain = uniqueName("regplain");
    expect((await api.post("/admin/realms", { name: plain })).status).toBe(201);
    expect((await api.post(`/admin/realms/${plain}/clients`, { clientId: "spa", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
    const b = new BrowserSession(server.url);
    const login = await b.get(authUrl(plain));
    const form = await b.get(`${server.url}${registerLink(login)}`);
    const taken = await b.submit(form, { username: "frank", email: "", password: "frank-pass-1", "password-confirm": "frank-pass-2" });
    expect(taken.text).toContain("The password confirmation does not match.");
    const done = await b.submit(taken, { username: "frank", password: "frank-pass-1", "password-confirm": "frank-pass-1" });
    expect(done.status).toBe(302);
    expect(new URL(done.location).searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(done.headers.getSetCookie().some((c) => c.startsWith("TESSERA_SESSION="))).toBe(true);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
