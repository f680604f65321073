import { decodeJwt } from "jose";
import * as oidc from "openid-client";
import { adminApi, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms, type PageResponse } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";
import { UpstreamOp, UpstreamStandIn } from "./support/upstream-idp.js";

/**
 * Identity brokering (spec 4.19) end to end: panva's oidc-provider on loopback is the upstream
 * OpenID Provider, openid-client the relying party of the Tessera realm, and a browser drives
 * the hosted pages over HTTP. The cases oidc-provider cannot play (forged ID tokens, GitHub) use
 * the stand-ins of support/upstream-idp.ts. Loopback fetches are allowed by
 * TESSERA_OUTBOUND_ALLOW_LOOPBACK=true; the state lives TESSERA_BROKER_STATE_TTL_SECONDS=12.
 */
const STATE_TTL_S = 12;
const CB = "http://localhost:3998/cb";
const PASSWORD = "Correct-Horse-9";
const UPSTREAM_SECRET = "upstream-secret-upstream-secret";
const FORGED = ["bad-signature", "expired", "alg-none", "wrong-nonce", "hmac-public-key"] as const;

for (const target of targets()) describe(`identity brokering (${target.mode})`, () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  /** A realm with brute-force protection (its settings are fixed at creation). */
  let guardedRealm: string;
  let op: UpstreamOp;
  let standIn: UpstreamStandIn;
  const embedded = target.mode === "embedded";
  const idps = () => `/admin/realms/${realm}/identity-providers`;
  const callbackOf = (alias: string) => `${server.url}/realms/${realm}/broker/${alias}/callback`;
  const { rp, start, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();

  beforeAll(async () => {
    server = embedded
      ? await startEmbeddedServer("brokering", { TESSERA_OUTBOUND_ALLOW_LOOPBACK: "true", TESSERA_BROKER_STATE_TTL_SECONDS: String(STATE_TTL_S) })
      : await target.start("brokering");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("broker");
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true, adminEventsEnabled: true })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "rp", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
    guardedRealm = uniqueName("broker-bf");
    expect((await api.post("/admin/realms", { name: guardedRealm, eventsEnabled: true, bruteForceEnabled: true, maxLoginFailures: 2, lockoutDuration: 600 })).status).toBe(201);
    expect((await api.post(`/admin/realms/${guardedRealm}/clients`, { clientId: "rp", clientType: "PUBLIC", redirectUris: [CB] })).status).toBe(201);
    op = await UpstreamOp.start("tessera", UPSTREAM_SECRET, [
      ...["up", "gh", ...FORGED].map(callbackOf), `${server.url}/realms/${guardedRealm}/broker/up/callback`,
    ]);
    standIn = await UpstreamStandIn.start("tessera", UPSTREAM_SECRET);
    for (const r of [realm, guardedRealm]) {
      expect((await api.post(`/admin/realms/${r}/identity-providers`, {
        alias: "up", displayName: "Upstream", providerType: "oidc", clientId: "tessera", clientSecret: UPSTREAM_SECRET,
        authorizationUrl: `${op.url}/auth`, tokenUrl: `${op.url}/token`, issuer: op.url,
      })).status).toBe(201);
    }
  }, 90_000);
  afterAll(async () => {
    await op?.stop();
    await standIn?.stop();
    await server?.stop();
  });

  /** The login page of a new authorization request of the RP. */
  async function loginPage(b: BrowserSession) {
    const config = await rp("rp");
    const s = await start(config);
    const page = await b.get(s.url.href);
    expect(page.status).toBe(200);
    return { config, s, page };
  }

  function buttonHref(page: PageResponse, alias: string): string {
    const m = new RegExp(`id="idp-${alias}" href="([^"]+)"`).exec(page.text);
    if (!m) throw new Error(`no button for ${alias}: ${page.text.slice(0, 500)}`);
    return new URL(m[1]!.replace(/&amp;/g, "&"), server.url).href;
  }

  /** Follows the upstream's redirects (a fresh upstream browser) until one comes back to Tessera. */
  async function throughUpstream(location: string): Promise<string> {
    const u = new BrowserSession(location);
    let next = location;
    for (let i = 0; i < 12; i++) {
      if (next.startsWith(server.url)) return next;
      const r = await u.get(next);
      if (r.status < 300 || r.status >= 400) throw new Error(`upstream answered ${r.status}: ${r.text.slice(0, 300)}`);
      next = new URL(r.location, next).href;
    }
    throw new Error("upstream redirects did not come back");
  }

  /** Login page -> provider button -> upstream -> Tessera's callback; answers the callback's response. */
  async function viaButton(b: BrowserSession, page: PageResponse, alias: string): Promise<PageResponse> {
    const out = await b.get(buttonHref(page, alias));
    expect(out.status).toBe(302);
    return b.get(await throughUpstream(out.location));
  }

  async function loginAs(account: string, alias = "up") {
    op.nextLogin = account;
    const b = new BrowserSession(server.url);
    const { config, s, page } = await loginPage(b);
    const back = await viaButton(b, page, alias);
    return { b, config, s, back };
  }

  async function userByName(username: string) {
    const res = await api.get(`/admin/realms/${realm}/users?username=${encodeURIComponent(username)}`);
    return res.body.users[0] as { id: string; username: string; email?: string; firstName?: string; lastName?: string; emailVerified: boolean } | undefined;
  }

  function expectErrorPage(res: PageResponse, status: number, code: string) {
    expect([res.status, /<code id="error-code">([^<]*)<\/code>/.exec(res.text)?.[1], res.location]).toEqual([status, code, ""]);
  }

  it("shows the enabled providers on the login page and starts with state, nonce and PKCE S256", async () => {
    const b = new BrowserSession(server.url);
    const { page } = await loginPage(b);
    expect(page.text).toContain(">Upstream</a>");
    const out = await b.get(buttonHref(page, "up"));
    expect(out.status).toBe(302);
    const at = new URL(out.location);
    expect(`${at.origin}${at.pathname}`).toBe(`${op.url}/auth`);
    expect(Object.fromEntries(at.searchParams)).toEqual({
      response_type: "code", client_id: "tessera", redirect_uri: callbackOf("up"), scope: "openid profile email",
      state: expect.stringMatching(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/), nonce: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), code_challenge_method: "S256",
    });
  });

  it("creates the user on the first login, finds the link on the second, and ends in tokens openid-client accepts", async () => {
    op.accounts.set("u-jdoe", { sub: "u-jdoe", preferred_username: "jdoe", email: "jdoe@example.com", email_verified: true, given_name: "John", family_name: "Doe" });
    const first = await loginAs("u-jdoe");
    const tokens = await redeem(first.config, first.s, first.back);
    const claims = tokens.claims()!;
    const user = await userByName("jdoe");
    expect(user).toMatchObject({ username: "jdoe", email: "jdoe@example.com", firstName: "John", lastName: "Doe", emailVerified: false });
    expect(claims).toMatchObject({ sub: user!.id, preferred_username: "jdoe", nonce: first.s.nonce, iss: `${server.url}/realms/${realm}`, amr: ["fed"] });
    expect(decodeJwt(tokens.access_token).sub).toBe(user!.id);
    const links = await api.get(`/admin/realms/${realm}/users/${user!.id}/federated-identity`);
    expect(links.status).toBe(200);
    expect(links.body).toEqual([{ identityProvider: "up", userId: "u-jdoe", userName: "jdoe", createdAt: expect.any(String) }]);

    const second = await loginAs("u-jdoe");
    expect((await redeem(second.config, second.s, second.back)).claims()!.sub).toBe(user!.id);
    const all = await api.get(`/admin/realms/${realm}/users?search=jdoe`);
    expect(all.body.total).toBe(1);

    const events = await eventually(
      () => api.get(`/admin/realms/${realm}/events?userId=${user!.id}`),
      (res) => Array.isArray(res.body) && res.body.filter((e: { type: string }) => e.type === "IDENTITY_PROVIDER_LOGIN").length === 2
        && res.body.some((e: { type: string }) => e.type === "LOGIN"),
    );
    const types = events.body.map((e: { type: string }) => e.type);
    expect(types.filter((t: string) => t === "IDENTITY_PROVIDER_FIRST_LOGIN")).toHaveLength(1);
    for (const e of events.body.filter((x: { type: string }) => x.type.startsWith("IDENTITY_PROVIDER") || x.type === "LOGIN")) {
      expect(e.details.identity_provider).toBe("up");
    }
  });

  it("resolves a taken username with a suffix", async () => {
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "sam", email: "sam-local@example.com", password: PASSWORD })).status).toBe(201);
    op.accounts.set("u-sam", { sub: "u-sam", preferred_username: "sam", email: "sam-upstream@example.com", email_verified: true });
    const { config, s, back } = await loginAs("u-sam");
    const sub = (await redeem(config, s, back)).claims()!.sub;
    expect((await userByName("sam-2"))?.id).toBe(sub);
  });

  it("asks for the local password when trustEmail is off; a wrong password is refused, the right one links", async () => {
    const carol = await api.post(`/admin/realms/${realm}/users`, { username: "carol", email: "carol@example.com", password: PASSWORD });
    op.accounts.set("u-carol", { sub: "u-carol", preferred_username: "carol.up", email: "carol@example.com", email_verified: true });
    const { b, config, s, back } = await loginAs("u-carol");
    expect(back.status).toBe(200);
    expect(back.text).toContain("<strong>carol</strong>");
    const form = parseForms(back.text)[0]!;
    expect(form.action).toBe(`/realms/${realm}/broker/up/link`);
    const wrong = await b.submit(back, { password: "not-the-password" });
    expect(wrong.status).toBe(200);
    expect(wrong.text).toContain("<p class=\"alert\" role=\"alert\">Invalid password.</p>");
    // Another browser cannot use the page's pending link.
    const other = new BrowserSession(server.url);
    expectErrorPage(await other.post(new URL(form.action, server.url).href, { ...form.fields, password: PASSWORD }), 400, "invalid_state");
    const linked = await b.submit(wrong, { password: PASSWORD });
    expect((await redeem(config, s, linked)).claims()!.sub).toBe(carol.body.id);
    expect((await api.get(`/admin/realms/${realm}/users/${carol.body.id}/federated-identity`)).body)
      .toEqual([{ identityProvider: "up", userId: "u-carol", userName: "carol.up", createdAt: expect.any(String) }]);
    const events = await eventually(
      () => api.get(`/admin/realms/${realm}/events?userId=${carol.body.id}`),
      (res) => Array.isArray(res.body) && res.body.some((e: { type: string }) => e.type === "IDENTITY_PROVIDER_LINK_ACCOUNT"),
    );
    expect(events.body.find((e: { type: string }) => e.type === "IDENTITY_PROVIDER_LINK_ACCOUNT_ERROR"))
      .toMatchObject({ error: "invalid_user_credentials", details: { identity_provider: "up" } });
  });

  it("links by a verified email once trustEmail is on, and not by an unverified one", async () => {
    const dave = await api.post(`/admin/realms/${realm}/users`, { username: "dave", email: "dave@example.com", password: PASSWORD });
    const erin = await api.post(`/admin/realms/${realm}/users`, { username: "erin", email: "erin@example.com", password: PASSWORD });
    op.accounts.set("u-dave", { sub: "u-dave", preferred_username: "dave", email: "dave@example.com", email_verified: true });
    op.accounts.set("u-erin", { sub: "u-erin", preferred_username: "erin", email: "erin@example.com", email_verified: false });
    // Off: the verified email alone does not link.
    const off = await loginAs("u-dave");
    expect(off.back.status).toBe(200);
    expect(off.back.text).toContain("<strong>dave</strong>");
    expect((await api.put(`${idps()}/up`, { trustEmail: true })).status).toBe(200);
    try {
      const on = await loginAs("u-dave");
      expect((await redeem(on.config, on.s, on.back)).claims()!.sub).toBe(dave.body.id);
      const unverified = await loginAs("u-erin");
      expect(unverified.back.status).toBe(200);
      expect(unverified.back.text).toContain("<strong>erin</strong>");
      expect((await api.get(`/admin/realms/${realm}/users/${erin.body.id}/federated-identity`)).body).toEqual([]);
    } finally {
      await api.put(`${idps()}/up`, { trustEmail: false });
    }
  });

  it("refreshes name and email on each login with syncUserProfile", async () => {
    op.accounts.set("u-fay", { sub: "u-fay", preferred_username: "fay", email: "fay@example.com", email_verified: true, given_name: "Fay", family_name: "One" });
    const first = await loginAs("u-fay");
    await redeem(first.config, first.s, first.back);
    op.accounts.set("u-fay", { sub: "u-fay", preferred_username: "fay", email: "fay.new@example.com", email_verified: true, given_name: "Faye", family_name: "Two" });
    // Without syncUserProfile the local profile stays.
    const kept = await loginAs("u-fay");
    await redeem(kept.config, kept.s, kept.back);
    expect(await userByName("fay")).toMatchObject({ firstName: "Fay", lastName: "One", email: "fay@example.com" });
    expect((await api.put(`${idps()}/up`, { syncUserProfile: true })).status).toBe(200);
    try {
      const synced = await loginAs("u-fay");
      await redeem(synced.config, synced.s, synced.back);
      expect(await userByName("fay")).toMatchObject({ firstName: "Faye", lastName: "Two", email: "fay.new@example.com" });
    } finally {
      await api.put(`${idps()}/up`, { syncUserProfile: false });
    }
  });

  it("reads userinfo when userinfoUrl is set, and fails the login when it cannot", async () => {
    op.accounts.set("u-uma", { sub: "u-uma", preferred_username: "uma", email: "uma@example.com", email_verified: true });
    // oidc-provider's userinfo endpoint is /me.
    expect((await api.put(`${idps()}/up`, { userinfoUrl: `${op.url}/me` })).status).toBe(200);
    try {
      const ok = await loginAs("u-uma");
      expect((await redeem(ok.config, ok.s, ok.back)).claims()!.preferred_username).toBe("uma");
      expect((await api.put(`${idps()}/up`, { userinfoUrl: `${op.url}/no-such-userinfo` })).status).toBe(200);
      expectErrorPage((await loginAs("u-uma")).back, 502, "identity_provider_error");
    } finally {
      expect((await api.put(`${idps()}/up`, { userinfoUrl: "" })).body.userinfoUrl).toBeUndefined();
    }
  });

  it("starts directly with the authorization request's query (spec 4.19)", async () => {
    op.accounts.set("u-gus", { sub: "u-gus", preferred_username: "gus" });
    op.nextLogin = "u-gus";
    const config = await rp("rp");
    const s = await start(config);
    const direct = new URL(`${server.url}/realms/${realm}/broker/up/login`);
    for (const k of ["client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge", "code_challenge_method"]) {
      direct.searchParams.set(k, s.url.searchParams.get(k)!);
    }
    const b = new BrowserSession(server.url);
    const out = await b.get(direct.href);
    expect(out.status).toBe(302);
    expect(out.location.startsWith(`${op.url}/auth?`)).toBe(true);
    const back = await b.get(await throughUpstream(out.location));
    expect((await redeem(config, s, back)).claims()!.preferred_username).toBe("gus");
    // An unregistered redirect_uri is the authorization endpoint's error page, not a trip upstream.
    direct.searchParams.set("redirect_uri", "https://evil.example/cb");
    const bad = await new BrowserSession(server.url).get(direct.href);
    expect(bad.status).toBe(400);
    expect(bad.location).toBe("");
  });

  it("refuses a tampered, a replayed, a foreign-browser and an expired state with an error page", async () => {
    op.accounts.set("u-hal", { sub: "u-hal", preferred_username: "hal" });
    op.nextLogin = "u-hal";
    // Tampered: the state's MAC no longer matches.
    let b = new BrowserSession(server.url);
    let out = await b.get(buttonHref((await loginPage(b)).page, "up"));
    let cb = new URL(await throughUpstream(out.location));
    const state = cb.searchParams.get("state")!;
    cb.searchParams.set("state", `${state.slice(0, -1)}${state.endsWith("A") ? "B" : "A"}`);
    expectErrorPage(await b.get(cb.href), 400, "invalid_state");

    // Replayed: a completed callback's state is gone.
    b = new BrowserSession(server.url);
    out = await b.get(buttonHref((await loginPage(b)).page, "up"));
    cb = new URL(await throughUpstream(out.location));
    expect((await b.get(cb.href)).status).toBe(302);
    expectErrorPage(await b.get(cb.href), 400, "invalid_state");

    // Another browser (login CSRF): the state is bound to the browser that started it.
    b = new BrowserSession(server.url);
    out = await b.get(buttonHref((await loginPage(b)).page, "up"));
    cb = new URL(await throughUpstream(out.location));
    expectErrorPage(await new BrowserSession(server.url).get(cb.href), 400, "invalid_state");
    // ...and that attempt used it up.
    expectErrorPage(await b.get(cb.href), 400, "invalid_state");

    if (!embedded) return;
    // Expired: the callback comes after the state's lifetime.
    b = new BrowserSession(server.url);
    out = await b.get(buttonHref((await loginPage(b)).page, "up"));
    cb = new URL(await throughUpstream(out.location));
    await new Promise((r) => setTimeout(r, (STATE_TTL_S + 1) * 1000));
    expectErrorPage(await b.get(cb.href), 400, "invalid_state");
  }, 60_000);

  it("refuses forged ID tokens: bad signature, expired, alg none, wrong nonce, HMAC with the public key", async () => {
    for (const mode of FORGED) {
      expect((await api.post(idps(), {
        alias: mode, providerType: "oidc", clientId: "tessera", clientSecret: UPSTREAM_SECRET, issuer: standIn.url,
        authorizationUrl: `${standIn.url}/m/${mode}/authorize`, tokenUrl: `${standIn.url}/m/${mode}/token`, jwksUrl: `${standIn.url}/jwks`,
      })).status).toBe(201);
    }
    for (const mode of FORGED) {
      const b = new BrowserSession(server.url);
      const { page } = await loginPage(b);
      const res = await viaButton(b, page, mode);
      expect([mode, res.status, /<code id="error-code">([^<]*)<\/code>/.exec(res.text)?.[1], res.location]).toEqual([mode, 400, "invalid_id_token", ""]);
    }
    const errors = await eventually(
      () => api.get(`/admin/realms/${realm}/events?type=IDENTITY_PROVIDER_LOGIN_ERROR`),
      (res) => Array.isArray(res.body) && FORGED.every((m) => res.body.some((e: { details: Record<string, string> }) => e.details.identity_provider === m)),
    );
    const byAlias = Object.fromEntries(errors.body.map((e: { details: Record<string, string>; error: string }) => [e.details.identity_provider, e.error]));
    expect(byAlias["bad-signature"]).toBe("invalid_id_token: ERR_JWS_SIGNATURE_VERIFICATION_FAILED");
    expect(byAlias.expired).toBe("invalid_id_token: ERR_JWT_EXPIRED");
    expect(byAlias["alg-none"]).toBe("invalid_id_token: alg none refused");
    expect(byAlias["wrong-nonce"]).toBe("invalid_id_token: nonce");
    expect(byAlias["hmac-public-key"]).toBe("invalid_id_token: alg HS256 refused");
    // The same stand-in's honest token passes: the refusals above are the tokens', not the setup's.
    expect((await api.post(idps(), {
      alias: "good", providerType: "oidc", clientId: "tessera", clientSecret: UPSTREAM_SECRET, issuer: standIn.url,
      authorizationUrl: `${standIn.url}/m/good/authorize`, tokenUrl: `${standIn.url}/m/good/token`, jwksUrl: `${standIn.url}/jwks`,
    })).status).toBe(201);
    const b = new BrowserSession(server.url);
    const { config, s, page } = await loginPage(b);
    expect((await redeem(config, s, await viaButton(b, page, "good"))).claims()!.preferred_username).toBe("standin-good");
  });

  it("logs in through the GitHub preset (/user and the verified primary email of /user/emails)", async () => {
    expect((await api.post(idps(), {
      alias: "gh", providerType: "github", clientId: "tessera", clientSecret: UPSTREAM_SECRET,
      authorizationUrl: `${standIn.url}/login/oauth/authorize`, tokenUrl: `${standIn.url}/login/oauth/access_token`, userinfoUrl: `${standIn.url}/user`,
    })).status).toBe(201);
    const b = new BrowserSession(server.url);
    const { config, s, page } = await loginPage(b);
    expect(page.text).toContain(">GitHub</a>");
    const out = await b.get(buttonHref(page, "gh"));
    const at = new URL(out.location);
    expect(at.searchParams.get("scope")).toBe("read:user user:email");
    expect(at.searchParams.has("nonce")).toBe(false);
    const back = await b.get(await throughUpstream(out.location));
    expect(standIn.lastTokenForm?.get("client_secret")).toBe(UPSTREAM_SECRET);
    const sub = (await redeem(config, s, back)).claims()!.sub;
    expect(await userByName("octo-cat")).toMatchObject({ id: sub, email: "octo@example.com", firstName: "Octo", lastName: "Cat" });
    expect((await api.get(`/admin/realms/${realm}/users/${sub}/federated-identity`)).body)
      .toEqual([{ identityProvider: "gh", userId: "4242", userName: "octo-cat", createdAt: expect.any(String) }]);

    // A provider's delete takes its links with it; the user stays.
    expect((await api.del(`${idps()}/gh`)).status).toBe(200);
    expect((await api.get(`/admin/realms/${realm}/users/${sub}/federated-identity`)).body).toEqual([]);
    expect((await api.get(`/admin/realms/${realm}/users/${sub}`)).status).toBe(200);
  });

  it("answers a disabled provider and an unknown alias with an error page, and hides the disabled button", async () => {
    expect((await api.put(`${idps()}/up`, { enabled: false })).status).toBe(200);
    try {
      const b = new BrowserSession(server.url);
      const { page } = await loginPage(b);
      expect(page.text).not.toContain("id=\"idp-up\"");
      const tx = parseForms(page.text)[0]!.fields;
      const q = new URLSearchParams({ tx: tx.tx!, csrf: tx.csrf! });
      expectErrorPage(await b.get(`${server.url}/realms/${realm}/broker/up/login?${q}`), 400, "identity_provider_disabled");
      expectErrorPage(await b.get(`${server.url}/realms/${realm}/broker/nope/login?${q}`), 404, "identity_provider_not_found");
    } finally {
      await api.put(`${idps()}/up`, { enabled: true });
    }
  });

  it("runs the realm's post-login steps: consent for a client that requires it", async () => {
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "asks", name: "Asking App", clientType: "PUBLIC", redirectUris: [CB], requireConsent: true })).status).toBe(201);
    op.accounts.set("u-kim", { sub: "u-kim", preferred_username: "kim" });
    op.nextLogin = "u-kim";
    const b = new BrowserSession(server.url);
    const config = await rp("asks");
    const s = await start(config);
    const page = await b.get(s.url.href);
    const back = await viaButton(b, page, "up");
    expect(back.status).toBe(200);
    expect(parseForms(back.text)[0]!.fields.step).toBe("consent");
    const approved = await b.submit(back, { decision: "approve" });
    expect((await redeem(config, s, approved)).claims()!.preferred_username).toBe("kim");
  });

  it("counts wrong passwords on the confirm-link page against the account (brute-force rules)", async () => {
    // The helpers read `realm`: pointed at the guarded realm for this case.
    const main = realm;
    realm = guardedRealm;
    try {
      await api.post(`/admin/realms/${realm}/users`, { username: "lena", email: "lena@example.com", password: PASSWORD });
      op.accounts.set("u-lena", { sub: "u-lena", preferred_username: "lena", email: "lena@example.com", email_verified: true });
      const { b, back } = await loginAs("u-lena");
      let page = back;
      for (let i = 0; i < 2; i++) page = await b.submit(page, { password: "wrong-wrong-1" });
      // Locked now: the right password gets the same answer, and no link is made.
      const locked = await b.submit(page, { password: PASSWORD });
      expect(locked.status).toBe(200);
      expect(locked.text).toContain("<p class=\"alert\" role=\"alert\">Invalid password.</p>");
      const lena = await userByName("lena");
      expect((await api.get(`/admin/realms/${realm}/users/${lena!.id}/federated-identity`)).body).toEqual([]);
      const errors = await eventually(
        () => api.get(`/admin/realms/${realm}/events?type=IDENTITY_PROVIDER_LINK_ACCOUNT_ERROR&userId=${lena!.id}`),
        (res) => Array.isArray(res.body) && res.body.length === 3,
      );
      expect(errors.body.map((e: { error: string }) => e.error).sort()).toEqual(["invalid_user_credentials", "invalid_user_credentials", "user_temporarily_disabled"]);
    } finally {
      realm = main;
    }
  });

  it("removes a user's links with the user, and one link through the Admin API", async () => {
    op.accounts.set("u-ivy", { sub: "u-ivy", preferred_username: "ivy" });
    const first = await loginAs("u-ivy");
    const ivy = (await redeem(first.config, first.s, first.back)).claims()!.sub;
    const path = `/admin/realms/${realm}/users/${ivy}/federated-identity`;
    expect((await api.del(`${path}/nope`)).status).toBe(404);
    expect((await api.del(`${path}/up`)).status).toBe(204);
    expect((await api.get(path)).body).toEqual([]);
    // Unlinked, the upstream account's next login makes a new user ("ivy" is taken).
    const again = await loginAs("u-ivy");
    const ivy2 = (await redeem(again.config, again.s, again.back)).claims()!.sub;
    expect(ivy2).not.toBe(ivy);
    expect((await userByName("ivy-2"))?.id).toBe(ivy2);
    expect((await api.del(`/admin/realms/${realm}/users/${ivy2}`)).status).toBe(204);
    expect((await api.get(`/admin/realms/${realm}/users/${ivy2}/federated-identity`)).status).toBe(404);
    // The link went with the user: the next login is a first login again.
    const third = await loginAs("u-ivy");
    const ivy3 = (await redeem(third.config, third.s, third.back)).claims()!.sub;
    expect([ivy, ivy2]).not.toContain(ivy3);
  });
});

// openid-client is the RP above; keep its import used when the file is type-checked alone.
void oidc;
