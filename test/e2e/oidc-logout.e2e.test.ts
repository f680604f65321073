import { decodeJwt } from "jose";
import * as oidc from "openid-client";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, parseForms, type PageResponse } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";
import { BackchannelReceiver } from "./support/backchannel-receiver.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

/**
 * RP-initiated logout (OIDC RP-Initiated Logout 1.0 section 2) and the authorization and logout
 * endpoints' POSTs from another site, which carry no SameSite=Lax cookie (OIDC Core 1.0 section
 * 3.1.2.1), with openid-client as the relying party and a browser driven over HTTP.
 */
for (const target of targets()) describe(`OIDC logout and cross-site requests (${target.mode})`, () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let aliceId: string;
  let directSecret: string;
  const CB = "http://localhost:3997/cb";
  const PASSWORD = "Correct-Horse-9";

  /** The back-channel receiver: the client each logout token came for (its path) and the token's sid. */
  const receiver = new BackchannelReceiver();
  const loggedOut = receiver.received;

  beforeAll(async () => {
    await receiver.start();
    const receiverUrl = receiver.url;
    server = await target.start("oidc-logout");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("logout");
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "app-one", clientType: "PUBLIC", redirectUris: [CB], grantTypes: ["authorization_code", "refresh_token"],
    })).status).toBe(201);
    // A backend logging users in with the password grant: OAuth sessions without an SSO session.
    const direct = await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "app-direct", clientType: "CONFIDENTIAL", redirectUris: [CB], grantTypes: ["password", "refresh_token"],
      backchannelLogoutUri: `${receiverUrl}/app-direct`,
    });
    expect(direct.status).toBe(201);
    directSecret = direct.body.secret;
    const alice = await api.post(`/admin/realms/${realm}/users`, { username: "alice", email: "alice@example.com", password: PASSWORD });
    expect(alice.status).toBe(201);
    aliceId = alice.body.id;
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    await receiver.stop();
  });

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

  it("ends the password grant's OAuth session its ID token's sid names (no SSO session), without a cookie", async () => {
    const tokenUrl = `${server.url}/realms/${realm}/protocol/openid-connect/token`;
    const direct = (path: string, form: Record<string, string>) =>
      http("POST", `${tokenUrl}${path}`, { form: { client_id: "app-direct", client_secret: directSecret, ...form } });
    const pg = await direct("", { grant_type: "password", username: "alice", password: PASSWORD, scope: "openid" });
    expect(pg.status).toBe(200);
    // Its tokens' sid is the refresh family's id (no SSO session exists to name).
    const sid = decodeJwt(pg.body.id_token).sid as string;
    const listed = async () => ((await api.get(`/admin/realms/${realm}/users/${aliceId}/sessions`)).body as Array<{ id: string }>).filter((x) => x.id === sid);
    expect(await listed()).toEqual([expect.objectContaining({ id: sid, type: "oauth", userId: aliceId, clients: ["app-direct"] })]);

    const out = await http("GET", `${server.url}/realms/${realm}/protocol/openid-connect/logout?${new URLSearchParams({
      id_token_hint: pg.body.id_token, post_logout_redirect_uri: CB, state: "pw",
    })}`);
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe(`${CB}?state=pw`);

    // Over: its refresh token, its access token, the Admin API's listing, and its client is told.
    const refreshed = await direct("", { grant_type: "refresh_token", refresh_token: pg.body.refresh_token });
    expect([refreshed.status, refreshed.body.error]).toEqual([400, "invalid_grant"]);
    const introspected = await direct("/introspect", { token: pg.body.access_token });
    expect([introspected.status, introspected.body]).toEqual([200, { active: false }]);
    expect(await listed()).toEqual([]);
    expect(await eventually(async () => loggedOut.filter((x) => x.sid === sid), (got) => got.length > 0)).toEqual([{ client: "app-direct", sid }]);
    const logouts = await eventually(
      async () => ((await api.get(`/admin/realms/${realm}/events?type=LOGOUT`)).body as Array<{ sessionId: string }>).filter((e) => e.sessionId === sid),
      (got) => got.length > 0);
    expect(logouts).toEqual([expect.objectContaining({ type: "LOGOUT", clientId: "app-direct", userId: aliceId, sessionId: sid, details: expect.objectContaining({ username: "alice" }) })]);
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

  it("refuses a client_id the realm does not know, with or without a redirect (Keycloak's \"Invalid parameter: client_id\")", async () => {
    const b = new BrowserSession(server.url);
    for (const extra of [{}, { post_logout_redirect_uri: "http://localhost:3997/cb" }] as Record<string, string>[]) {
      const out = await b.get(`${server.url}/realms/${realm}/protocol/openid-connect/logout?${new URLSearchParams({ client_id: "no-such-client", ...extra })}`);
      expect(out.status).toBe(400);
      expect(out.location).toBe("");
      expect(out.text).toContain("id=\"error-description\">Invalid parameter: client_id</p>");
    }
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
