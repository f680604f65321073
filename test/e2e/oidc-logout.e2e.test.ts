import * as oidc from "openid-client";
import { adminApi, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms, type PageResponse } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";

/**
 * RP-initiated logout (OIDC RP-Initiated Logout 1.0 section 2) and the authorization and logout
 * endpoints' POSTs from another site, which carry no SameSite=Lax cookie (OIDC Core 1.0 section
 * 3.1.2.1), with openid-client as the relying party and a browser driven over HTTP.
 */
for (const target of targets()) describe(`OIDC logout and cross-site requests (${target.mode})`, () => {
  let server: TestServer;
  let realm: string;
  const CB = "http://localhost:3997/cb";
  const PASSWORD = "Correct-Horse-9";

  beforeAll(async () => {
    server = await target.start("oidc-logout");
    const api = adminApi(server.url, server.apiKey);
    realm = uniqueName("logout");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "app-one", clientType: "PUBLIC", redirectUris: [CB], grantTypes: ["authorization_code", "refresh_token"],
    })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.com", password: PASSWORD })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const { rp, start, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();

  it("asks to confirm a logout without id_token_hint", async () => {
    const b = new BrowserSession(server.url);
    const one = await rp("app-one");
    const s = await start(one);
    await redeem(one, s, await login(b, await b.get(s.url.href)));
    const confirm = await b.get(`${server.url}/realms/${realm}/protocol/openid-connect/logout`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain("Do you want to log out alice?");
    const out = await b.submit(confirm, { confirm: "yes" });
    expect(out.status).toBe(200);
    expect(out.text).toContain("<p id=\"logout-result\">You are logged out.</p>");
    expect(b.cookies.has("TESSERA_SESSION")).toBe(false);
  });

  /** A POST as another site's auto-submitted form sends it: Fetch Metadata cross-site, no Lax cookie. */
  async function crossSitePost(path: string, form: Record<string, string>): Promise<PageResponse> {
    const url = `${server.url}/realms/${realm}/protocol/openid-connect/${path}`;
    const res = await fetch(url, {
      method: "POST", redirect: "manual", body: new URLSearchParams(form).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" },
    });
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get("location") ?? "", url };
  }

  it("re-posts a cross-site authorization POST same-site, so prompt=none sees the SSO session", async () => {
    const b = new BrowserSession(server.url);
    const one = await rp("app-one");
    const s = await start(one);
    await redeem(one, s, await login(b, await b.get(s.url.href)));

    const again = await start(one, { prompt: "none" });
    const params = Object.fromEntries(again.url.searchParams);
    const page = await crossSitePost("auth", params);
    expect(page.status).toBe(200);
    const forms = parseForms(page.text);
    expect(forms).toEqual([{ action: `${server.url}/realms/${realm}/protocol/openid-connect/auth`, method: "post", fields: params }]);
    expect(page.headers.get("content-security-policy")).toContain(`form-action 'self' ${server.url};`);
    // The page's form, submitted by the browser that holds the cookie: a code, not login_required.
    await redeem(one, again, await b.submit(page, {}));
  });

  it("ends the session an id_token_hint names when the logout request comes without the cookie", async () => {
    const b = new BrowserSession(server.url);
    const one = await rp("app-one");
    const s = await start(one, { scope: "openid profile" });
    const tokens = await redeem(one, s, await login(b, await b.get(s.url.href)));
    expect(tokens.refresh_token).toBeTruthy();

    // A POST from the RP's site without Fetch Metadata (an older browser, another browser): no cookie.
    const out = await new BrowserSession(server.url).post(`${server.url}/realms/${realm}/protocol/openid-connect/logout`, {
      id_token_hint: tokens.id_token!, post_logout_redirect_uri: CB, state: "z",
    });
    expect(out.status).toBe(302);
    expect(out.location).toBe(`${CB}?state=z`);

    // The session is over: for the browser that still holds its cookie and for the refresh token.
    const after = await start(one, { prompt: "none" });
    const res = await b.get(after.url.href);
    expect(res.status).toBe(302);
    expect(new URL(res.location).searchParams.get("error")).toBe("login_required");
    await expect(oidc.refreshTokenGrant(one, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("re-posts a cross-site logout POST same-site, then logs out the browser's session", async () => {
    const b = new BrowserSession(server.url);
    const one = await rp("app-one");
    const s = await start(one);
    const tokens = await redeem(one, s, await login(b, await b.get(s.url.href)));
    const form = { id_token_hint: tokens.id_token!, post_logout_redirect_uri: CB, state: "y" };
    const page = await crossSitePost("logout", form);
    expect(page.status).toBe(200);
    expect(parseForms(page.text)).toEqual([{ action: `${server.url}/realms/${realm}/protocol/openid-connect/logout`, method: "post", fields: form }]);
    const out = await b.submit(page, {});
    expect(out.status).toBe(302);
    expect(out.location).toBe(`${CB}?state=y`);
    expect(b.cookies.has("TESSERA_SESSION")).toBe(false);
  });

  it("refuses an access token as id_token_hint at the authorization and logout endpoints", async () => {
    const b = new BrowserSession(server.url);
    const one = await rp("app-one");
    const s = await start(one);
    const tokens = await redeem(one, s, await login(b, await b.get(s.url.href)));
    const hinted = await start(one, { id_token_hint: tokens.access_token });
    const res = await b.get(hinted.url.href);
    expect(res.status).toBe(302);
    const err = new URL(res.location).searchParams;
    expect([err.get("error"), err.get("error_description"), err.get("state")]).toEqual(["invalid_request", "The id_token_hint is not valid.", hinted.state]);

    const out = await b.get(`${server.url}/realms/${realm}/protocol/openid-connect/logout?${new URLSearchParams({ id_token_hint: tokens.access_token })}`);
    expect(out.status).toBe(400);
    expect(out.text).toContain("id=\"error-description\">The id_token_hint is not valid.</p>");
    expect(b.cookies.has("TESSERA_SESSION")).toBe(true);
  });
});
