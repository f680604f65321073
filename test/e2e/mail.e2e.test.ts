import { readFileSync } from "node:fs";
import { adminApi, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { decodeQuotedPrintable, startSmtpSink } from "./support/smtp-sink.js";
import { freePort } from "./support/free-port.js";

// Mail through the realm's SMTP settings: test email (spec 4.1), verification email (spec 4.2).
describe.each(targets())("mail ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  const smtpCanary = `smtp-Canary-${Date.now()}`;

  beforeAll(async () => {
    server = await target.start("mail");
    api = adminApi(server.url, server.apiKey);
    sink = await startSmtpSink({ username: "mailer", password: smtpCanary });
  }, 90_000);
  afterAll(async () => {
    await sink?.stop();
    await server?.stop();
  });

  async function realm(extra: Record<string, unknown> = {}): Promise<string> {
    const name = uniqueName("mail");
    const res = await api.post("/admin/realms", {
      name, displayName: "Mail Realm", smtpHost: "127.0.0.1", smtpPort: sink.port, smtpUser: "mailer",
      smtpPassword: smtpCanary, smtpFrom: "noreply@tessera.test", smtpSecure: false, ...extra,
    });
    expect(res.status).toBe(201);
    return name;
  }

  const mailTo = (to: string) => eventually(async () => sink.mails.filter((m) => m.to.includes(to)), (l) => l.length > 0);

  it("sends a real test email through the realm's SMTP server, logging in with the sealed password", async () => {
    const r = await realm();
    const to = `${r}@inbox.test`;
    const res = await api.post(`/admin/realms/${r}/email/test`, { to });
    expect([res.status, res.body]).toEqual([200, { message: `test email sent to ${to}` }]);
    const [mail] = await mailTo(to);
    expect(mail).toBeDefined();
    expect(mail!.from).toBe("noreply@tessera.test");
    expect(mail!.auth).toEqual({ username: "mailer", password: smtpCanary });
    expect(mail!.raw).toMatch(new RegExp(`^To: ${to}\\r?$`, "m"));
    expect(mail!.raw).toMatch(/^From: "?Mail Realm"? <noreply@tessera\.test>\r?$/m);
    expect(mail!.raw).toMatch(/^Subject: Test email from Mail Realm\r?$/m);
    expect(res.text).not.toContain(smtpCanary);
  });

  it.each([
    [{}, 400, { error: "invalid_request", message: "to is required", field: "to" }],
    [{ to: "" }, 400, { error: "invalid_request", message: "to is required", field: "to" }],
    [{ to: "nope" }, 400, { error: "invalid_request", message: "to must be a valid email address", field: "to" }],
    [{ to: 7 }, 400, { error: "invalid_field", message: "to must be a string", field: "to" }],
    [{ to: "a@b.test", cc: "x" }, 400, { error: "unknown_field", message: "unknown or read-only field: cc", field: "cc" }],
  ])("test email refuses %j", async (body, status, error) => {
    const r = await realm();
    const res = await api.post(`/admin/realms/${r}/email/test`, body);
    expect([res.status, res.body]).toEqual([status, error]);
  });

  it("answers 400 smtp_not_configured without smtpHost, and 404 for an unknown realm", async () => {
    const name = uniqueName("nosmtp");
    expect((await api.post("/admin/realms", { name })).status).toBe(201);
    const res = await api.post(`/admin/realms/${name}/email/test`, { to: "a@b.test" });
    expect([res.status, res.body]).toEqual([400, {
      error: "smtp_not_configured", message: `realm "${name}" has no SMTP server configured (smtpHost)`,
    }]);
    const u = (await api.post(`/admin/realms/${name}/users`, { username: "vic", email: "vic@b.test" })).body;
    const ver = await api.put(`/admin/realms/${name}/users/${u.id}/send-verification-email`);
    expect([ver.status, ver.body.error]).toEqual([400, "smtp_not_configured"]);
    const unknown = await api.post("/admin/realms/no-such-realm-m/email/test", { to: "a@b.test" });
    expect(unknown.status).toBe(404);
  });

  it("answers 502 smtp_error naming the failure when the SMTP server is unreachable or refuses", async () => {
    const closed = await freePort();
    const r = await realm({ smtpPort: closed });
    const res = await api.post(`/admin/realms/${r}/email/test`, { to: "a@b.test" });
    expect(res.status).toBe(502);
    expect(res.body.error).toBe("smtp_error");
    expect(res.body.message).toMatch(new RegExp(`^sending mail via 127\\.0\\.0\\.1:${closed} failed: .*ECONNREFUSED`));
    const badAuth = uniqueName("badauth");
    await api.post("/admin/realms", {
      name: badAuth, smtpHost: "127.0.0.1", smtpPort: sink.port, smtpUser: "mailer", smtpPassword: `${smtpCanary}-wrong`,
    });
    const refused = await api.post(`/admin/realms/${badAuth}/email/test`, { to: "a@b.test" });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toBe("smtp_error");
    expect(refused.body.message).toMatch(/EAUTH/);
    expect(refused.text).not.toContain(smtpCanary);
  });

  it("sends a verification email with a signed link to the user's address", async () => {
    const r = await realm({ adminEventsEnabled: true });
    const email = `wendy.${r}@inbox.test`;
    const u = (await api.post(`/admin/realms/${r}/users`, { username: "wendy", email })).body;
    const res = await api.put(`/admin/realms/${r}/users/${u.id}/send-verification-email`);
    expect([res.status, res.body]).toEqual([200, { message: `verification email sent to ${email}` }]);
    const [mail] = await mailTo(email);
    expect(mail!.raw).toMatch(new RegExp(`^To: ${email.replace(/\./g, "\\.")}\\r?$`, "m"));
    expect(mail!.raw).toMatch(/^Subject: Verify your email for Mail Realm\r?$/m);
    const text = decodeQuotedPrintable(mail!.raw);
    const link = text.match(/(https?:\/\/[^\s"<]+\/realms\/[^/\s]+\/login-actions\/verify-email\?key=[A-Za-z0-9_-]+)/)?.[1];
    expect(link).toBeDefined();
    const url = new URL(link!);
    expect(url.pathname).toBe(`/realms/${r}/login-actions/verify-email`);
    if (server.mode === "embedded") expect(url.origin).toBe(new URL(server.url).origin);
    expect(url.searchParams.get("key")!.length).toBeGreaterThan(60);
    expect(text).not.toContain(u.id); // the key is sealed, not a readable user id
    // A second send gives another key (fresh IV and expiry).
    await api.put(`/admin/realms/${r}/users/${u.id}/send-verification-email`);
    const both = await eventually(async () => sink.mails.filter((m) => m.to.includes(email)), (l) => l.length >= 2);
    expect(decodeQuotedPrintable(both[1]!.raw)).not.toContain(url.searchParams.get("key")!);
    const events = await eventually(() => api.get(`/admin/realms/${r}/admin-events?operationType=ACTION`), (x) => x.body.length >= 1);
    expect(events.body[0].resourcePath).toBe(`users/${u.id}/send-verification-email`);
  });

  it("refuses a verification email for a user without email (400) or an unknown user (404)", async () => {
    const r = await realm();
    const u = (await api.post(`/admin/realms/${r}/users`, { username: "xena" })).body;
    const res = await api.put(`/admin/realms/${r}/users/${u.id}/send-verification-email`);
    expect([res.status, res.body]).toEqual([400, { error: "user_has_no_email", message: "user has no email address", field: "email" }]);
    const none = "00000000-0000-4000-8000-000000000000";
    const missing = await api.put(`/admin/realms/${r}/users/${none}/send-verification-email`);
    expect([missing.status, missing.body]).toEqual([404, { error: "user_not_found", message: `user "${none}" not found` }]);
  });

  it("never writes the SMTP password to the server log", async () => {
    if (!server.process) return; // the cluster's logs are not this test's to read
    const log = readFileSync(server.process.logFile, "utf8");
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(smtpCanary);
  });
});
