import { createHash } from "node:crypto";
import { http, recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";
import { eventually, targets } from "./support/targets.js";
import { BrowserSession } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";
import { BrokeringWorld, PASSWORD, expectErrorPage } from "./support/brokering-world.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

/**
 * Keycloak's client-initiated account linking from the account console (docs/account-console.md,
 * docs/identity-brokering.md): the account API's link URI, the browser opening it with the
 * console's SSO cookie, panva's oidc-provider as the upstream, and the link at the callback.
 */
for (const target of targets()) describe(`account linking (${target.mode})`, () => {
  const w = new BrokeringWorld(target, "account-linking");
  beforeAll(() => w.setUp(), 90_000);
  afterAll(async () => {
    await w.tearDown();
    expectResponsesDocumented(recorded);
  });

  const consoleUrl = () => `${w.server.url}/realms/${w.realm}/account/`;
  const hashOf = (nonce: string, sid: string, clientId: string, alias: string) =>
    createHash("sha256").update(nonce + sid + clientId + alias).digest("base64url");
  const linkUri = (alias: string, q: Record<string, string>) =>
    `${w.server.url}/realms/${w.realm}/broker/${alias}/link?${new URLSearchParams(q).toString()}`;

  /** A local user with a password, signed in to the account console in a browser of its own. */
  async function consoleUser(username: string) {
    const made = await w.api.post(`/admin/realms/${w.realm}/users`, { username, password: PASSWORD });
    expect(made.status).toBe(201);
    const b = new BrowserSession(w.server.url);
    const { rp, start, login, redeem } = new OidcRp(() => ({ serverUrl: w.server.url, realm: w.realm }), consoleUrl(), PASSWORD).calls();
    const config = await rp("account-console");
    const s = await start(config, { scope: "openid" });
    const tokens = await redeem(config, s, await login(b, await b.get(s.url.href), username, PASSWORD));
    const account = (method: string, path: string) =>
      http(method, `${w.server.url}/realms/${w.realm}/account${path}`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    return { id: made.body.id as string, b, sid: String(tokens.claims()!.sid), account };
  }

  /** Opens the link URI in `b`, signs in upstream as `upstreamAccount`, and answers Tessera's reply to the callback. */
  async function linkThrough(b: BrowserSession, uri: string, upstreamAccount: string) {
    const out = await b.get(uri);
    expect(out.status).toBe(302);
    expect(out.location.startsWith(`${w.op.url}/auth?`)).toBe(true);
    w.op.nextLogin = upstreamAccount;
    return b.get(await w.throughUpstream(out.location));
  }

  it("answers the link URI for the token's session, links through the upstream, and lists the link", async () => {
    const lena = await consoleUser("lena");
    w.op.accounts.set("u-lena", { sub: "u-lena", preferred_username: "lena.up", email: "lena@upstream.example", email_verified: true });
    const res = await lena.account("GET", `/linked-accounts/up?providerId=up&redirectUri=${encodeURIComponent(consoleUrl())}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { nonce, hash, accountLinkUri } = res.body as { nonce: string; hash: string; accountLinkUri: string };
    expect(nonce).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(hash).toBe(hashOf(nonce, lena.sid, "account-console", "up"));
    expect(accountLinkUri).toBe(linkUri("up", { client_id: "account-console", redirect_uri: consoleUrl(), nonce, hash }));

    const back = await linkThrough(lena.b, accountLinkUri, "u-lena");
    // As Keycloak's legacy link: back to redirect_uri as it is, no parameter added.
    expect([back.status, back.location]).toEqual([302, consoleUrl()]);

    const listed = await lena.account("GET", "/linked-accounts");
    expect([listed.status, listed.body]).toEqual([200, [{ identityProvider: "up", userName: "lena.up", createdAt: expect.any(String) }]]);
    const admin = await w.api.get(`/admin/realms/${w.realm}/users/${lena.id}/federated-identity`);
    expect([admin.status, admin.body]).toEqual([200, [{ identityProvider: "up", userId: "u-lena", userName: "lena.up", createdAt: expect.any(String) }]]);
    // The link adds no user: the upstream account signs in as lena from now on.
    expect((await w.api.get(`/admin/realms/${w.realm}/users?username=lena.up`)).body.users).toEqual([]);

    const events = await eventually(
      () => w.api.get(`/admin/realms/${w.realm}/events?userId=${lena.id}`),
      (r) => Array.isArray(r.body) && r.body.some((e: { type: string }) => e.type === "FEDERATED_IDENTITY_LINK"),
    );
    expect(events.body.find((e: { type: string }) => e.type === "CLIENT_INITIATED_ACCOUNT_LINKING")).toMatchObject({
      clientId: "account-console", sessionId: lena.sid, details: { identity_provider: "up", redirect_uri: consoleUrl() },
    });
    expect(events.body.find((e: { type: string }) => e.type === "FEDERATED_IDENTITY_LINK")).toMatchObject({
      clientId: "account-console", sessionId: lena.sid, userId: lena.id,
      details: { identity_provider: "up", identity_provider_identity: "lena.up", redirect_uri: consoleUrl() },
    });

    // Linked now: the API refuses another link to the same provider.
    const again = await lena.account("GET", `/linked-accounts/up?redirectUri=${encodeURIComponent(consoleUrl())}`);
    expect([again.status, again.body]).toEqual([409, { error: "already_linked", message: "the account is already linked to identity provider \"up\"", field: "alias" }]);

    // A link URI made without the API (its hash is right) for a second upstream account of the same provider: refused at the callback.
    w.op.accounts.set("u-lena-2", { sub: "u-lena-2", preferred_username: "lena.two" });
    const n2 = "second-nonce";
    const second = await linkThrough(lena.b, linkUri("up", { client_id: "account-console", redirect_uri: consoleUrl(), nonce: n2, hash: hashOf(n2, lena.sid, "account-console", "up") }), "u-lena-2");
    expect([second.status, second.location]).toEqual([302, `${consoleUrl()}?link_error=already_linked&nonce=${n2}`]);
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${lena.id}/federated-identity`)).body.map((l: { userId: string }) => l.userId)).toEqual(["u-lena"]);
  });

  it("lists the providers that may be linked, and refuses a link URI for an unknown provider, without or with a foreign redirectUri", async () => {
    const max = await consoleUser("max");
    const providers = await max.account("GET", "/identity-providers");
    expect([providers.status, providers.body]).toEqual([200, [{ alias: "up", displayName: "Upstream" }]]);
    const at = (alias: string, redirectUri?: string) => max.account("GET", `/linked-accounts/${alias}${redirectUri === undefined ? "" : `?redirectUri=${encodeURIComponent(redirectUri)}`}`);
    const unknown = await at("nope", consoleUrl());
    expect([unknown.status, unknown.body]).toEqual([404, { error: "identity_provider_not_found", message: "identity provider \"nope\" not found" }]);
    const missing = await at("up");
    expect([missing.status, missing.body]).toEqual([400, { error: "invalid_request", message: "redirectUri is required", field: "redirectUri" }]);
    const foreign = await at("up", "https://evil.example/cb");
    expect([foreign.status, foreign.body]).toEqual([400, { error: "invalid_redirect_uri", message: "redirectUri is not a redirect URI registered for account-console", field: "redirectUri" }]);
    const none = await http("GET", `${w.server.url}/realms/${w.realm}/account/linked-accounts/up?redirectUri=${encodeURIComponent(consoleUrl())}`);
    expect([none.status, none.body]).toEqual([401, { error: "unauthorized", message: "missing credentials: send Authorization: Bearer <access token of account-console>" }]);
  });

  it("sends the browser back with link_error when the upstream account belongs to another user", async () => {
    w.op.accounts.set("u-taken", { sub: "u-taken", preferred_username: "taken" });
    const first = await w.loginAs("u-taken");
    expect(first.back.status).toBe(302);
    const owner = await w.userByName("taken");
    const nia = await consoleUser("nia");
    const { body } = await nia.account("GET", `/linked-accounts/up?redirectUri=${encodeURIComponent(consoleUrl())}`);
    const back = await linkThrough(nia.b, body.accountLinkUri, "u-taken");
    expect([back.status, back.location]).toEqual([302, `${consoleUrl()}?link_error=federated_identity_exists&nonce=${body.nonce}`]);
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${nia.id}/federated-identity`)).body).toEqual([]);
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${owner!.id}/federated-identity`)).body.map((l: { userId: string }) => l.userId)).toEqual(["u-taken"]);
    const events = await eventually(
      () => w.api.get(`/admin/realms/${w.realm}/events?userId=${nia.id}`),
      (r) => Array.isArray(r.body) && r.body.some((e: { type: string }) => e.type === "FEDERATED_IDENTITY_LINK_ERROR"),
    );
    expect(events.body.find((e: { type: string }) => e.type === "FEDERATED_IDENTITY_LINK_ERROR")).toMatchObject({
      clientId: "account-console", sessionId: nia.sid, error: "federated_identity_exists", details: { identity_provider: "up" },
    });
  });

  it("refuses a bad hash, a foreign redirect_uri and missing parameters with the error page", async () => {
    const oli = await consoleUser("oli");
    const { body } = await oli.account("GET", `/linked-accounts/up?redirectUri=${encodeURIComponent(consoleUrl())}`);
    const good = { client_id: "account-console", redirect_uri: consoleUrl(), nonce: body.nonce as string, hash: body.hash as string };
    // The hash of another session, another provider, or another client is not this session's.
    expectErrorPage(await oli.b.get(linkUri("up", { ...good, hash: hashOf(good.nonce, "another-session", "account-console", "up") })), 400, "invalid_request");
    expectErrorPage(await oli.b.get(linkUri("up", { ...good, nonce: "other" })), 400, "invalid_request");
    expectErrorPage(await oli.b.get(linkUri("up", { ...good, client_id: "rp", redirect_uri: "http://localhost:3998/cb", hash: hashOf(good.nonce, oli.sid, "rp", "up") })), 400, "invalid_request");
    expectErrorPage(await oli.b.get(linkUri("up", { ...good, redirect_uri: "https://evil.example/cb" })), 400, "invalid_request");
    expectErrorPage(await oli.b.get(linkUri("up", { ...good, client_id: "no-such-client" })), 400, "invalid_request");
    const { hash: _h, ...noHash } = good;
    expectErrorPage(await oli.b.get(linkUri("up", noHash)), 400, "invalid_request");
    // None of them started an upstream login or a link; the good one still works.
    expect((await oli.b.get(linkUri("up", good))).status).toBe(302);
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${oli.id}/federated-identity`)).body).toEqual([]);
  });

  it("sends a browser without the SSO session back with not_logged_in, and an unknown provider with unknown_identity_provider", async () => {
    const pia = await consoleUser("pia");
    const { body } = await pia.account("GET", `/linked-accounts/up?redirectUri=${encodeURIComponent(consoleUrl())}`);
    const stranger = new BrowserSession(w.server.url);
    const out = await stranger.get(body.accountLinkUri);
    expect([out.status, out.location]).toEqual([302, `${consoleUrl()}?link_error=not_logged_in&nonce=${body.nonce}`]);
    const n = "n-unknown";
    const unknown = await pia.b.get(linkUri("nope", { client_id: "account-console", redirect_uri: consoleUrl(), nonce: n, hash: hashOf(n, pia.sid, "account-console", "nope") }));
    expect([unknown.status, unknown.location]).toEqual([302, `${consoleUrl()}?link_error=unknown_identity_provider&nonce=${n}`]);
  });

  it("shows an error page when the session that asked has ended before the callback", async () => {
    const quinn = await consoleUser("quinn");
    w.op.accounts.set("u-quinn", { sub: "u-quinn", preferred_username: "quinn.up" });
    const { body } = await quinn.account("GET", `/linked-accounts/up?redirectUri=${encodeURIComponent(consoleUrl())}`);
    const out = await quinn.b.get(body.accountLinkUri);
    expect(out.status).toBe(302);
    expect((await quinn.account("DELETE", "/sessions")).status).toBe(204);
    w.op.nextLogin = "u-quinn";
    expectErrorPage(await quinn.b.get(await w.throughUpstream(out.location)), 400, "link_session_expired");
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${quinn.id}/federated-identity`)).body).toEqual([]);
  });

  it("keeps the confirm-link page's POST on the same path", async () => {
    const res = await new BrowserSession(w.server.url).post(`${w.server.url}/realms/${w.realm}/broker/up/link`, { pending: "x.y", password: "p" });
    expectErrorPage(res, 400, "invalid_state");
  });
});
