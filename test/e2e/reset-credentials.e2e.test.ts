import { randomBytes } from "node:crypto";
import { SecretBox } from "../../services/kit/src/crypto/secret-box.js";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms, type PageResponse } from "./support/browser-session.js";
import { decodeQuotedPrintable, startSmtpSink } from "./support/smtp-sink.js";

// Forgot password (Keycloak's reset credentials; realm resetPasswordAllowed, an extension of spec
// 2.1), through the hosted pages with smtp-server as the mail sink. Embedded only: the expired link
// is sealed here under the server's master key, which a shared cluster does not hand out.
describe("forgot password (embedded)", () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let realm: string;
  let off: string;
  let realmId: string;
  const secrets: Record<string, string> = {};
  const masterKey = randomBytes(32).toString("base64url");
  const CB = "http://localhost:3991/cb";
  const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
  const SENT = "If an account with that username or email exists, you will receive an email with a link to reset your password shortly.";

  beforeAll(async () => {
    server = await startEmbeddedServer("reset-credentials", { TESSERA_MASTER_KEY: masterKey });
    api = adminApi(server.url, server.apiKey);
    sink = await startSmtpSink();
    realm = uniqueName("reset");
    off = uniqueName("noreset");
    const created = await api.post("/admin/realms", {
      name: realm, displayName: "Reset Realm", resetPasswordAllowed: true, eventsEnabled: true, passwordHistoryCount: 2,
      passwordRequireDigits: true, smtpHost: "127.0.0.1", smtpPort: sink.port, smtpFrom: "id@example.com", offlineTokenLifespan: 3600,
    });
    expect([created.status, created.body.resetPasswordAllowed]).toEqual([201, true]);
    realmId = created.body.id;
    const plain = await api.post("/admin/realms", { name: off, smtpHost: "127.0.0.1", smtpPort: sink.port });
    expect([plain.status, plain.body.resetPasswordAllowed]).toEqual([201, false]);
    for (const r of [realm, off]) {
      expect((await api.post(`/admin/realms/${r}/clients`, { clientId: "spa", name: "Single Page", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
      const cli = await api.post(`/admin/realms/${r}/clients`, { clientId: "cli", grantTypes: ["password", "refresh_token"] });
      expect(cli.status).toBe(201);
      secrets[r] = cli.body.secret;
    }
  }, 90_000);
  afterAll(async () => {
    await sink?.stop();
    await server?.stop();
  });

  const authUrl = (r: string) => `${server.url}/realms/${r}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: "spa", redirect_uri: CB, response_type: "code", scope: "openid", state: "st", code_challenge: CHALLENGE, code_challenge_method: "S256",
  })}`;
  const forgotLink = (page: PageResponse) => /<a id="forgot-password-link" href="([^"]+)"/.exec(page.text)?.[1]?.replace(/&amp;/g, "&");
  const mailsTo = (to: string) => sink.mails.filter((m) => m.to.includes(to));
  const linkIn = (raw: string) => {
    const m = /\/realms\/[^/\s]+\/login-actions\/reset-password\?key=[A-Za-z0-9_-]+/.exec(decodeQuotedPrintable(raw));
    if (!m) throw new Error("no reset link in mail");
    return `${server.url}${m[0]}`;
  };
  const events = (type: string) => eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=${type}`)).body as any[], (e) => e.length > 0);
  const user = async (username: string, password: string, email = `${username}@example.com`) => {
    const res = await api.post(`/admin/realms/${realm}/users`, { username, email, password });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const passwordGrant = (username: string, password: string, scope = "openid") => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
    form: { grant_type: "password", username, password, scope }, headers: { authorization: `Basic ${Buffer.from(`cli:${secrets[realm]}`).toString("base64")}` },
  });
  const refresh = (token: string) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
    form: { grant_type: "refresh_token", refresh_token: token }, headers: { authorization: `Basic ${Buffer.from(`cli:${secrets[realm]}`).toString("base64")}` },
  });

  /** The forgot-password form of a new login, submitted for `identifier`. */
  async function askReset(identifier: string): Promise<{ b: BrowserSession; sent: PageResponse }> {
    const b = new BrowserSession(server.url);
    const login = await b.get(authUrl(realm));
    expect(login.status).toBe(200);
    const form = await b.get(`${server.url}${forgotLink(login)}`);
    expect(form.status).toBe(200);
    expect(Object.keys(parseForms(form.text)[0]!.fields).sort()).toEqual(["csrf", "tx", "username"]);
    return { b, sent: await b.submit(form, { username: identifier }) };
  }

  /** The page of a sent request, without what differs per login (transaction id, CSRF token). */
  const sameness = (page: PageResponse) => page.text.replace(/tx=[A-Za-z0-9_-]+/g, "tx=");

  it("links to the form only where the realm allows it; elsewhere the form is 404", async () => {
    const b = new BrowserSession(server.url);
    const login = await b.get(authUrl(off));
    expect(login.status).toBe(200);
    expect(forgotLink(login)).toBeUndefined();
    const tx = parseForms(login.text)[0]!.fields.tx!;
    const refused = await b.get(`${server.url}/realms/${off}/login-actions/reset-credentials?tx=${tx}`);
    expect(refused.status).toBe(404);
    expect(refused.text).toContain("<code id=\"error-code\">not_found</code>");
    const posted = await b.post(`${server.url}/realms/${off}/login-actions/reset-credentials`, { tx, csrf: parseForms(login.text)[0]!.fields.csrf!, username: "x" });
    expect(posted.status).toBe(404);
    const link = await b.get(`${server.url}/realms/${off}/login-actions/reset-password?key=abc`);
    expect(link.status).toBe(404);
    const allowed = await new BrowserSession(server.url).get(authUrl(realm));
    expect(forgotLink(allowed)).toMatch(new RegExp(`^/realms/${realm}/login-actions/reset-credentials\\?tx=[A-Za-z0-9_-]+$`));
  });

  it("resets through the mailed link: policy and history enforced, sessions revoked, the link used once, events recorded", async () => {
    const id = await user("rita", "Rita-Pass-1");
    const before = await passwordGrant("rita", "Rita-Pass-1", "openid offline_access");
    expect(before.status).toBe(200);
    const online = await passwordGrant("rita", "Rita-Pass-1");
    expect(online.status).toBe(200);

    const { b, sent } = await askReset("RITA@example.com");
    expect(sent.status).toBe(200);
    expect(sent.text).toContain(`<p class="notice" role="status" id="reset-email-sent">${SENT}</p>`);
    await eventually(async () => mailsTo("rita@example.com").length, (n) => n === 1);
    const mail = decodeQuotedPrintable(mailsTo("rita@example.com")[0]!.raw);
    expect(mail).toMatch(/^Subject: Reset your password for Reset Realm\r?$/m);
    expect(mail).toContain("expires in 5 minutes");
    const link = linkIn(mailsTo("rita@example.com")[0]!.raw);

    const form = await b.get(link);
    expect(form.status).toBe(200);
    expect(form.text).toContain("<strong id=\"reset-username\">rita</strong>");
    expect(form.text).toContain("<ul class=\"rules\" id=\"password-rules\"><li>At least 8 characters</li><li>A digit</li><li>Not one of your last 2 passwords</li></ul>");
    expect(parseForms(form.text)[0]!.action).toBe(`/realms/${realm}/login-actions/reset-password`);

    const weak = await b.submit(form, { "password-new": "weakpass", "password-confirm": "weakpass" });
    expect(weak.status).toBe(200);
    expect(/<ul class="alert" role="alert" id="password-errors">([\s\S]*?)<\/ul>/.exec(weak.text)?.[1]).toMatch(/digit/);
    const mismatch = await b.submit(weak, { "password-new": "Rita-Pass-2", "password-confirm": "Rita-Pass-3" });
    expect(mismatch.text).toContain("<li>The password confirmation does not match.</li>");
    const old = await b.submit(mismatch, { "password-new": "Rita-Pass-1", "password-confirm": "Rita-Pass-1" });
    expect(old.status).toBe(200);
    expect(old.text).toContain("<li>Password must not be one of the last 2 passwords</li>");
    const rejected = await events("RESET_PASSWORD_ERROR");
    expect(rejected.filter((e) => e.userId === id && e.error === "password_rejected")).toHaveLength(2);

    const done = await b.submit(old, { "password-new": "Rita-Pass-2", "password-confirm": "Rita-Pass-2" });
    expect(done.status).toBe(200);
    expect(done.text).toContain("<p class=\"notice\" role=\"status\" id=\"password-reset-done\">Your password has been updated. You can now sign in with your new password.</p>");
    expect((await passwordGrant("rita", "Rita-Pass-1")).status).toBe(400);
    expect((await passwordGrant("rita", "Rita-Pass-2")).status).toBe(200);
    // password.changed ends the sessions from before, the offline one included.
    const listed = async () => [
      ...(await api.get(`/admin/realms/${realm}/users/${id}/sessions`)).body, ...(await api.get(`/admin/realms/${realm}/users/${id}/offline-sessions`)).body,
    ];
    await eventually(listed, (l) => l.length === 1);
    expect((await listed())).toHaveLength(1); // the login just made with the new password
    for (const token of [before.body.refresh_token, online.body.refresh_token]) {
      const res = await refresh(token);
      expect([res.status, res.body.error]).toEqual([400, "invalid_grant"]);
    }

    const again = await b.get(link);
    expect(again.status).toBe(400);
    expect(again.text).toContain("<code id=\"error-code\">link_already_used</code>");
    const replay = await b.post(link.split("?")[0]!, { key: new URL(link).searchParams.get("key")!, "password-new": "Rita-Pass-9", "password-confirm": "Rita-Pass-9" });
    expect(replay.status).toBe(400);
    expect(replay.text).toContain("<code id=\"error-code\">link_already_used</code>");
    expect((await passwordGrant("rita", "Rita-Pass-2")).status).toBe(200);

    const sendEvents = await events("SEND_RESET_PASSWORD");
    expect(sendEvents.find((e) => e.userId === id)).toMatchObject({
      type: "SEND_RESET_PASSWORD", clientId: "spa", userId: id, details: { username: "rita", email: "rita@example.com", auth_method: "openid-connect" },
    });
    const resetEvents = await events("RESET_PASSWORD");
    expect(resetEvents.filter((e) => e.userId === id)).toHaveLength(1);
    expect(resetEvents[0]).toMatchObject({ type: "RESET_PASSWORD", userId: id, details: { username: "rita" } });
    expect(JSON.stringify([...sendEvents, ...resetEvents])).not.toContain(new URL(link).searchParams.get("key")!);
    const used = await events("RESET_PASSWORD_ERROR");
    expect(used.filter((e) => e.error === "expired_code" && e.userId === id)).toHaveLength(2);
  }, 60_000);

  it("answers an unknown account with the identical page and sends nothing", async () => {
    await user("sam", "Sam-Pass-11");
    const known = await askReset("sam");
    const unknown = await askReset("nobody-here");
    expect(unknown.sent.status).toBe(known.sent.status);
    expect(sameness(unknown.sent)).toBe(sameness(known.sent));
    await eventually(async () => mailsTo("sam@example.com").length, (n) => n === 1);
    const errors = await events("SEND_RESET_PASSWORD_ERROR");
    expect(errors.find((e) => e.details?.username === "nobody-here")).toMatchObject({ error: "user_not_found" });
    expect(sink.mails.filter((m) => m.to.some((t) => t.startsWith("nobody")))).toHaveLength(0);
  }, 60_000);

  it("refuses a tampered link and an expired one", async () => {
    const id = await user("tess", "Tess-Pass-12");
    const { b } = await askReset("tess");
    await eventually(async () => mailsTo("tess@example.com").length, (n) => n === 1);
    const link = linkIn(mailsTo("tess@example.com")[0]!.raw);
    const key = new URL(link).searchParams.get("key")!;
    const flipped = key.slice(0, 40) + (key[40] === "A" ? "B" : "A") + key.slice(41);
    for (const bad of [flipped, "not-a-key", ""]) {
      const res = await b.get(`${server.url}/realms/${realm}/login-actions/reset-password?key=${bad}`);
      expect(res.status).toBe(400);
      expect(res.text).toContain("<code id=\"error-code\">invalid_link</code>");
      const post = await b.post(`${server.url}/realms/${realm}/login-actions/reset-password`, { key: bad, "password-new": "Tess-Pass-99", "password-confirm": "Tess-Pass-99" });
      expect(post.status).toBe(400);
    }
    // A genuine key (sealed under the server's master key, as the directory seals it) that expired.
    const credential = JSON.parse(new SecretBox(masterKey).open(Buffer.from(key, "base64url").toString("utf8"), "directory:reset-credentials:v1"));
    const expired = Buffer.from(new SecretBox(masterKey).seal(JSON.stringify({ ...credential, exp: Date.now() - 1000 }), "directory:reset-credentials:v1")).toString("base64url");
    const res = await b.get(`${server.url}/realms/${realm}/login-actions/reset-password?key=${expired}`);
    expect(res.status).toBe(400);
    expect(res.text).toContain("This password reset link is invalid or has expired. Please ask for a new one.");
    expect(credential).toMatchObject({ r: realmId, u: id });
    // The unexpired link still works.
    const form = await b.get(link);
    expect(form.status).toBe(200);
    expect((await passwordGrant("tess", "Tess-Pass-12")).status).toBe(200);
    const invalid = await events("RESET_PASSWORD_ERROR");
    expect(invalid.filter((e) => e.error === "invalid_code").length).toBeGreaterThanOrEqual(4);
  }, 60_000);

  it("bounds the mails per account silently, and the requests per address with 429", async () => {
    await user("ursula", "Ursula-Pass-13");
    for (let i = 0; i < 4; i++) {
      const { sent } = await askReset("ursula");
      expect(sent.status).toBe(200);
      expect(sent.text).toContain(SENT);
    }
    await eventually(async () => mailsTo("ursula@example.com").length, (n) => n === 3);
    const throttled = await eventually(async () => ((await events("SEND_RESET_PASSWORD_ERROR")).filter((e) => e.error === "too_many_requests")), (l) => l.length === 1);
    expect(throttled[0]).toMatchObject({ details: { username: "ursula" } });
    expect(mailsTo("ursula@example.com")).toHaveLength(3);
    // 20 forms per realm and address in 15 minutes: this file asked 8 times so far.
    let last: PageResponse | undefined;
    for (let i = 0; i < 13; i++) last = (await askReset(`someone-${i}`)).sent;
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.text).toContain("<code id=\"error-code\">too_many_requests</code>");
  }, 90_000);

  it("accepts resetPasswordAllowed on update, and refuses a non-boolean", async () => {
    const res = await api.put(`/admin/realms/${off}`, { resetPasswordAllowed: true });
    expect([res.status, res.body.resetPasswordAllowed]).toEqual([200, true]);
    const bad = await api.put(`/admin/realms/${off}`, { resetPasswordAllowed: "yes" });
    expect([bad.status, bad.body.field]).toEqual([400, "resetPasswordAllowed"]);
    expect((await api.put(`/admin/realms/${off}`, { resetPasswordAllowed: false })).body.resetPasswordAllowed).toBe(false);
  });
});
