import { decodeJwt } from "jose";
import { SAML } from "@node-saml/node-saml";
import { autoPost } from "./support/saml-pages.js";
import { eventually, targets } from "./support/targets.js";
import { BrowserSession, parseForms } from "./support/browser-session.js";
import { BrokeringWorld, CB, PASSWORD, UPSTREAM_SECRET, expectErrorPage } from "./support/brokering-world.js";

/**
 * Identity brokering (spec 4.19) end to end: panva's oidc-provider on loopback is the upstream
 * OpenID Provider, openid-client the relying party of the Tessera realm, and a browser drives the
 * hosted pages over HTTP (support/brokering-world.ts). GitHub cannot be reached from here: its
 * preset runs against the stand-in of support/upstream-idp.ts, shaped like GitHub's API.
 */
for (const target of targets()) describe(`identity brokering (${target.mode})`, () => {
  const w = new BrokeringWorld(target, "brokering");
  const { rp, start, redeem } = w.rp.calls();

  beforeAll(() => w.setUp(), 90_000);
  afterAll(() => w.tearDown());

  it("shows the enabled providers on the login page and starts with state, nonce and PKCE S256", async () => {
    const b = new BrowserSession(w.server.url);
    const { page } = await w.loginPage(b);
    expect(page.text).toContain(">Upstream</a>");
    const out = await b.get(w.buttonHref(page, "up"));
    expect(out.status).toBe(302);
    const at = new URL(out.location);
    expect(`${at.origin}${at.pathname}`).toBe(`${w.op.url}/auth`);
    expect(Object.fromEntries(at.searchParams)).toEqual({
      response_type: "code", client_id: "tessera", redirect_uri: w.callbackOf("up"), scope: "openid profile email",
      state: expect.stringMatching(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/), nonce: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), code_challenge_method: "S256",
    });
  });

  it("creates the user on the first login, finds the link on the second, and ends in tokens openid-client accepts", async () => {
    w.op.accounts.set("u-jdoe", { sub: "u-jdoe", preferred_username: "jdoe", email: "jdoe@example.com", email_verified: true, given_name: "John", family_name: "Doe" });
    const first = await w.loginAs("u-jdoe");
    const tokens = await redeem(first.config, first.s, first.back);
    const claims = tokens.claims()!;
    const user = await w.userByName("jdoe");
    expect(user).toMatchObject({ username: "jdoe", email: "jdoe@example.com", firstName: "John", lastName: "Doe", emailVerified: false });
    expect(claims).toMatchObject({ sub: user!.id, preferred_username: "jdoe", nonce: first.s.nonce, iss: `${w.server.url}/realms/${w.realm}`, amr: ["fed"] });
    expect(decodeJwt(tokens.access_token).sub).toBe(user!.id);
    const links = await w.api.get(`/admin/realms/${w.realm}/users/${user!.id}/federated-identity`);
    expect(links.status).toBe(200);
    expect(links.body).toEqual([{ identityProvider: "up", userId: "u-jdoe", userName: "jdoe", createdAt: expect.any(String) }]);

    const second = await w.loginAs("u-jdoe");
    expect((await redeem(second.config, second.s, second.back)).claims()!.sub).toBe(user!.id);
    const all = await w.api.get(`/admin/realms/${w.realm}/users?search=jdoe`);
    expect(all.body.total).toBe(1);

    const events = await eventually(
      () => w.api.get(`/admin/realms/${w.realm}/events?userId=${user!.id}`),
      (res) => Array.isArray(res.body) && res.body.filter((e: { type: string }) => e.type === "IDENTITY_PROVIDER_LOGIN").length === 2
        && res.body.some((e: { type: string }) => e.type === "LOGIN"),
    );
    if (w.embedded) {
      // The broker's counter is served by the embedded process's /metrics.
      const metrics = await (await fetch(`${w.server.url}/metrics`)).text();
      expect(metrics).toMatch(/^tessera_broker_logins_total\{result="first_login"\} [1-9]/m);
      expect(metrics).toMatch(/^tessera_broker_logins_total\{result="login"\} [1-9]/m);
    }
    const types = events.body.map((e: { type: string }) => e.type);
    expect(types.filter((t: string) => t === "IDENTITY_PROVIDER_FIRST_LOGIN")).toHaveLength(1);
    for (const e of events.body.filter((x: { type: string }) => x.type.startsWith("IDENTITY_PROVIDER") || x.type === "LOGIN")) {
      expect(e.details.identity_provider).toBe("up");
    }
  });

  it("resolves a taken username with a suffix", async () => {
    expect((await w.api.post(`/admin/realms/${w.realm}/users`, { username: "sam", email: "sam-local@example.com", password: PASSWORD })).status).toBe(201);
    w.op.accounts.set("u-sam", { sub: "u-sam", preferred_username: "sam", email: "sam-upstream@example.com", email_verified: true });
    const { config, s, back } = await w.loginAs("u-sam");
    const sub = (await redeem(config, s, back)).claims()!.sub;
    expect((await w.userByName("sam-2"))?.id).toBe(sub);
  });

  it("asks for the local password when trustEmail is off; a wrong password is refused, the right one links", async () => {
    const carol = await w.api.post(`/admin/realms/${w.realm}/users`, { username: "carol", email: "carol@example.com", password: PASSWORD });
    w.op.accounts.set("u-carol", { sub: "u-carol", preferred_username: "carol.up", email: "carol@example.com", email_verified: true });
    const { b, config, s, back } = await w.loginAs("u-carol");
    expect(back.status).toBe(200);
    expect(back.text).toContain("<strong>carol</strong>");
    const form = parseForms(back.text)[0]!;
    expect(form.action).toBe(`/realms/${w.realm}/broker/up/link`);
    const wrong = await b.submit(back, { password: "not-the-password" });
    expect(wrong.status).toBe(200);
    expect(wrong.text).toContain("<p class=\"alert\" role=\"alert\">Invalid password.</p>");
    // Another browser cannot use the page's pending link.
    const other = new BrowserSession(w.server.url);
    expectErrorPage(await other.post(new URL(form.action, w.server.url).href, { ...form.fields, password: PASSWORD }), 400, "invalid_state");
    const linked = await b.submit(wrong, { password: PASSWORD });
    expect((await redeem(config, s, linked)).claims()!.sub).toBe(carol.body.id);
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${carol.body.id}/federated-identity`)).body)
      .toEqual([{ identityProvider: "up", userId: "u-carol", userName: "carol.up", createdAt: expect.any(String) }]);
    const events = await eventually(
      () => w.api.get(`/admin/realms/${w.realm}/events?userId=${carol.body.id}`),
      (res) => Array.isArray(res.body) && res.body.some((e: { type: string }) => e.type === "IDENTITY_PROVIDER_LINK_ACCOUNT"),
    );
    expect(events.body.find((e: { type: string }) => e.type === "IDENTITY_PROVIDER_LINK_ACCOUNT_ERROR"))
      .toMatchObject({ error: "invalid_user_credentials", details: { identity_provider: "up" } });
  });

  it("links by a verified email once trustEmail is on, and not by an unverified one", async () => {
    const dave = await w.api.post(`/admin/realms/${w.realm}/users`, { username: "dave", email: "dave@example.com", password: PASSWORD });
    const erin = await w.api.post(`/admin/realms/${w.realm}/users`, { username: "erin", email: "erin@example.com", password: PASSWORD });
    w.op.accounts.set("u-dave", { sub: "u-dave", preferred_username: "dave", email: "dave@example.com", email_verified: true });
    w.op.accounts.set("u-erin", { sub: "u-erin", preferred_username: "erin", email: "erin@example.com", email_verified: false });
    // Off: the verified email alone does not link.
    const off = await w.loginAs("u-dave");
    expect(off.back.status).toBe(200);
    expect(off.back.text).toContain("<strong>dave</strong>");
    expect((await w.api.put(`${w.idps()}/up`, { trustEmail: true })).status).toBe(200);
    try {
      const on = await w.loginAs("u-dave");
      expect((await redeem(on.config, on.s, on.back)).claims()!.sub).toBe(dave.body.id);
      const unverified = await w.loginAs("u-erin");
      expect(unverified.back.status).toBe(200);
      expect(unverified.back.text).toContain("<strong>erin</strong>");
      expect((await w.api.get(`/admin/realms/${w.realm}/users/${erin.body.id}/federated-identity`)).body).toEqual([]);
    } finally {
      await w.api.put(`${w.idps()}/up`, { trustEmail: false });
    }
  });

  it("refreshes name and email on each login with syncUserProfile", async () => {
    w.op.accounts.set("u-fay", { sub: "u-fay", preferred_username: "fay", email: "fay@example.com", email_verified: true, given_name: "Fay", family_name: "One" });
    const first = await w.loginAs("u-fay");
    await redeem(first.config, first.s, first.back);
    w.op.accounts.set("u-fay", { sub: "u-fay", preferred_username: "fay", email: "fay.new@example.com", email_verified: true, given_name: "Faye", family_name: "Two" });
    // Without syncUserProfile the local profile stays.
    const kept = await w.loginAs("u-fay");
    await redeem(kept.config, kept.s, kept.back);
    expect(await w.userByName("fay")).toMatchObject({ firstName: "Fay", lastName: "One", email: "fay@example.com" });
    expect((await w.api.put(`${w.idps()}/up`, { syncUserProfile: true })).status).toBe(200);
    try {
      const synced = await w.loginAs("u-fay");
      await redeem(synced.config, synced.s, synced.back);
      expect(await w.userByName("fay")).toMatchObject({ firstName: "Faye", lastName: "Two", email: "fay.new@example.com" });
    } finally {
      await w.api.put(`${w.idps()}/up`, { syncUserProfile: false });
    }
  });

  it("reads userinfo when userinfoUrl is set, and fails the login when it cannot", async () => {
    w.op.accounts.set("u-uma", { sub: "u-uma", preferred_username: "uma", email: "uma@example.com", email_verified: true });
    // oidc-provider's userinfo endpoint is /me.
    expect((await w.api.put(`${w.idps()}/up`, { userinfoUrl: `${w.op.url}/me` })).status).toBe(200);
    try {
      const ok = await w.loginAs("u-uma");
      expect((await redeem(ok.config, ok.s, ok.back)).claims()!.preferred_username).toBe("uma");
      expect((await w.api.put(`${w.idps()}/up`, { userinfoUrl: `${w.op.url}/no-such-userinfo` })).status).toBe(200);
      expectErrorPage((await w.loginAs("u-uma")).back, 502, "identity_provider_error");
    } finally {
      expect((await w.api.put(`${w.idps()}/up`, { userinfoUrl: "" })).body.userinfoUrl).toBeUndefined();
    }
  });

  it("starts directly with the authorization request's query (spec 4.19)", async () => {
    w.op.accounts.set("u-gus", { sub: "u-gus", preferred_username: "gus" });
    w.op.nextLogin = "u-gus";
    const config = await rp("rp");
    const s = await start(config);
    const direct = new URL(`${w.server.url}/realms/${w.realm}/broker/up/login`);
    for (const k of ["client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge", "code_challenge_method"]) {
      direct.searchParams.set(k, s.url.searchParams.get(k)!);
    }
    const b = new BrowserSession(w.server.url);
    const out = await b.get(direct.href);
    expect(out.status).toBe(302);
    expect(out.location.startsWith(`${w.op.url}/auth?`)).toBe(true);
    const back = await b.get(await w.throughUpstream(out.location));
    expect((await redeem(config, s, back)).claims()!.preferred_username).toBe("gus");
    // An unregistered redirect_uri is the authorization endpoint's error page, not a trip upstream.
    direct.searchParams.set("redirect_uri", "https://evil.example/cb");
    const bad = await new BrowserSession(w.server.url).get(direct.href);
    expect(bad.status).toBe(400);
    expect(bad.location).toBe("");
  });

  it("goes straight to the provider kc_idp_hint names; an unknown or disabled one shows the page", async () => {
    w.op.accounts.set("u-hana", { sub: "u-hana", preferred_username: "hana" });
    w.op.nextLogin = "u-hana";
    const config = await rp("rp");
    // With login_hint too: the hint for the provider wins, as in Keycloak.
    const s = await start(config, { kc_idp_hint: "up", login_hint: "someone" });
    const b = new BrowserSession(w.server.url);
    const out = await b.get(s.url.href);
    expect(out.status).toBe(302);
    const broker = new URL(out.location, w.server.url);
    expect(broker.pathname).toBe(`/realms/${w.realm}/broker/up/login`);
    const up = await b.get(broker.href);
    expect(up.status).toBe(302);
    expect(up.location.startsWith(`${w.op.url}/auth?`)).toBe(true);
    const back = await b.get(await w.throughUpstream(up.location));
    expect((await redeem(config, s, back)).claims()!.preferred_username).toBe("hana");

    expect((await w.api.post(w.idps(), {
      alias: "off", displayName: "Switched off", providerType: "oidc", enabled: false, clientId: "tessera", clientSecret: UPSTREAM_SECRET,
      authorizationUrl: `${w.op.url}/auth`, tokenUrl: `${w.op.url}/token`, issuer: w.op.url,
    })).status).toBe(201);
    for (const hint of ["nope", "off", "../up", ""]) {
      const page = await new BrowserSession(w.server.url).get((await start(config, { kc_idp_hint: hint })).url.href);
      expect([hint, page.status, page.text.includes(">Upstream</a>"), page.text.includes("Switched off")]).toEqual([hint, 200, true, false]);
    }
  });

  it("logs in through the GitHub preset (/user and the verified primary email of /user/emails)", async () => {
    expect((await w.api.post(w.idps(), {
      alias: "gh", providerType: "github", clientId: "tessera", clientSecret: UPSTREAM_SECRET,
      authorizationUrl: `${w.standIn.url}/login/oauth/authorize`, tokenUrl: `${w.standIn.url}/login/oauth/access_token`, userinfoUrl: `${w.standIn.url}/user`,
    })).status).toBe(201);
    const b = new BrowserSession(w.server.url);
    const { config, s, page } = await w.loginPage(b);
    expect(page.text).toContain(">GitHub</a>");
    const out = await b.get(w.buttonHref(page, "gh"));
    const at = new URL(out.location);
    expect(at.searchParams.get("scope")).toBe("read:user user:email");
    expect(at.searchParams.has("nonce")).toBe(false);
    const back = await b.get(await w.throughUpstream(out.location));
    expect(w.standIn.lastTokenForm?.get("client_secret")).toBe(UPSTREAM_SECRET);
    const sub = (await redeem(config, s, back)).claims()!.sub;
    expect(await w.userByName("octo-cat")).toMatchObject({ id: sub, email: "octo@example.com", firstName: "Octo", lastName: "Cat" });
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${sub}/federated-identity`)).body)
      .toEqual([{ identityProvider: "gh", userId: "4242", userName: "octo-cat", createdAt: expect.any(String) }]);

    // A provider's delete takes its links with it; the user stays.
    expect((await w.api.del(`${w.idps()}/gh`)).status).toBe(200);
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${sub}/federated-identity`)).body).toEqual([]);
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${sub}`)).status).toBe(200);
  });

  it("brokers a SAML login: the SP gets a signed Response naming the upstream's user", async () => {
    const acs = "http://localhost:3995/acs";
    expect((await w.api.post(`/admin/realms/${w.realm}/saml-service-providers`, { entityId: "urn:sp:broker", name: "Broker SP", acsUrl: acs })).status).toBe(201);
    const idpCert = (await w.api.get(`/admin/realms/${w.realm}/saml-keys`)).body[0].certificate;
    const sp = new SAML({
      entryPoint: `${w.server.url}/realms/${w.realm}/protocol/saml`, issuer: "urn:sp:broker", callbackUrl: acs, idpCert,
      audience: "urn:sp:broker", wantAssertionsSigned: true, wantAuthnResponseSigned: true, idpIssuer: `${w.server.url}/realms/${w.realm}`,
      identifierFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
    });
    w.op.accounts.set("u-sid", { sub: "u-sid", preferred_username: "sid", email: "sid@example.com", email_verified: true });
    w.op.nextLogin = "u-sid";
    const b = new BrowserSession(w.server.url);
    const page = await b.get(await sp.getAuthorizeUrlAsync("", undefined, {}));
    expect(page.status).toBe(200);
    expect(parseForms(page.text)[0]!.action).toBe(`/realms/${w.realm}/protocol/saml`);
    const posted = autoPost(await w.viaButton(b, page, "up"), acs);
    const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: posted.SAMLResponse });
    expect(profile!.nameID).toBe("sid@example.com");
    expect((await w.userByName("sid"))?.email).toBe("sid@example.com");
  });

  it("refuses a disabled local user after the upstream login", async () => {
    w.op.accounts.set("u-nora", { sub: "u-nora", preferred_username: "nora" });
    const first = await w.loginAs("u-nora");
    const nora = (await redeem(first.config, first.s, first.back)).claims()!.sub;
    expect((await w.api.put(`/admin/realms/${w.realm}/users/${nora}`, { enabled: false })).status).toBe(200);
    const again = await w.loginAs("u-nora");
    expect(again.back.status).toBe(200);
    expect(again.back.text).toContain("<p class=\"alert\" role=\"alert\">Account is disabled.</p>");
    const errors = await eventually(
      () => w.api.get(`/admin/realms/${w.realm}/events?type=LOGIN_ERROR&userId=${nora}`),
      (res) => Array.isArray(res.body) && res.body.length === 1,
    );
    expect(errors.body[0]).toMatchObject({ error: "user_disabled", details: { identity_provider: "up" } });
  });

  it("runs the realm's post-login steps: consent for a client that requires it", async () => {
    expect((await w.api.post(`/admin/realms/${w.realm}/clients`, { clientId: "asks", name: "Asking App", clientType: "PUBLIC", redirectUris: [CB], requireConsent: true })).status).toBe(201);
    w.op.accounts.set("u-kim", { sub: "u-kim", preferred_username: "kim" });
    w.op.nextLogin = "u-kim";
    const b = new BrowserSession(w.server.url);
    const config = await rp("asks");
    const s = await start(config);
    const page = await b.get(s.url.href);
    const back = await w.viaButton(b, page, "up");
    expect(back.status).toBe(200);
    expect(parseForms(back.text)[0]!.fields.step).toBe("consent");
    const approved = await b.submit(back, { decision: "approve" });
    expect((await redeem(config, s, approved)).claims()!.preferred_username).toBe("kim");
  });

  it("counts wrong passwords on the confirm-link page against the account (brute-force rules)", async () => {
    // The helpers read `realm`: pointed at the guarded realm for this case.
    const main = w.realm;
    w.realm = w.guardedRealm;
    try {
      await w.api.post(`/admin/realms/${w.realm}/users`, { username: "lena", email: "lena@example.com", password: PASSWORD });
      w.op.accounts.set("u-lena", { sub: "u-lena", preferred_username: "lena", email: "lena@example.com", email_verified: true });
      const { b, back } = await w.loginAs("u-lena");
      let page = back;
      for (let i = 0; i < 2; i++) page = await b.submit(page, { password: "wrong-wrong-1" });
      // Locked now: the right password gets the same answer, and no link is made.
      const locked = await b.submit(page, { password: PASSWORD });
      expect(locked.status).toBe(200);
      expect(locked.text).toContain("<p class=\"alert\" role=\"alert\">Invalid password.</p>");
      const lena = await w.userByName("lena");
      expect((await w.api.get(`/admin/realms/${w.realm}/users/${lena!.id}/federated-identity`)).body).toEqual([]);
      const errors = await eventually(
        () => w.api.get(`/admin/realms/${w.realm}/events?type=IDENTITY_PROVIDER_LINK_ACCOUNT_ERROR&userId=${lena!.id}`),
        (res) => Array.isArray(res.body) && res.body.length === 3,
      );
      expect(errors.body.map((e: { error: string }) => e.error).sort()).toEqual(["invalid_user_credentials", "invalid_user_credentials", "user_temporarily_disabled"]);
    } finally {
      w.realm = main;
    }
  });

  it("removes a user's links with the user, and one link through the Admin API", async () => {
    w.op.accounts.set("u-ivy", { sub: "u-ivy", preferred_username: "ivy" });
    const first = await w.loginAs("u-ivy");
    const ivy = (await redeem(first.config, first.s, first.back)).claims()!.sub;
    const path = `/admin/realms/${w.realm}/users/${ivy}/federated-identity`;
    expect((await w.api.del(`${path}/nope`)).status).toBe(404);
    expect((await w.api.del(`${path}/up`)).status).toBe(204);
    expect((await w.api.get(path)).body).toEqual([]);
    // Unlinked, the upstream account's next login makes a new user ("ivy" is taken).
    const again = await w.loginAs("u-ivy");
    const ivy2 = (await redeem(again.config, again.s, again.back)).claims()!.sub;
    expect(ivy2).not.toBe(ivy);
    expect((await w.userByName("ivy-2"))?.id).toBe(ivy2);
    expect((await w.api.del(`/admin/realms/${w.realm}/users/${ivy2}`)).status).toBe(204);
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${ivy2}/federated-identity`)).status).toBe(404);
    // The link went with the user: the next login is a first login again.
    const third = await w.loginAs("u-ivy");
    const ivy3 = (await redeem(third.config, third.s, third.back)).claims()!.sub;
    expect([ivy, ivy2]).not.toContain(ivy3);
  });
});
