import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";
import { decodeQuotedPrintable, startSmtpSink } from "./support/smtp-sink.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response `http` receives here is checked against the OpenAPI document at its end.
const recorded = recordResponses();

/**
 * Invitations to an organization (Keycloak 26's members/invite-user and invite-existing-user): the
 * link is read from the smtp-server sink, opened and completed in the browser flow, and the new
 * member signs in with openid-client and gets the organization claim.
 */
for (const target of targets()) describe(`organization invitations (${target.mode})`, () => {
  let server: TestServer;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let orgId: string;
  const CB = "http://localhost:3996/cb";
  const PASSWORD = "Correct-Horse-9";

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await target.start("organization-invitations");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("invite");
    expect((await api.post("/admin/realms", { name: realm, organizationsEnabled: true, smtpHost: "127.0.0.1", smtpPort: sink.port, smtpFrom: "id@example.com" })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "portal", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
    const org = await api.post(`/admin/realms/${realm}/organizations`, { name: "Acme", alias: "acme", redirectUrl: "https://portal.acme.test/" });
    orgId = org.body.id;
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    await sink?.stop();
  });

  const invitePath = () => `/admin/realms/${realm}/organizations/${orgId}/members/invite-user`;
  const linkFor = (to: string) => {
    const mail = sink.mails.filter((m) => m.to.some((t) => t.toLowerCase() === to.toLowerCase())).at(-1);
    if (!mail) throw new Error(`no mail to ${to}`);
    const m = /\/realms\/[^/\s]+\/login-actions\/organization-invitation\?key=[A-Za-z0-9_-]+/.exec(decodeQuotedPrintable(mail.raw));
    if (!m) throw new Error("no invitation link in mail");
    return { url: `${server.url}${m[0]}`, raw: decodeQuotedPrintable(mail.raw) };
  };
  const members = async () => (await api.get(`/admin/realms/${realm}/organizations/${orgId}/members`)).body.map((m: { username: string }) => m.username);
  const { rp, start, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();

  it("invites a new address by form; the link registers an account, joins it, works once, and the member signs in", async () => {
    const res = await http("POST", `${server.url}${invitePath()}`, {
      form: { email: "Nina@Example.com", firstName: "Nina", lastName: "N" }, headers: { "X-Admin-API-Key": server.apiKey },
    });
    expect([res.status, res.text]).toEqual([204, ""]);
    const { url, raw } = linkFor("Nina@Example.com");
    expect(raw).toContain("Subject: Invitation to join the Acme organization");

    const b = new BrowserSession(server.url);
    const page = await b.get(url);
    expect(page.status).toBe(200);
    expect(page.text).toContain("You are invited to join <strong>Acme</strong>");
    expect(page.text).toContain('<strong id="invitation-email">Nina@Example.com</strong>');
    expect(Object.keys(parseForms(page.text)[0]!.fields).sort()).toEqual(["firstName", "key", "lastName", "password", "username"]);
    expect(parseForms(page.text)[0]!.fields.firstName).toBe("Nina");

    // A refused password shows the form again; the link stays usable.
    const weak = await b.submit(page, { username: "nina", password: "x" });
    expect(weak.status).toBe(400);
    expect(weak.text).toContain('id="invitation-error"');
    expect(await members()).toEqual([]);

    const joined = await b.submit(weak, { username: "nina", password: PASSWORD });
    expect(joined.status).toBe(200);
    expect(joined.text).toContain('<p class="notice" role="status" id="organization-joined">You joined Acme.</p>');
    expect(joined.text).toContain('<a id="continue" href="https://portal.acme.test/">');
    expect(await members()).toEqual(["nina"]);
    const nina = (await api.get(`/admin/realms/${realm}/organizations/${orgId}/members`)).body[0];
    expect(nina).toMatchObject({ email: "Nina@Example.com", emailVerified: true, firstName: "Nina", lastName: "N" });

    // Single use: the same link, opened or posted again, is refused.
    const again = await new BrowserSession(server.url).get(url);
    expect(again.status).toBe(400);
    expect(again.text).toContain("This invitation was already accepted.");
    const replay = await new BrowserSession(server.url).post(url.split("?")[0]!, { key: new URL(url).searchParams.get("key")!, username: "nina2", password: PASSWORD });
    expect(replay.status).toBe(400);

    // The new member signs in through the hosted login and gets the organization claim.
    const portal = await rp("portal");
    const s = await start(portal, { scope: "openid organization" });
    const browser = new BrowserSession(server.url);
    const tokens = await redeem(portal, s, await login(browser, await browser.get(s.url.href), "nina"));
    expect(tokens.claims()!.organization).toEqual({ acme: { id: orgId } });
  });

  it("invites an existing account by JSON or by id; accepting joins it without a form", async () => {
    const u = await api.post(`/admin/realms/${realm}/users`, { username: "omar", email: "omar@example.com", password: PASSWORD });
    expect((await api.post(invitePath(), { email: "omar@example.com" })).status).toBe(204);
    const b = new BrowserSession(server.url);
    const page = await b.get(linkFor("omar@example.com").url);
    expect(Object.keys(parseForms(page.text)[0]!.fields)).toEqual(["key"]);
    expect((await b.submit(page, {})).status).toBe(200);
    expect(await members()).toContain("omar");
    const dup = await api.post(invitePath(), { email: "omar@example.com" });
    expect([dup.status, dup.body]).toEqual([409, { error: "conflict", message: "user is already a member of the organization", field: "email" }]);

    const p = await api.post(`/admin/realms/${realm}/users`, { username: "pia", email: "pia@example.com" });
    const byId = await http("POST", `${server.url}/admin/realms/${realm}/organizations/${orgId}/members/invite-existing-user`, {
      form: { id: p.body.id }, headers: { "X-Admin-API-Key": server.apiKey },
    });
    expect(byId.status).toBe(204);
    const pia = new BrowserSession(server.url);
    expect((await pia.submit(await pia.get(linkFor("pia@example.com").url), {})).status).toBe(200);
    expect(await members()).toEqual(["nina", "omar", "pia"]);
    expect(u.status).toBe(201);
  });

  it("refuses a bad address, an unknown organization, a realm without SMTP, and a forged key", async () => {
    const bad = await api.post(invitePath(), { email: "nope" });
    expect([bad.status, bad.body]).toEqual([400, { error: "invalid_request", message: "email must be a valid email address", field: "email" }]);
    const none = await api.post(invitePath(), {});
    expect([none.status, none.body]).toEqual([400, { error: "invalid_request", message: "email is required", field: "email" }]);
    const unknown = await api.post(`/admin/realms/${realm}/organizations/00000000-0000-4000-8000-000000000000/members/invite-user`, { email: "a@b.co" });
    expect([unknown.status, unknown.body.error]).toEqual([404, "organization_not_found"]);
    const quiet = uniqueName("nosmtp");
    await api.post("/admin/realms", { name: quiet, organizationsEnabled: true });
    const q = await api.post(`/admin/realms/${quiet}/organizations`, { name: "Q" });
    const noSmtp = await api.post(`/admin/realms/${quiet}/organizations/${q.body.id}/members/invite-user`, { email: "a@b.co" });
    expect([noSmtp.status, noSmtp.body.error]).toEqual([400, "smtp_not_configured"]);
    const forged = await new BrowserSession(server.url).get(`${server.url}/realms/${realm}/login-actions/organization-invitation?key=AAAA`);
    expect(forged.status).toBe(400);
    expect(forged.text).toContain("This invitation link is invalid or has expired.");
  });

  it("refuses the link while the realm's organizationsEnabled is off, and honours it once it is on again", async () => {
    expect((await api.post(invitePath(), { email: "olga@example.com" })).status).toBe(204);
    const { url } = linkFor("olga@example.com");
    expect((await api.put(`/admin/realms/${realm}`, { organizationsEnabled: false })).status).toBe(200);
    try {
      const b = new BrowserSession(server.url);
      const page = await b.get(url);
      expect(page.status).toBe(404);
      expect(page.text).toContain("Organizations not enabled for this realm.");
      const posted = await b.post(url.replace(/\?.*$/, ""), { key: new URL(url).searchParams.get("key")!, username: "olga", password: PASSWORD });
      expect(posted.status).toBe(404);
      // Nothing was registered: the refusal comes before the account.
      expect((await api.get(`/admin/realms/${realm}/users?username=olga`)).body.users).toEqual([]);
    } finally {
      expect((await api.put(`/admin/realms/${realm}`, { organizationsEnabled: true })).status).toBe(200);
    }
    expect(await members()).not.toContain("olga");
    const b = new BrowserSession(server.url);
    const joined = await b.submit(await b.get(url), { username: "olga", password: PASSWORD });
    expect(joined.status).toBe(200);
    expect(await members()).toContain("olga");
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
