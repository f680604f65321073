import { decodeJwt } from "jose";
import { targets } from "./support/targets.js";
import { BrowserSession, parseForms } from "./support/browser-session.js";
import { BrokeringWorld, PASSWORD } from "./support/brokering-world.js";

/**
 * Identity-first login with organizations: in a realm with organizations the login page asks for
 * the username first; an email of an organization's verified domain goes straight to that
 * organization's identity provider (oidc-provider upstream), anything else to the password step.
 */
for (const target of targets()) describe(`identity-first login with organizations (${target.mode})`, () => {
  const w = new BrokeringWorld(target, "organization-login");
  const { redeem } = w.rp.calls();
  let acme: string;

  beforeAll(async () => {
    await w.setUp();
    expect((await w.api.put(`/admin/realms/${w.realm}`, { organizationsEnabled: true })).status).toBe(200);
    const orgs = `/admin/realms/${w.realm}/organizations`;
    const a = await w.api.post(orgs, { name: "Acme", alias: "acme", domains: [{ name: "acme.test", verified: true }], identityProviders: ["up"] });
    expect(a.status).toBe(201);
    acme = a.body.id;
    // An unverified claim routes nobody; an organization without a provider goes to the password step.
    expect((await w.api.post(orgs, { name: "Claimed", domains: [{ name: "claimed.test" }], identityProviders: ["up"] })).status).toBe(201);
    expect((await w.api.post(orgs, { name: "Beta", domains: [{ name: "beta.test", verified: true }] })).status).toBe(201);
    expect((await w.api.post(`/admin/realms/${w.realm}/users`, { username: "bea", email: "bea@beta.test", password: PASSWORD })).status).toBe(201);
  }, 90_000);
  afterAll(() => w.tearDown());

  async function next(username: string) {
    const b = new BrowserSession(w.server.url);
    const { config, s, page } = await w.loginPage(b);
    expect(Object.keys(parseForms(page.text)[0]!.fields).sort()).toEqual(["csrf", "step", "tx", "username"]);
    expect(page.text).toContain('id="identity-first-next"');
    return { b, config, s, res: await b.submit(page, { username }) };
  }

  it("sends an email of an organization's verified domain to its identity provider, and signs in through it", async () => {
    w.op.accounts.set("u-ann", { sub: "u-ann", preferred_username: "ann", email: "ann@acme.test", email_verified: true });
    w.op.nextLogin = "u-ann";
    const { b, config, s, res } = await next("Ann@ACME.test");
    expect(res.status).toBe(302);
    expect(res.location).toMatch(new RegExp(`^/realms/${w.realm}/broker/up/login\\?tx=[A-Za-z0-9_-]+&csrf=[A-Za-z0-9_-]+&login_hint=Ann%40ACME\\.test$`));
    const out = await b.get(new URL(res.location, w.server.url).href);
    expect(out.status).toBe(302);
    expect(new URL(out.location).origin).toBe(new URL(w.op.url).origin);
    const back = await b.get(await w.throughUpstream(out.location));
    const tokens = await redeem(config, s, back);
    expect(tokens.claims()!.email).toBe("ann@acme.test");
    expect(decodeJwt(tokens.access_token).sub).toBe(tokens.claims()!.sub);
    expect((await w.api.get(`/admin/realms/${w.realm}/organizations/${acme}`)).body.identityProviders).toEqual(["up"]);
  });

  it("sends any other username to the password step, the username filled, and signs in", async () => {
    for (const username of ["bea@beta.test", "someone@claimed.test", "bea"]) {
      const { res } = await next(username);
      expect(res.status).toBe(200);
      const form = parseForms(res.text)[0]!;
      expect(Object.keys(form.fields).sort()).toEqual(["csrf", "password", "step", "tx", "username"]);
      expect(form.fields.username).toBe(username);
    }
    const { b, config, s, res } = await next("bea@beta.test");
    const done = await b.submit(res, { password: PASSWORD });
    const tokens = await redeem(config, s, done);
    expect(tokens.claims()!.preferred_username).toBe("bea");
  });

  it("routes nobody while the realm's organizationsEnabled is off: the usual page, then the password step", async () => {
    expect((await w.api.put(`/admin/realms/${w.realm}`, { organizationsEnabled: false })).status).toBe(200);
    try {
      const b = new BrowserSession(w.server.url);
      const { page } = await w.loginPage(b);
      expect(Object.keys(parseForms(page.text)[0]!.fields).sort()).toEqual(["csrf", "password", "step", "tx", "username"]);
      expect(page.text).not.toContain('id="identity-first-next"');
      // The identity-first post itself (no password field) finds no organization for the domain.
      const { password: _p, ...fields } = parseForms(page.text)[0]!.fields;
      const res = await b.post(new URL(parseForms(page.text)[0]!.action, page.url).href, { ...fields, username: "ann@acme.test" });
      expect(res.status).toBe(200);
      const form = parseForms(res.text)[0]!;
      expect(Object.keys(form.fields).sort()).toEqual(["csrf", "password", "step", "tx", "username"]);
      expect(form.fields.username).toBe("ann@acme.test");
    } finally {
      expect((await w.api.put(`/admin/realms/${w.realm}`, { organizationsEnabled: true })).status).toBe(200);
    }
  });
});
