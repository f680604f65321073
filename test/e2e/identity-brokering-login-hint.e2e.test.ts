import { targets } from "./support/targets.js";
import { BrowserSession, parseForms } from "./support/browser-session.js";
import { BrokeringWorld, UPSTREAM_SECRET } from "./support/brokering-world.js";

/**
 * Keycloak's "Pass login_hint" (an OIDC identity provider's config `loginHint`): the broker's
 * authorization request to the upstream (oidc-provider, which records what it received) carries
 * the login hint it has, the client's login_hint or the email typed on the identity-first page,
 * only while the provider's switch is on.
 */
for (const target of targets()) describe(`login_hint passed to the identity provider (${target.mode})`, () => {
  const w = new BrokeringWorld(target, "broker-login-hint");
  const { rp, start, redeem } = w.rp.calls();

  beforeAll(() => w.setUp(), 90_000);
  afterAll(() => w.tearDown());

  const endpoints = () => ({ clientId: "tessera", clientSecret: UPSTREAM_SECRET, authorizationUrl: `${w.op.url}/auth`, tokenUrl: `${w.op.url}/token`, issuer: w.op.url });

  /** The authorization request's answer through the broker's login, up to the upstream's URL. */
  async function upstreamUrl(extra: Record<string, string>): Promise<{ b: BrowserSession; url: URL; config: Awaited<ReturnType<typeof rp>>; s: Awaited<ReturnType<typeof start>> }> {
    const config = await rp("rp");
    const s = await start(config, { kc_idp_hint: "up", ...extra });
    const b = new BrowserSession(w.server.url);
    const broker = await b.get(s.url.href);
    expect(broker.status).toBe(302);
    const out = await b.get(new URL(broker.location, w.server.url).href);
    expect(out.status).toBe(302);
    return { b, url: new URL(out.location), config, s };
  }

  it("stores loginHint, off by default, from the flat field or Keycloak's config string, and refuses anything else", async () => {
    expect((await w.api.get(`${w.idps()}/up`)).body.loginHint).toBe(false);
    const flat = await w.api.post(w.idps(), { alias: "flat", providerType: "oidc", ...endpoints(), loginHint: true });
    expect([flat.status, flat.body.loginHint]).toEqual([201, true]);
    const kc = await w.api.post(w.idps(), { alias: "kc", providerId: "keycloak-oidc", config: { ...endpoints(), loginHint: "true" } });
    expect([kc.status, kc.body.loginHint]).toEqual([201, true]);
    const kcOff = await w.api.put(`${w.idps()}/kc`, { providerId: "keycloak-oidc", config: { loginHint: "false" } });
    expect([kcOff.status, kcOff.body.loginHint]).toEqual([200, false]);
    const word = await w.api.post(w.idps(), { alias: "bad1", providerId: "oidc", config: { ...endpoints(), loginHint: "yes" } });
    expect([word.status, word.body]).toEqual([400, { error: "invalid_field", message: 'config.loginHint must be "true" or "false"', field: "config.loginHint" }]);
    const str = await w.api.put(`${w.idps()}/flat`, { loginHint: "true" });
    expect([str.status, str.body.field]).toEqual([400, "loginHint"]);
    expect((await w.api.get(`${w.idps()}/flat`)).body.loginHint).toBe(true);
  });

  it("keeps the client's login_hint from the upstream while the switch is off", async () => {
    w.op.nextLogin = "u-lena";
    w.op.accounts.set("u-lena", { sub: "u-lena", preferred_username: "lena" });
    const { b, url, config, s } = await upstreamUrl({ login_hint: "lena@corp.test" });
    expect(url.origin).toBe(new URL(w.op.url).origin);
    expect(url.searchParams.has("login_hint")).toBe(false);
    const seen = w.op.authorizationRequests.length;
    const back = await b.get(await w.throughUpstream(url.href));
    expect(w.op.authorizationRequests.slice(seen).map((p) => p.login_hint)).toEqual([undefined]);
    expect((await redeem(config, s, back)).claims()!.preferred_username).toBe("lena");
  });

  it("passes the client's login_hint once the switch is on, and the upstream receives it", async () => {
    expect((await w.api.put(`${w.idps()}/up`, { loginHint: true })).body.loginHint).toBe(true);
    w.op.nextLogin = "u-lena";
    const { b, url, config, s } = await upstreamUrl({ login_hint: "lena@corp.test" });
    expect(url.searchParams.get("login_hint")).toBe("lena@corp.test");
    const seen = w.op.authorizationRequests.length;
    const back = await b.get(await w.throughUpstream(url.href));
    expect(w.op.authorizationRequests.slice(seen).map((p) => p.login_hint)).toEqual(["lena@corp.test"]);
    expect((await redeem(config, s, back)).claims()!.preferred_username).toBe("lena");
    // No hint known: none is sent.
    expect((await upstreamUrl({})).url.searchParams.has("login_hint")).toBe(false);
  });

  it("passes the email typed on the identity-first page to the organization's provider", async () => {
    expect((await w.api.put(`/admin/realms/${w.realm}`, { organizationsEnabled: true })).status).toBe(200);
    const org = await w.api.post(`/admin/realms/${w.realm}/organizations`, {
      name: "Corp", alias: "corp", domains: [{ name: "corp.test", verified: true }], identityProviders: ["up"],
    });
    expect(org.status).toBe(201);
    const b = new BrowserSession(w.server.url);
    const { page } = await w.loginPage(b);
    expect(Object.keys(parseForms(page.text)[0]!.fields).sort()).toEqual(["csrf", "step", "tx", "username"]);
    const routed = await b.submit(page, { username: "Max@corp.test" });
    expect(routed.status).toBe(302);
    const out = await b.get(new URL(routed.location, w.server.url).href);
    expect(out.status).toBe(302);
    expect(new URL(out.location).searchParams.get("login_hint")).toBe("Max@corp.test");

    expect((await w.api.put(`${w.idps()}/up`, { loginHint: false })).status).toBe(200);
    const again = new BrowserSession(w.server.url);
    const second = await w.loginPage(again);
    const routedAgain = await again.submit(second.page, { username: "Max@corp.test" });
    const outAgain = await again.get(new URL(routedAgain.location, w.server.url).href);
    expect(outAgain.status).toBe(302);
    expect(new URL(outAgain.location).searchParams.has("login_hint")).toBe(false);
  });
});
