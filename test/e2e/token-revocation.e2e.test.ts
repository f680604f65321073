import { decodeJwt } from "jose";
import { adminApi, http, uniqueName, type HttpResult } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";
import { BackchannelReceiver } from "./support/backchannel-receiver.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Tokens die when their client or user goes away: the audit's reproductions over HTTP. A deleted
// or disabled client's tokens and sessions end and a client re-created under its clientId cannot
// use them (RFC 6749 sections 6 and 10.4); access tokens no session holds (password grant without
// refresh tokens, client_credentials) end with their user (RFC 7662 section 2.2 `active`).
describe.each(targets())("token revocation with the client or user ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let conf: string;
  const PASSWORD = "Revoke-pass-1";
  const issuer = () => `${server.url}/realms/${realm}`;
  const endpoint = (p: string) => `${issuer()}/protocol/openid-connect/${p}`;
  const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}` });
  const tokenAs = (id: string, secret: string, form: Record<string, string>) => http("POST", endpoint("token"), { form, headers: basic(id, secret) });
  const passwordGrant = (id: string, secret: string, username: string, scope = "openid") =>
    tokenAs(id, secret, { grant_type: "password", username, password: PASSWORD, scope });
  /** Introspection by the confidential resource server "conf" (RFC 7662 section 2.1). */
  const introspect = async (token: string) => (await http("POST", endpoint("token/introspect"), { form: { token }, headers: basic("conf", conf) })).body as Record<string, unknown>;
  const userinfo = (token: string) => http("GET", endpoint("userinfo"), { headers: { authorization: `Bearer ${token}` } });
  /** The token service acts on the directory's events after the admin call returns. */
  const inactive = (token: string) => eventually(() => introspect(token), (b) => b.active === false);
  const newClient = async (clientId: string, grantTypes: string[]) => {
    const res = await api.post(`/admin/realms/${realm}/clients`, { clientId, grantTypes });
    expect(res.status).toBe(201);
    return res.body.secret as string;
  };
  const newUser = async (username: string) => {
    const res = await api.post(`/admin/realms/${realm}/users`, { username, password: PASSWORD });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const expectInvalidToken = (res: HttpResult) => {
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("invalid_token");
    expect(res.headers.get("www-authenticate")).toMatch(new RegExp(`^Bearer realm="${realm}", error="invalid_token"`));
  };

  beforeAll(async () => {
    server = await target.start("token-revocation");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("revoke");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    conf = await newClient("conf", ["client_credentials"]);
  }, 90_000);
  afterAll(async () => server?.stop());
  const CB = "http://localhost:3998/cb";
  const { rp, start, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm }), CB, PASSWORD).calls();

  it("ends a deleted client's tokens and sessions; a client re-created under its clientId cannot refresh them", async () => {
    const userId = await newUser("alice");
    const s1 = await newClient("tmpc", ["password", "refresh_token"]);
    const offline = await passwordGrant("tmpc", s1, "alice", "openid offline_access");
    const online = await passwordGrant("tmpc", s1, "alice");
    expect([offline.status, online.status]).toEqual([200, 200]);
    expect(await introspect(offline.body.access_token)).toMatchObject({ active: true, client_id: "tmpc" });
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/sessions`)).body).toMatchObject([{ type: "oauth", clients: ["tmpc"] }]);
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/offline-sessions`)).body).toMatchObject([{ clients: ["tmpc"] }]);

    expect((await api.del(`/admin/realms/${realm}/clients/tmpc`)).status).toBe(204);
    expect(await inactive(offline.body.access_token)).toEqual({ active: false });
    // Its access tokens are inactive as soon as the client is known gone; its sessions, refresh
    // tokens and userinfo once the token service has handled the deletion's event.
    const sessionsOf = async () => [(await api.get(`/admin/realms/${realm}/users/${userId}/sessions`)).body, (await api.get(`/admin/realms/${realm}/users/${userId}/offline-sessions`)).body];
    expect(await eventually(sessionsOf, ([live, kept]) => live.length === 0 && kept.length === 0)).toEqual([[], []]);
    expect(await introspect(online.body.access_token)).toEqual({ active: false });
    expect(await introspect(offline.body.refresh_token)).toEqual({ active: false });
    expectInvalidToken(await userinfo(online.body.access_token));
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/sessions`)).body).toEqual([]);
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/offline-sessions`)).body).toEqual([]);

    const s2 = await newClient("tmpc", ["password", "refresh_token"]);
    // Until the deletion reaches every replica's client cache the new secret may still be refused.
    const refreshed = await eventually(() => tokenAs("tmpc", s2, { grant_type: "refresh_token", refresh_token: offline.body.refresh_token }), (r) => r.status !== 401);
    expect([refreshed.status, refreshed.body.error]).toEqual([400, "invalid_grant"]);
    const fresh = await passwordGrant("tmpc", s2, "alice");
    expect(fresh.status).toBe(200);
    expect(await introspect(fresh.body.access_token)).toMatchObject({ active: true, client_id: "tmpc" });
  });

  it("makes a disabled client's tokens inactive; re-enabled, its new tokens are active and the old stay inactive", async () => {
    await newUser("bob");
    const secret = await newClient("svc", ["client_credentials", "password"]);
    const cc = await tokenAs("svc", secret, { grant_type: "client_credentials" });
    const user = await passwordGrant("svc", secret, "bob");
    expect(await introspect(cc.body.access_token)).toMatchObject({ active: true, client_id: "svc" });
    expect(await introspect(user.body.access_token)).toMatchObject({ active: true, client_id: "svc" });

    expect((await api.put(`/admin/realms/${realm}/clients/svc`, { enabled: false })).status).toBe(200);
    expect(await inactive(cc.body.access_token)).toEqual({ active: false });
    expect(await introspect(user.body.access_token)).toEqual({ active: false });
    // Introspection refuses a disabled client's tokens as soon as it hears of the change; userinfo
    // once the token service has ended them.
    expectInvalidToken(await eventually(() => userinfo(user.body.access_token), (r) => r.status === 401));
    const refused = await eventually(() => tokenAs("svc", secret, { grant_type: "client_credentials" }), (r) => r.status === 401);
    expect([refused.status, refused.body.error]).toEqual([401, "invalid_client"]);

    expect((await api.put(`/admin/realms/${realm}/clients/svc`, { enabled: true })).status).toBe(200);
    const cc2 = await eventually(() => tokenAs("svc", secret, { grant_type: "client_credentials" }), (r) => r.status === 200);
    const user2 = await passwordGrant("svc", secret, "bob");
    expect(await introspect(cc2.body.access_token)).toMatchObject({ active: true, client_id: "svc" });
    expect(await introspect(user2.body.access_token)).toMatchObject({ active: true, client_id: "svc" });
    expect((await userinfo(user2.body.access_token)).status).toBe(200);
    expect(await introspect(cc.body.access_token)).toEqual({ active: false });
    expect(await introspect(user.body.access_token)).toEqual({ active: false });
  });

  it("ends a user's access tokens without fid or sid when the user is disabled, has the password reset or is deleted", async () => {
    const gina = await newUser("gina");
    const secret = await newClient("nodev", ["password"]);
    const grant = async () => {
      const res = await passwordGrant("nodev", secret, "gina");
      expect(res.status).toBe(200);
      expect(res.body.refresh_token).toBeUndefined();
      const claims = await introspect(res.body.access_token);
      expect(claims).toMatchObject({ active: true, sub: gina });
      expect([claims.fid, claims.sid]).toEqual([undefined, undefined]);
      expect((await userinfo(res.body.access_token)).status).toBe(200);
      return res.body.access_token as string;
    };

    const first = await grant();
    expect((await api.put(`/admin/realms/${realm}/users/${gina}`, { enabled: false })).status).toBe(200);
    expect(await inactive(first)).toEqual({ active: false });
    expectInvalidToken(await userinfo(first));
    expect((await api.put(`/admin/realms/${realm}/users/${gina}`, { enabled: true })).status).toBe(200);

    const second = await grant();
    expect(await introspect(first)).toEqual({ active: false });
    expect((await api.put(`/admin/realms/${realm}/users/${gina}/reset-password`, { password: PASSWORD })).status).toBe(204);
    expect(await inactive(second)).toEqual({ active: false });
    expectInvalidToken(await userinfo(second));

    const third = await grant();
    expect((await api.del(`/admin/realms/${realm}/users/${gina}/sessions`)).body).toEqual({ count: 0 });
    expect(await introspect(third)).toEqual({ active: false });

    const fourth = await grant();
    expect((await api.del(`/admin/realms/${realm}/users/${gina}`)).status).toBe(204);
    expect(await inactive(fourth)).toEqual({ active: false });
    expectInvalidToken(await userinfo(fourth));
  });

  it("ends a service account's client_credentials token when its user is disabled", async () => {
    const secret = await newClient("robot", ["client_credentials"]);
    const sa = (await api.get(`/admin/realms/${realm}/clients/robot/service-account-user`)).body;
    const cc = await tokenAs("robot", secret, { grant_type: "client_credentials", scope: "openid" });
    expect(await introspect(cc.body.access_token)).toMatchObject({ active: true, sub: sa.id });
    expect((await userinfo(cc.body.access_token)).status).toBe(200);
    expect((await api.put(`/admin/realms/${realm}/users/${sa.id}`, { enabled: false })).status).toBe(200);
    expect(await inactive(cc.body.access_token)).toEqual({ active: false });
    expectInvalidToken(await userinfo(cc.body.access_token));
  });

  it("drops a deleted client's consents: a client re-created under its clientId is asked again", async () => {
    await newUser("carol");
    const createAsker = async () => expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "asker", name: "Asker", clientType: "PUBLIC", redirectUris: [CB], grantTypes: ["authorization_code"], requireConsent: true,
    })).status).toBe(201);
    await createAsker();
    const b = new BrowserSession(server.url);
    const asker = await rp("asker");
    const s = await start(asker);
    const consent = await login(b, await b.get(s.url.href), "carol");
    expect(consent.text).toContain("<strong>Asker</strong> wants to access your account (carol).");
    expect((await redeem(asker, s, await b.submit(consent, { decision: "approve" }))).access_token).toBeTruthy();
    /** prompt=none on carol's SSO session: "code" once she consented, else the error the redirect carries. */
    const silently = async () => {
      const res = await b.get((await start(asker, { prompt: "none" })).url.href);
      if (res.status !== 302) return `HTTP ${res.status}`;
      const back = new URL(res.location).searchParams;
      return back.get("error") ?? (back.get("code") ? "code" : "nothing");
    };
    expect(await silently()).toBe("code");

    expect((await api.del(`/admin/realms/${realm}/clients/asker`)).status).toBe(204);
    await createAsker();
    // The token service drops the consents on the deletion's event, after the admin call returns.
    expect(await eventually(silently, (r) => r === "consent_required")).toBe("consent_required");
  });

  it("refuses a deleted client's authorization code to a client re-created under its clientId (RFC 6749 section 4.1.3)", async () => {
    await newUser("dave");
    const createCoder = async () => {
      const res = await api.post(`/admin/realms/${realm}/clients`, { clientId: "coder", redirectUris: [CB], grantTypes: ["authorization_code"] });
      expect(res.status).toBe(201);
      return res.body.secret as string;
    };
    await createCoder();
    const b = new BrowserSession(server.url);
    const auth = new URL(endpoint("auth"));
    auth.search = new URLSearchParams({ client_id: "coder", response_type: "code", scope: "openid", redirect_uri: CB, state: "s-1" }).toString();
    const back = await login(b, await b.get(auth.href), "dave");
    expect(back.status).toBe(302);
    const code = new URL(back.location).searchParams.get("code")!;

    expect((await api.del(`/admin/realms/${realm}/clients/coder`)).status).toBe(204);
    const secret = await createCoder();
    // Until the token service's client cache has the new client its secret is refused; the probe spends no real code.
    const probe = await eventually(() => tokenAs("coder", secret, { grant_type: "authorization_code", code: "not-a-code", redirect_uri: CB }), (r) => r.status !== 401);
    expect([probe.status, probe.body.error]).toEqual([400, "invalid_grant"]);
    const res = await tokenAs("coder", secret, { grant_type: "authorization_code", code, redirect_uri: CB });
    expect([res.status, res.body]).toEqual([400, { error: "invalid_grant", error_description: "authorization code was issued to another client" }]);
  });
  /**
   * Two PUBLIC clients used in one SSO session of `username` through the login page (the second
   * without a login), each with a back-channel logout URI on the receiver; returns the session.
   */
  async function ssoSessionWithTwoClients(username: string, keep: string, gone: string): Promise<{ userId: string; sid: string }> {
    const userId = await newUser(username);
    for (const clientId of [keep, gone]) {
      expect((await api.post(`/admin/realms/${realm}/clients`, {
        clientId, clientType: "PUBLIC", redirectUris: [CB], grantTypes: ["authorization_code"], backchannelLogoutUri: `${receiverUrl}/${clientId}`,
      })).status).toBe(201);
    }
    const b = new BrowserSession(server.url);
    const first = await rp(keep);
    const s1 = await start(first);
    await redeem(first, s1, await login(b, await b.get(s1.url.href), username));
    const second = await rp(gone);
    const s2 = await start(second);
    const tokens = await redeem(second, s2, await b.get(s2.url.href));
    return { userId, sid: decodeJwt(tokens.id_token!).sid as string };
  }

  /** The back-channel receiver: the client each logout token came for (its path) and the token's sid. */
  const receiver = new BackchannelReceiver();
  const loggedOut = receiver.received;
  let receiverUrl: string;
  beforeAll(async () => {
    await receiver.start();
    receiverUrl = receiver.url;
  });
  afterAll(() => receiver.stop());

  const ssoView = (userId: string, username: string, sid: string, clients: string[]) => ({
    id: sid, type: "sso", userId, username, ipAddress: expect.any(String), start: expect.any(String), lastAccess: expect.any(String),
    expires: expect.any(String), clients, scope: "", ssoSessionId: sid,
  });

  it("drops a deleted client from the SSO sessions it used: the user and realm session listings no longer name it (spec 4.7)", async () => {
    const { userId, sid } = await ssoSessionWithTwoClients("erin", "lister", "dropped");
    const listUser = () => api.get(`/admin/realms/${realm}/users/${userId}/sessions`);
    const listed = await listUser();
    expect([listed.status, listed.body]).toEqual([200, [ssoView(userId, "erin", sid, ["lister", "dropped"])]]);

    expect((await api.del(`/admin/realms/${realm}/clients/dropped`)).status).toBe(204);
    // The token service acts on the deletion's event after the admin call returns.
    const after = await eventually(listUser, (r) => r.body[0]?.clients?.length !== 2);
    expect([after.status, after.body]).toEqual([200, [ssoView(userId, "erin", sid, ["lister"])]]);
    const inRealm = await api.get(`/admin/realms/${realm}/sessions`);
    expect(inRealm.status).toBe(200);
    expect(inRealm.body.filter((x: { userId: string }) => x.userId === userId)).toEqual([ssoView(userId, "erin", sid, ["lister"])]);
  });

  it("sends no back-channel logout for a deleted client, nor to a client re-created under its clientId", async () => {
    const { userId, sid } = await ssoSessionWithTwoClients("fred", "stays", "recreated");
    expect((await api.del(`/admin/realms/${realm}/clients/recreated`)).status).toBe(204);
    const listUser = () => api.get(`/admin/realms/${realm}/users/${userId}/sessions`);
    expect((await eventually(listUser, (r) => r.body[0]?.clients?.length !== 2)).body).toEqual([ssoView(userId, "fred", sid, ["stays"])]);
    // Created again with a back-channel URI: it never took part in fred's session.
    expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "recreated", clientType: "PUBLIC", redirectUris: [CB], grantTypes: ["authorization_code"], backchannelLogoutUri: `${receiverUrl}/recreated`,
    })).status).toBe(201);

    const revoked = await api.del(`/admin/realms/${realm}/sessions/${sid}?type=sso`);
    expect([revoked.status, revoked.body]).toEqual([200, { revoked: true, sessionId: sid, type: "sso" }]);
    const mine = () => loggedOut.filter((x) => x.sid === sid);
    await eventually(async () => mine(), (got) => got.length > 0);
    // Both deliveries would start together; give a wrong one time to arrive.
    await new Promise((r) => setTimeout(r, 500));
    expect(mine()).toEqual([{ client: "stays", sid }]);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
