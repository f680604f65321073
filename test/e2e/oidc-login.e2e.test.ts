import { decodeJwt } from "jose";
import * as oidc from "openid-client";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";

/**
 * The whole browser login (OIDC Core 1.0 section 3.1 with PKCE, RFC 7636) driven over HTTP, with
 * openid-client as the relying party.
 */
for (const target of targets()) describe(`OIDC browser login (${target.mode})`, () => {
  let server: TestServer;
  let realm: string;
  const CB = "http://localhost:3998/cb";
  const PASSWORD = "Correct-Horse-9";
  /** A native app's private-use redirect URI (RFC 8252 section 7.1). */
  const NATIVE_CB = "com.example.app:/cb";
  let codeOnlySecret: string;
  let api: ReturnType<typeof adminApi>;
  let aliceId: string;

  beforeAll(async () => {
    server = await target.start("oidc-login");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("login");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    for (const clientId of ["app-one", "app-two"]) {
      expect((await api.post(`/admin/realms/${realm}/clients`, {
        clientId, clientType: "PUBLIC", redirectUris: [CB],
        grantTypes: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
      })).status).toBe(201);
    }
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "native", clientType: "PUBLIC", redirectUris: [NATIVE_CB] })).status).toBe(201);
    // A confidential client without the refresh_token grant: its tokens have no refresh family.
    const codeOnly = await api.post(`/admin/realms/${realm}/clients`, { clientId: "code-only", redirectUris: [CB], grantTypes: ["authorization_code"] });
    expect(codeOnly.status).toBe(201);
    codeOnlySecret = codeOnly.body.secret;
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "asks", name: "Asking App", clientType: "PUBLIC", redirectUris: [CB], requireConsent: true })).status).toBe(201);
    const alice = await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.com", password: PASSWORD });
    expect(alice.status).toBe(201);
    aliceId = alice.body.id;
  }, 90_000);
  afterAll(async () => server?.stop());

  const { rp, start, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();

  it("shows one generic message for a wrong password and an unknown user", async () => {
    const b = new BrowserSession(server.url);
    const page = await b.get((await start(await rp("app-one"))).url.href);
    const wrong = await login(b, page, "alice", "nope-nope-1");
    expect(wrong.status).toBe(200);
    expect(wrong.text).toContain("<p class=\"alert\" role=\"alert\">Invalid username or password.</p>");
    const unknown = await login(b, wrong, "mallory", "nope-nope-1");
    expect(unknown.text).toContain("<p class=\"alert\" role=\"alert\">Invalid username or password.</p>");
  });

  it("logs in with PKCE, reuses the SSO session for a second client, honours prompt=login, max_age and logs out", async () => {
    const b = new BrowserSession(server.url);
    const one = await rp("app-one");
    const s1 = await start(one);
    const done = await login(b, await b.get(s1.url.href));
    const cookie = b.cookies.get("TESSERA_SESSION");
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(done.headers.getSetCookie().find((c) => c.startsWith("TESSERA_SESSION="))).toBe(`TESSERA_SESSION=${cookie}; Path=/realms/${realm}/; HttpOnly; SameSite=Lax`);
    const tokens = await redeem(one, s1, done);
    const claims = tokens.claims()!;
    expect(claims.nonce).toBe(s1.nonce);
    expect(typeof claims.auth_time).toBe("number");

    // SSO: the second client gets a code without any page.
    const two = await rp("app-two");
    const s2 = await start(two);
    const tokens2 = await redeem(two, s2, await b.get(s2.url.href));
    expect(tokens2.claims()!.sub).toBe(claims.sub);

    // prompt=none with the session: a code as well.
    const s3 = await start(two, { prompt: "none" });
    await redeem(two, s3, await b.get(s3.url.href));

    // prompt=login and max_age=0 force the password again; the session (and cookie) stay.
    for (const extra of [{ prompt: "login" }, { max_age: "0" }] as Record<string, string>[]) {
      const s = await start(two, extra);
      const page = await b.get(s.url.href);
      expect(page.status).toBe(200);
      await redeem(two, s, await login(b, page));
      expect(b.cookies.get("TESSERA_SESSION")).toBe(cookie);
    }

    // RP-initiated logout with a valid id_token_hint: straight back with state.
    const end = oidc.buildEndSessionUrl(one, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: CB, state: "bye" });
    const out = await b.get(end.href);
    expect(out.status).toBe(302);
    expect(out.location).toBe(`${CB}?state=bye`);
    expect(b.cookies.has("TESSERA_SESSION")).toBe(false);

    const after = await start(one, { prompt: "none" });
    const res = await b.get(after.url.href);
    expect(res.status).toBe(302);
    expect(new URL(res.location).searchParams.get("error")).toBe("login_required");
  });

  it("lets the login page's form be redirected to a native app's private-use scheme (CSP form-action names it)", async () => {
    const b = new BrowserSession(server.url);
    const native = await rp("native");
    const s = await start(native, { redirect_uri: NATIVE_CB });
    const page = await b.get(s.url.href);
    expect(page.status).toBe(200);
    // Chromium applies form-action to the redirect that answers the login POST (CSP3 section 6.3.1).
    expect(page.headers.get("content-security-policy")).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]{43}='; style-src/);
    expect(page.headers.get("content-security-policy")!.replace(/ script-src 'sha256-[A-Za-z0-9+/]{43}=';/, "")).toBe(
      "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; form-action 'self' com.example.app:; frame-ancestors 'none'; base-uri 'none'");
    const done = await login(b, page);
    expect(done.status).toBe(302);
    expect(done.location.startsWith(`${NATIVE_CB}?`)).toBe(true);
    const at = new URL(done.location);
    expect(at.searchParams.get("state")).toBe(s.state);
    const code = at.searchParams.get("code") ?? "";
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const tokens = await fetch(`${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: NATIVE_CB, client_id: "native", code_verifier: s.verifier }),
    });
    expect(tokens.status).toBe(200);
  });

  it("answers by form_post (an auto-submitted form) and by fragment when asked, errors included", async () => {
    const b = new BrowserSession(server.url);
    const one = await rp("app-one");
    const issuer = `${server.url}/realms/${realm}`;

    // response_mode=form_post (OAuth 2.0 Form Post Response Mode): after the login, a page whose
    // form POSTs code, state and iss to the registered redirect_uri, submitted by its nonce'd script.
    const posted = await start(one, { response_mode: "form_post" });
    const page = await login(b, await b.get(posted.url.href));
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    const nonce = /script-src 'nonce-([A-Za-z0-9_-]+)'/.exec(csp)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(csp).toContain("form-action 'self' http://localhost:3998;");
    expect(page.text).toContain(`<script nonce="${nonce}">document.getElementById("auto-post").submit();</script>`);
    const [form] = parseForms(page.text);
    expect(form).toMatchObject({ action: CB, method: "post" });
    expect(Object.keys(form!.fields).sort()).toEqual(["code", "iss", "state"]);
    expect(form!.fields).toMatchObject({ state: posted.state, iss: issuer });
    // openid-client takes the POST its redirect_uri received.
    const request = new Request(CB, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form!.fields).toString() });
    const viaPost = await oidc.authorizationCodeGrant(one, request, { pkceCodeVerifier: posted.verifier, expectedState: posted.state, expectedNonce: posted.nonce });
    expect(viaPost.claims()!.nonce).toBe(posted.nonce);

    // response_mode=fragment: the SSO session answers at once, code, state and iss in the fragment only.
    const frag = await start(one, { response_mode: "fragment" });
    const res = await b.get(frag.url.href);
    expect(res.status).toBe(302);
    const at = new URL(res.location);
    expect(`${at.origin}${at.pathname}${at.search}`).toBe(CB);
    const inHash = new URLSearchParams(at.hash.slice(1));
    expect([...inHash.keys()].sort()).toEqual(["code", "iss", "state"]);
    expect([inHash.get("state"), inHash.get("iss")]).toEqual([frag.state, issuer]);
    // A browser application reads the fragment itself and hands the values on.
    const handedOn = new URL(CB);
    for (const [k, v] of inHash) handedOn.searchParams.set(k, v);
    const viaFragment = await oidc.authorizationCodeGrant(one, handedOn, { pkceCodeVerifier: frag.verifier, expectedState: frag.state, expectedNonce: frag.nonce });
    expect(viaFragment.claims()!.sub).toBe(viaPost.claims()!.sub);

    // Errors go back the way the client asked: prompt=none in a browser without a session.
    const fresh = new BrowserSession(server.url);
    const silent = await start(one, { prompt: "none", response_mode: "form_post" });
    const errorPage = await fresh.get(silent.url.href);
    expect(errorPage.status).toBe(200);
    expect(parseForms(errorPage.text)[0]).toEqual({
      action: CB, method: "post",
      fields: { error: "login_required", error_description: "The user is not logged in.", state: silent.state, iss: issuer },
    });
    const silentFragment = await start(one, { prompt: "none", response_mode: "fragment" });
    const errorRedirect = await fresh.get(silentFragment.url.href);
    expect(errorRedirect.status).toBe(302);
    expect(new URL(errorRedirect.location).hash).toBe(`#${new URLSearchParams({ error: "login_required", error_description: "The user is not logged in.", state: silentFragment.state, iss: issuer })}`);
  });

  it("puts the address and phone claims (OIDC Core 5.4) into the ID token and userinfo when those optional scopes are asked for", async () => {
    const api = adminApi(server.url, server.apiKey);
    const imported = await api.post(`/admin/realms/${realm}/users/import`, {
      users: [{
        username: "dora", password: PASSWORD,
        attributes: { street: ["1 Main St"], locality: ["Springfield"], postal_code: ["12345"], country: ["US"], phoneNumber: ["+1 555 0100"], phoneNumberVerified: ["true"] },
      }],
    });
    expect(imported.status).toBe(200);
    const one = await rp("app-one");
    const b = new BrowserSession(server.url);
    const address = { street_address: "1 Main St", locality: "Springfield", postal_code: "12345", country: "US" };

    const asked = await start(one, { scope: "openid address phone" });
    const tokens = await redeem(one, asked, await login(b, await b.get(asked.url.href), "dora"));
    expect(tokens.scope!.split(" ")).toEqual(expect.arrayContaining(["openid", "address", "phone"]));
    expect(tokens.claims()).toMatchObject({ address, phone_number: "+1 555 0100", phone_number_verified: true });
    const info = await oidc.fetchUserInfo(one, tokens.access_token, tokens.claims()!.sub);
    expect(info).toMatchObject({ address, phone_number: "+1 555 0100", phone_number_verified: true });

    // Not asked for: neither claim.
    const plain = await start(one, { scope: "openid" });
    const without = await redeem(one, plain, await b.get(plain.url.href));
    expect(without.claims()!.address).toBeUndefined();
    expect(without.claims()!.phone_number).toBeUndefined();

    // Attributes set through the Admin API feed the next token.
    const dora = (await api.get(`/admin/realms/${realm}/users?username=dora`)).body.users[0];
    expect((await api.put(`/admin/realms/${realm}/users/${dora.id}`, { attributes: { ...dora.attributes, phoneNumber: ["+1 555 0199"], phoneNumberVerified: ["false"] } })).status).toBe(200);
    const again = await start(one, { scope: "openid phone" });
    const updated = await redeem(one, again, await b.get(again.url.href));
    expect(updated.claims()).toMatchObject({ phone_number: "+1 555 0199", phone_number_verified: false });
  });


  it("revokes the access token when a code is replayed, also for a client without the refresh_token grant (RFC 6749 4.1.2)", async () => {
    const oidcUrl = `${server.url}/realms/${realm}/protocol/openid-connect`;
    const basic = `Basic ${Buffer.from(`code-only:${codeOnlySecret}`).toString("base64")}`;
    const config = await oidc.discovery(new URL(`${server.url}/realms/${realm}`), "code-only", codeOnlySecret, undefined, { execute: [oidc.allowInsecureRequests] });
    const b = new BrowserSession(server.url);
    const s = await start(config);
    const done = await login(b, await b.get(s.url.href));
    const code = new URL(done.location).searchParams.get("code")!;
    const tokens = await redeem(config, s, done);
    expect(tokens.refresh_token).toBeUndefined();
    const userinfo = () => http("GET", `${oidcUrl}/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const introspect = () => http("POST", `${oidcUrl}/token/introspect`, { form: { token: tokens.access_token }, headers: { authorization: basic } });
    expect((await userinfo()).status).toBe(200);
    expect((await introspect()).body.active).toBe(true);

    // The replay (oidcc-codereuse): refused, and the access token the first redemption got dies.
    const replay = await http("POST", `${oidcUrl}/token`, {
      form: { grant_type: "authorization_code", code, redirect_uri: CB, code_verifier: s.verifier }, headers: { authorization: basic },
    });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ error: "invalid_grant", error_description: "authorization code was already used" });
    const after = await introspect();
    expect(after.status).toBe(200);
    expect(after.body).toEqual({ active: false });
    const denied = await userinfo();
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ error: "invalid_token", error_description: "the access token is not active" });
    expect(denied.headers.get("www-authenticate")).toBe(`Bearer realm="${realm}", error="invalid_token", error_description="the access token is not active"`);
  });

  it("refreshes with a narrower scope: the response, the access token and the ID token follow it; omitted gives the original back (RFC 6749 section 6)", async () => {
    const tokenUrl = `${server.url}/realms/${realm}/protocol/openid-connect/token`;
    const one = await rp("app-one");
    const b = new BrowserSession(server.url);
    const s = await start(one);
    const tokens = await redeem(one, s, await login(b, await b.get(s.url.href)));
    const original = "openid acr basic email profile roles web-origins";
    expect(tokens.scope).toBe(original);
    const refresh = (refresh_token: string, scope?: string) => http("POST", tokenUrl, {
      form: { grant_type: "refresh_token", client_id: "app-one", refresh_token, ...(scope === undefined ? {} : { scope }) },
    });
    const narrow = await refresh(tokens.refresh_token!, "openid profile");
    expect(narrow.status).toBe(200);
    expect(narrow.body.scope).toBe("openid profile");
    const at = JSON.parse(Buffer.from(narrow.body.access_token.split(".")[1], "base64url").toString());
    expect(at.scope).toBe("openid profile");
    expect(at.preferred_username).toBe("alice");
    expect(at.email).toBeUndefined();
    expect(typeof narrow.body.id_token).toBe("string");

    const noOpenid = await refresh(narrow.body.refresh_token, "profile");
    expect(noOpenid.status).toBe(200);
    expect(noOpenid.body.scope).toBe("profile");
    expect(noOpenid.body.id_token).toBeUndefined();

    const back = await refresh(noOpenid.body.refresh_token);
    expect(back.status).toBe(200);
    expect(back.body.scope).toBe(original);
    expect(typeof back.body.id_token).toBe("string");

    const wider = await refresh(back.body.refresh_token, "openid phone");
    expect(wider.status).toBe(400);
    expect(wider.body).toEqual({ error: "invalid_scope", error_description: "scope \"phone\" exceeds the original grant" });
  });

  it("gives acr \"1\" to a login that authenticated and \"0\" to one the SSO session made, in both tokens, kept by a refresh (OIDC Core 2)", async () => {
    const tokenUrl = `${server.url}/realms/${realm}/protocol/openid-connect/token`;
    const access = (jwt: string) => decodeJwt(jwt);
    const refresh = async (clientId: string, refresh_token: string) => {
      const res = await http("POST", tokenUrl, { form: { grant_type: "refresh_token", client_id: clientId, refresh_token } });
      expect(res.status).toBe(200);
      return res.body as { access_token: string; id_token: string };
    };
    const b = new BrowserSession(server.url);
    const one = await rp("app-one");
    const s1 = await start(one);
    const fresh = await redeem(one, s1, await login(b, await b.get(s1.url.href)));
    expect(fresh.claims()!.acr).toBe("1");
    expect(access(fresh.access_token).acr).toBe("1");

    // The session's cookie alone authenticated this one (Keycloak's level 0 for an SSO login).
    await new Promise((r) => setTimeout(r, 1100));
    const two = await rp("app-two");
    const s2 = await start(two);
    const sso = await redeem(two, s2, await b.get(s2.url.href));
    expect(sso.claims()!.acr).toBe("0");
    expect(sso.claims()!.auth_time).toBe(fresh.claims()!.auth_time);
    expect(sso.claims()!.auth_time!).toBeLessThan(sso.claims()!.iat);
    expect(access(sso.access_token).acr).toBe("0");

    // A refresh keeps the level of the login its family came from.
    const again = await refresh("app-two", sso.refresh_token!);
    expect(decodeJwt(again.id_token).acr).toBe("0");
    expect(access(again.access_token).acr).toBe("0");
    const freshAgain = await refresh("app-one", fresh.refresh_token!);
    expect(decodeJwt(freshAgain.id_token).acr).toBe("1");
    expect(access(freshAgain.access_token).acr).toBe("1");

    // prompt=login authenticates again: "1".
    const s3 = await start(two, { prompt: "login" });
    const reauth = await redeem(two, s3, await login(b, await b.get(s3.url.href)));
    expect(reauth.claims()!.acr).toBe("1");
  });

  it("puts acr into the ID token only with the acr client scope, as the access token (password grant)", async () => {
    const api = adminApi(server.url, server.apiKey);
    const created = await api.post(`/admin/realms/${realm}/clients`, { clientId: "direct", grantTypes: ["password", "refresh_token"] });
    expect(created.status).toBe(201);
    const basic = `Basic ${Buffer.from(`direct:${created.body.secret}`).toString("base64")}`;
    const grant = async () => {
      const res = await http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
        form: { grant_type: "password", username: "alice", password: PASSWORD, scope: "openid" }, headers: { authorization: basic },
      });
      expect(res.status).toBe(200);
      return { id: decodeJwt(res.body.id_token), access: decodeJwt(res.body.access_token), scope: res.body.scope as string };
    };
    const before = await grant();
    expect([before.id.acr, before.access.acr]).toEqual(["1", "1"]);

    const acr = (await api.get(`/admin/realms/${realm}/clients/direct/default-client-scopes`)).body.find((s: { name: string }) => s.name === "acr");
    expect((await api.del(`/admin/realms/${realm}/clients/direct/default-client-scopes/${acr.id}`)).status).toBe(204);
    const after = await eventually(grant, (t) => !t.scope.split(" ").includes("acr"));
    expect(after.scope).toBe("openid basic email profile roles web-origins");
    expect(after.id).not.toHaveProperty("acr");
    expect(after.access).not.toHaveProperty("acr");
  });

});
