import { eventually, targets } from "./support/targets.js";
import { BrowserSession, parseForms } from "./support/browser-session.js";
import { BrokeringWorld, FORGED, STATE_TTL_S, UPSTREAM_SECRET, expectErrorPage } from "./support/brokering-world.js";

/**
 * What a brokered login refuses (spec 4.19): states that are tampered, replayed, from another
 * browser or expired; forged ID tokens (from the stand-in of support/upstream-idp.ts, since
 * oidc-provider signs only good ones); disabled and unknown providers. Each is an error page,
 * never a redirect to the client.
 */
for (const target of targets()) describe(`identity brokering refusals (${target.mode})`, () => {
  const w = new BrokeringWorld(target, "brokering-hostile");
  const { redeem } = w.rp.calls();

  beforeAll(() => w.setUp(), 90_000);
  afterAll(() => w.tearDown());

  it("refuses a tampered, a replayed, a foreign-browser and an expired state with an error page", async () => {
    w.op.accounts.set("u-hal", { sub: "u-hal", preferred_username: "hal" });
    w.op.nextLogin = "u-hal";
    // Tampered: the state's MAC no longer matches.
    let b = new BrowserSession(w.server.url);
    let out = await b.get(w.buttonHref((await w.loginPage(b)).page, "up"));
    let cb = new URL(await w.throughUpstream(out.location));
    const state = cb.searchParams.get("state")!;
    cb.searchParams.set("state", `${state.slice(0, -1)}${state.endsWith("A") ? "B" : "A"}`);
    expectErrorPage(await b.get(cb.href), 400, "invalid_state");

    // Replayed: a completed callback's state is gone.
    b = new BrowserSession(w.server.url);
    out = await b.get(w.buttonHref((await w.loginPage(b)).page, "up"));
    cb = new URL(await w.throughUpstream(out.location));
    expect((await b.get(cb.href)).status).toBe(302);
    expectErrorPage(await b.get(cb.href), 400, "invalid_state");

    // Another browser (login CSRF): the state is bound to the browser that started it.
    b = new BrowserSession(w.server.url);
    out = await b.get(w.buttonHref((await w.loginPage(b)).page, "up"));
    cb = new URL(await w.throughUpstream(out.location));
    expectErrorPage(await new BrowserSession(w.server.url).get(cb.href), 400, "invalid_state");
    // ...and that attempt used it up.
    expectErrorPage(await b.get(cb.href), 400, "invalid_state");

    if (!w.embedded) return;
    // Expired: the callback comes after the state's lifetime.
    b = new BrowserSession(w.server.url);
    out = await b.get(w.buttonHref((await w.loginPage(b)).page, "up"));
    cb = new URL(await w.throughUpstream(out.location));
    await new Promise((r) => setTimeout(r, (STATE_TTL_S + 1) * 1000));
    expectErrorPage(await b.get(cb.href), 400, "invalid_state");
  }, 60_000);

  it("shows the upstream's refusal (error=access_denied) as an error page and uses the state up", async () => {
    const b = new BrowserSession(w.server.url);
    const out = await b.get(w.buttonHref((await w.loginPage(b)).page, "up"));
    const state = new URL(out.location).searchParams.get("state")!;
    const cb = `${w.callbackOf("up")}?${new URLSearchParams({ error: "access_denied", state })}`;
    expectErrorPage(await b.get(cb), 400, "access_denied");
    expectErrorPage(await b.get(cb), 400, "invalid_state");
    const res = await b.get(`${w.server.url}/realms/${w.realm}/broker/up/login?client_id=`);
    expectErrorPage(res, 400, "invalid_request");
  });

  it("refuses an authorization response from another issuer (RFC 9207 iss)", async () => {
    expect((await w.api.post(w.idps(), {
      alias: "wrong-iss", providerType: "oidc", clientId: "tessera", clientSecret: UPSTREAM_SECRET, issuer: w.standIn.url,
      authorizationUrl: `${w.standIn.url}/m/wrong-iss/authorize`, tokenUrl: `${w.standIn.url}/m/wrong-iss/token`, jwksUrl: `${w.standIn.url}/jwks`,
    })).status).toBe(201);
    const b = new BrowserSession(w.server.url);
    const { page } = await w.loginPage(b);
    expectErrorPage(await w.viaButton(b, page, "wrong-iss"), 400, "issuer_mismatch");
  });

  it("refuses forged ID tokens: bad signature, expired, alg none, wrong nonce, HMAC with the public key", async () => {
    for (const mode of FORGED) {
      expect((await w.api.post(w.idps(), {
        alias: mode, providerType: "oidc", clientId: "tessera", clientSecret: UPSTREAM_SECRET, issuer: w.standIn.url,
        authorizationUrl: `${w.standIn.url}/m/${mode}/authorize`, tokenUrl: `${w.standIn.url}/m/${mode}/token`, jwksUrl: `${w.standIn.url}/jwks`,
      })).status).toBe(201);
    }
    for (const mode of FORGED) {
      const b = new BrowserSession(w.server.url);
      const { page } = await w.loginPage(b);
      const res = await w.viaButton(b, page, mode);
      expect([mode, res.status, /<code id="error-code">([^<]*)<\/code>/.exec(res.text)?.[1], res.location]).toEqual([mode, 400, "invalid_id_token", ""]);
    }
    const errors = await eventually(
      () => w.api.get(`/admin/realms/${w.realm}/events?type=IDENTITY_PROVIDER_LOGIN_ERROR`),
      (res) => Array.isArray(res.body) && FORGED.every((m) => res.body.some((e: { details: Record<string, string> }) => e.details.identity_provider === m)),
    );
    const byAlias = Object.fromEntries(errors.body.map((e: { details: Record<string, string>; error: string }) => [e.details.identity_provider, e.error]));
    expect(byAlias["bad-signature"]).toBe("invalid_id_token: ERR_JWS_SIGNATURE_VERIFICATION_FAILED");
    expect(byAlias.expired).toBe("invalid_id_token: ERR_JWT_EXPIRED");
    expect(byAlias["alg-none"]).toBe("invalid_id_token: alg none refused");
    expect(byAlias["wrong-nonce"]).toBe("invalid_id_token: nonce");
    expect(byAlias["hmac-public-key"]).toBe("invalid_id_token: alg HS256 refused");
    // The same stand-in's honest token passes: the refusals above are the tokens', not the setup's.
    expect((await w.api.post(w.idps(), {
      alias: "good", providerType: "oidc", clientId: "tessera", clientSecret: UPSTREAM_SECRET, issuer: w.standIn.url,
      authorizationUrl: `${w.standIn.url}/m/good/authorize`, tokenUrl: `${w.standIn.url}/m/good/token`, jwksUrl: `${w.standIn.url}/jwks`,
    })).status).toBe(201);
    const b = new BrowserSession(w.server.url);
    const { config, s, page } = await w.loginPage(b);
    expect((await redeem(config, s, await w.viaButton(b, page, "good"))).claims()!.preferred_username).toBe("standin-good");
  });

  it("answers a disabled provider and an unknown alias with an error page, and hides the disabled button", async () => {
    expect((await w.api.put(`${w.idps()}/up`, { enabled: false })).status).toBe(200);
    try {
      const b = new BrowserSession(w.server.url);
      const { page } = await w.loginPage(b);
      expect(page.text).not.toContain("id=\"idp-up\"");
      const tx = parseForms(page.text)[0]!.fields;
      const q = new URLSearchParams({ tx: tx.tx!, csrf: tx.csrf! });
      expectErrorPage(await b.get(`${w.server.url}/realms/${w.realm}/broker/up/login?${q}`), 400, "identity_provider_disabled");
      expectErrorPage(await b.get(`${w.server.url}/realms/${w.realm}/broker/nope/login?${q}`), 404, "identity_provider_not_found");
    } finally {
      await w.api.put(`${w.idps()}/up`, { enabled: true });
    }
  });
});
