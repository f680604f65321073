import { TestClock } from "../../kit/src/store/store-contract-kit.js";
import { DEVICE_GRANT } from "./domain/device-authorization.js";
import { FLOWS_REALM, OAuthFlowsWorld, expectOAuthError, worldCalls } from "./oauth-flows-test-kit.js";

// Tokens die when their client or user goes away (RFC 6749 sections 6 and 10.4, RFC 7662 section
// 2.2): the directory's client and user events end the sessions and revoke by issue time the access
// tokens no session holds, in-process (oauth-flows-test-kit.ts).
describe("OAuth tokens of a deleted or disabled client or user, in-process", () => {
  const clock = new TestClock();
  const realm = FLOWS_REALM;
  let w: OAuthFlowsWorld;
  beforeAll(async () => {
    w = await OAuthFlowsWorld.build(clock);
  }, 60_000);
  afterAll(() => w.close());

  const { parts, token, introspect } = worldCalls(() => w);
  const baseUrl = "http://localhost:8080";

  async function newClient(clientId: string, grantTypes: string[]): Promise<{ clientId: string; clientSecret: string }> {
    const created = await w.clients.createClient({ realm, client: { clientId, grantTypes, grantTypesPresent: true } });
    return { clientId, clientSecret: created.client!.secret! };
  }
  async function newUser(username: string): Promise<string> {
    return (await w.users.createUser({ realm, user: { username, password: "correct-horse-9" } })).user!.id;
  }
  const password = (client: { clientId: string; clientSecret: string }, username: string, scope = "openid") =>
    token({ client, grantType: "password", username, password: "correct-horse-9", scope });
  const refresh = (client: { clientId: string; clientSecret: string }, refreshToken: string) => token({ client, grantType: "refresh_token", refreshToken });
  const userinfo = (accessToken: string) => w.oauth.userInfo({ realm, baseUrl, accessToken });
  /** Bus consumers run after the admin call returns: wait for what they do. */
  async function eventually(check: () => Promise<boolean>): Promise<void> {
    const until = Date.now() + 5000;
    while (!(await check()) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  }
  const inactive = (accessToken: string) => eventually(async () => (await introspect(accessToken)).active === false);
  /** The events of a change and the tokens after it never share a millisecond of the test clock. */
  const tick = () => clock.advance(1);

  it("ends a deleted client's tokens and sessions, and a client re-created under its clientId cannot use them", async () => {
    const userId = await newUser("dora");
    const s1 = await newClient("tmpc", ["password", "refresh_token"]);
    const offline = await password(s1, "dora", "openid offline_access");
    const online = await password(s1, "dora");
    expect(await introspect(offline.accessToken)).toMatchObject({ active: true, client_id: "tmpc" });
    expect((await w.sessionsAdmin.listUserSessions({ realm, userId })).sessions.map((s) => s.clients)).toEqual([["tmpc"]]);
    expect((await w.sessionsAdmin.listOfflineSessions({ realm, userId })).sessions.map((s) => s.clients)).toEqual([["tmpc"]]);

    await w.clients.deleteClient({ realm, clientId: "tmpc" });
    // Its access tokens are inactive at once (their client is gone); its sessions end once the
    // token service has handled the deletion's event.
    await eventually(async () => (await w.sessionsAdmin.listUserSessions({ realm, userId })).sessions.length === 0
      && (await w.sessionsAdmin.listOfflineSessions({ realm, userId })).sessions.length === 0);
    expect(await introspect(online.accessToken)).toEqual({ active: false });
    expect(await introspect(offline.accessToken)).toEqual({ active: false });
    expect(await introspect(offline.refreshToken)).toEqual({ active: false });
    expect((await w.sessionsAdmin.listUserSessions({ realm, userId })).sessions).toEqual([]);
    expect((await w.sessionsAdmin.listOfflineSessions({ realm, userId })).sessions).toEqual([]);
    await expectOAuthError(userinfo(online.accessToken), "invalid_token");

    tick();
    const s2 = await newClient("tmpc", ["password", "refresh_token"]);
    await expectOAuthError(refresh(s2, offline.refreshToken), "invalid_grant");
    await expectOAuthError(refresh(s2, online.refreshToken), "invalid_grant");
    const fresh = await password(s2, "dora");
    expect(await introspect(fresh.accessToken)).toMatchObject({ active: true, client_id: "tmpc" });
    expect(await introspect(online.accessToken)).toEqual({ active: false });
  });

  it("binds a refresh token to the client, not its clientId: a re-created client is refused before the deletion is handled", async () => {
    await newUser("rita");
    const s1 = await newClient("tmpd", ["password", "refresh_token"]);
    const issued = await password(s1, "rita", "openid offline_access");
    const familyId = issued.refreshToken.split(".")[0]!;
    // The token service's consumers stop, as if the deletion's event were delayed.
    await w.oauthModule.stop();
    try {
      await w.clients.deleteClient({ realm, clientId: "tmpd" });
      const s2 = await newClient("tmpd", ["password", "refresh_token"]);
      await expectOAuthError(refresh(s2, issued.refreshToken), "invalid_grant");
      expect(await parts().familyRepo.get(w.realmId, familyId)).not.toBeNull();
    } finally {
      await w.oauthModule.start();
    }
    await eventually(async () => (await parts().familyRepo.get(w.realmId, familyId)) === null);
    expect(await parts().familyRepo.get(w.realmId, familyId)).toBeNull();
  });

  it("binds a device code to the client, not its clientId: a client re-created under it cannot redeem the approved code", async () => {
    const grants = [DEVICE_GRANT, "refresh_token"];
    const s1 = await newClient("tmpe", grants);
    const started = await w.oauth.authorizeDevice({ realm, baseUrl, client: s1, scope: "openid" });
    const pending = await parts().devices.findPendingByUserCode(w.realmId, started.userCode.replace("-", ""));
    await parts().devices.decide(pending!._id, { status: "approved", userId: w.userId, ssoSessionId: await w.newSession(), authTime: clock.now(), amr: ["pwd"] });
    await w.clients.deleteClient({ realm, clientId: "tmpe" });
    const s2 = await newClient("tmpe", grants);
    await expectOAuthError(token({ client: s2, grantType: DEVICE_GRANT, deviceCode: started.deviceCode }), "invalid_grant");
  });

  it("makes a disabled client's tokens inactive and ends its sessions; re-enabled, new tokens are active and the old stay inactive", async () => {
    await newUser("ivan");
    const c = await newClient("dis", ["password", "refresh_token", "client_credentials"]);
    const cc = await token({ client: c, grantType: "client_credentials" });
    const user = await password(c, "ivan");
    expect(await introspect(cc.accessToken)).toMatchObject({ active: true });
    expect(await introspect(user.accessToken)).toMatchObject({ active: true });

    await w.clients.updateClient({ realm, clientId: "dis", update: { enabled: false } });
    await inactive(cc.accessToken);
    expect(await introspect(cc.accessToken)).toEqual({ active: false });
    expect(await introspect(user.accessToken)).toEqual({ active: false });
    await expectOAuthError(userinfo(user.accessToken), "invalid_token");
    // A disabled client authenticates nobody (RFC 6749 section 5.2).
    await expectOAuthError(refresh(c, user.refreshToken), "invalid_client");

    tick();
    await w.clients.updateClient({ realm, clientId: "dis", update: { enabled: true } });
    await expectOAuthError(refresh(c, user.refreshToken), "invalid_grant");
    const cc2 = await token({ client: c, grantType: "client_credentials" });
    const user2 = await password(c, "ivan");
    expect(await introspect(cc2.accessToken)).toMatchObject({ active: true, client_id: "dis" });
    expect(await introspect(user2.accessToken)).toMatchObject({ active: true, client_id: "dis" });
    expect((await userinfo(user2.accessToken)).claims).toMatchObject({ sub: (await introspect(user2.accessToken)).sub });
    expect(await introspect(cc.accessToken)).toEqual({ active: false });
    expect(await introspect(user.accessToken)).toEqual({ active: false });
  });

  it("refuses a disabled client's tokens at userinfo and introspection before its sessions end, as Keycloak checks the client", async () => {
    const userId = await newUser("otto");
    const c = await newClient("dis2", ["password", "refresh_token"]);
    const user = await password(c, "otto");
    expect((await userinfo(user.accessToken)).claims).toMatchObject({ sub: userId });
    // The token service's consumers stop, as if the event that ends the client's sessions were
    // delayed; its caches still hear of the change.
    await w.oauthModule.stop();
    try {
      await w.clients.updateClient({ realm, clientId: "dis2", update: { enabled: false } });
      await inactive(user.accessToken);
      expect((await w.sessionsAdmin.listUserSessions({ realm, userId })).sessions.map((s) => s.clients)).toEqual([["dis2"]]);
      await expectOAuthError(userinfo(user.accessToken), "invalid_token");
      expect(await introspect(user.accessToken)).toEqual({ active: false });
      expect(await introspect(user.refreshToken)).toEqual({ active: false });
    } finally {
      await w.oauthModule.start();
    }
    await eventually(async () => (await w.sessionsAdmin.listUserSessions({ realm, userId })).sessions.length === 0);
    expect((await w.sessionsAdmin.listUserSessions({ realm, userId })).sessions).toEqual([]);
  });

  it("revoke-all ends the online session's access token and keeps the offline session's, as it keeps the session (spec 4.7)", async () => {
    const userId = await newUser("lena");
    const c = await newClient("both-lena", ["password", "refresh_token"]);
    const online = await password(c, "lena");
    const offline = await password(c, "lena", "openid offline_access");
    tick();
    expect((await w.sessionsAdmin.revokeUserSessions({ realm, userId })).count).toBe(1);
    await inactive(online.accessToken);
    expect(await introspect(offline.accessToken)).toMatchObject({ active: true, sub: userId });
    expect((await refresh(c, offline.refreshToken)).accessToken).toBeTruthy();
  });

  const userChanges: Array<[string, string, (userId: string) => Promise<unknown>]> = [
    ["is disabled", "gina", (userId) => w.users.updateUser({ realm, userId, update: { enabled: false } })],
    ["is deleted", "hank", (userId) => w.users.deleteUser({ realm, userId })],
    ["has the password reset", "jane", (userId) => w.users.resetPassword({ realm, userId, password: "another-horse-7", temporary: false })],
    ["has every session revoked", "kurt", (userId) => w.sessionsAdmin.revokeUserSessions({ realm, userId })],
  ];

  it.each(userChanges)("ends the access tokens no session holds when the user %s (%s)", async (_what, username, change) => {
    const userId = await newUser(username);
    const c = await newClient(`nodev-${username}`, ["password"]);
    const res = await password(c, username);
    expect(res.refreshToken).toBe("");
    expect(await introspect(res.accessToken)).toMatchObject({ active: true, sub: userId });
    expect(await introspect(res.accessToken)).not.toHaveProperty("fid");
    expect(await introspect(res.accessToken)).not.toHaveProperty("sid");
    expect((await userinfo(res.accessToken)).claims).toMatchObject({ sub: userId });

    tick();
    await change(userId);
    await inactive(res.accessToken);
    expect(await introspect(res.accessToken)).toEqual({ active: false });
    await expectOAuthError(userinfo(res.accessToken), "invalid_token");
  });

  it("ends a client's client_credentials tokens when it loses the grant (its service-account user goes)", async () => {
    const c = await newClient("svc-off", ["client_credentials", "password"]);
    const cc = await token({ client: c, grantType: "client_credentials" });
    expect(await introspect(cc.accessToken)).toMatchObject({ active: true, client_id: "svc-off" });
    tick();
    await w.clients.updateClient({ realm, clientId: "svc-off", update: { grantTypes: ["password"], grantTypesPresent: true } });
    await inactive(cc.accessToken);
    expect(await introspect(cc.accessToken)).toEqual({ active: false });
  });

  it("ends a service account's client_credentials tokens when its user is disabled; re-enabled, only new ones are active", async () => {
    const c = await newClient("svc", ["client_credentials"]);
    const sa = (await w.clients.getServiceAccountUser({ realm, clientId: "svc" })).user!;
    // Within one second of the test clock: iat cannot tell these tokens apart, their jti can.
    clock.t = Math.ceil(clock.t / 1000) * 1000 + 100;
    const before = await token({ client: c, grantType: "client_credentials" });
    expect(await introspect(before.accessToken)).toMatchObject({ active: true, sub: sa.id });

    tick();
    await w.users.updateUser({ realm, userId: sa.id, update: { enabled: false } });
    await inactive(before.accessToken);
    expect(await introspect(before.accessToken)).toEqual({ active: false });
    await expectOAuthError(token({ client: c, grantType: "client_credentials" }), "unauthorized_client");

    tick();
    await w.users.updateUser({ realm, userId: sa.id, update: { enabled: true } });
    const after = await token({ client: c, grantType: "client_credentials" });
    const [a, b] = [await introspect(after.accessToken), await introspect(before.accessToken)];
    expect(a).toMatchObject({ active: true, sub: sa.id, iat: Math.floor(clock.now() / 1000) });
    expect(b).toEqual({ active: false });
    expect(clock.now() % 1000).toBe(102);
  });
});
