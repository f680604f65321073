import { createHash } from "node:crypto";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { decodeJwt, jwtVerify } from "jose";
import { ScopeKind } from "../../../gen/iam/directory/v1/client_scope_pb.js";
import type { OAuthService } from "../../../gen/iam/token/v1/oauth_pb.js";
import type { SessionAdminService } from "../../../gen/iam/token/v1/sessions_pb.js";
import { TestClock } from "../../kit/src/store/store-contract-kit.js";
import { sha256Hex, randomToken } from "../../kit/src/crypto/random.js";
import type { KeyRing } from "./domain/key-ring.js";
import { CODE_USABLE_MS } from "./domain/authorization-code.js";
import { familyIdOfCode } from "./domain/refresh-family.js";
import { DEVICE_GRANT, FLOWS_REALM, FLOWS_REDIRECT_URI, OAuthFlowsWorld, expectOAuthError, oauthErrorOf, worldCalls } from "./oauth-flows-test-kit.js";

// The grants the browser and password branches feed (authorization_code, refresh_token, device
// code) and offline tokens, in-process (oauth-flows-test-kit.ts): the directory and the token
// service's OAuth half over real Connect routing, sqlite :memory:, the in-memory bus, an
// injectable clock. Logout, back-channel delivery and sessions admin: oauth-logout-sessions.test.ts.
describe("OAuth flows, in-process", () => {
  const clock = new TestClock();
  const realmName = FLOWS_REALM;
  let w: OAuthFlowsWorld;
  let realmId: string;
  let userId: string;
  let keys: KeyRing;
  let oauth: Client<typeof OAuthService>;
  beforeAll(async () => {
    w = await OAuthFlowsWorld.build(clock);
    ({ realmId, userId, keys, oauth } = w);
  }, 60_000);
  afterAll(() => w.close());

  const { parts, webClient, token, exchange, jwks, introspect, newSession, newCode } = worldCalls(() => w);
  const errorOf = oauthErrorOf;
  const redirectUri = FLOWS_REDIRECT_URI;
  const DEVICE = DEVICE_GRANT;
  let codeOnlySecret: string;
  let sessionsAdmin: Client<typeof SessionAdminService>;
  beforeAll(() => {
    ({ codeOnlySecret, sessionsAdmin } = w);
  });

  it("exchanges a code for access, refresh and ID tokens (OIDC Core 3.1.3.3)", async () => {
    const { code, session } = await newCode();
    const res = await exchange(code);
    expect(res.tokenType).toBe("Bearer");
    expect(res.refreshToken).toMatch(/^[0-9a-f-]{36}\.0\.[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}$/);
    expect(res.refreshExpiresIn).toBe(1800);
    expect(res.scope.split(" ").sort()).toEqual(["acr", "basic", "email", "openid", "profile", "roles", "web-origins"]);
    const { payload: id } = await jwtVerify(res.idToken, await jwks(), { issuer: `http://localhost:8080/realms/${realmName}`, audience: "web" });
    expect(id).toMatchObject({ sub: userId, nonce: "n-0S6", sid: session, azp: "web", acr: "1", amr: ["pwd"], typ: "ID", preferred_username: "alice" });
    const hash = createHash("sha256").update(res.accessToken).digest();
    expect(id.at_hash).toBe(hash.subarray(0, 16).toString("base64url"));
    const { payload: at } = await jwtVerify(res.accessToken, await jwks());
    expect(at).toMatchObject({ sub: userId, sid: session, azp: "web", typ: "Bearer" });
    expect(await introspect(res.accessToken)).toMatchObject({ active: true, sub: userId, client_id: "web" });
    expect(await introspect(res.refreshToken)).toMatchObject({ active: true, token_type: "Refresh", sid: session });
    const info = (await oauth.userInfo({ realm: realmName, baseUrl: "http://localhost:8080", accessToken: res.accessToken })).claims as Record<string, unknown>;
    expect(info).toMatchObject({ sub: userId, preferred_username: "alice" });
  });

  it("refuses userinfo for an active token without openid: PermissionDenied insufficient_scope (OIDC Core 5.3)", async () => {
    const res = await exchange((await newCode({ scope: "profile" })).code);
    expect(res.scope.split(" ")).not.toContain("openid");
    expect(res.idToken).toBe("");
    expect(await introspect(res.accessToken)).toMatchObject({ active: true });
    let caught: unknown;
    try {
      await oauth.userInfo({ realm: realmName, baseUrl: "http://localhost:8080", accessToken: res.accessToken });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ConnectError);
    expect((caught as ConnectError).code).toBe(Code.PermissionDenied);
    expect((caught as ConnectError).rawMessage).toBe("Missing openid scope");
    expect(errorOf(caught)).toBe("insufficient_scope");
  });

  it("refuses a replayed code and revokes what the first redemption issued", async () => {
    const { code } = await newCode();
    const first = await exchange(code);
    await expectOAuthError(exchange(code), "invalid_grant");
    expect(await introspect(first.accessToken)).toEqual({ active: false });
    await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: first.refreshToken }), "invalid_grant");
  });

  it("revokes the family of a redemption that a replay overtook before the family existed (RFC 6749 4.1.2)", async () => {
    const { code, session } = await newCode();
    const repo = parts().familyRepo;
    const insert = repo.insert.bind(repo);
    let replay: Promise<void> | undefined;
    // The replay arrives after the first redemption consumed the code, before it stored the family.
    repo.insert = async (f) => {
      replay ??= expectOAuthError(exchange(code), "invalid_grant");
      await replay;
      return insert(f);
    };
    try {
      await expectOAuthError(exchange(code), "invalid_grant");
    } finally {
      repo.insert = insert;
    }
    expect(replay).toBeDefined();
    expect(await repo.get(realmId, familyIdOfCode(sha256Hex(code)))).toBeNull();
    expect(await repo.list({ realmId, ssoSessionId: session })).toEqual([]);
    expect((await parts().codes.findByHash(sha256Hex(code)))?.replayedAt).toBe(clock.now());
  });

  it("revokes the access token of a replayed code for a client without the refresh_token grant (RFC 6749 4.1.2)", async () => {
    const codeOnly = { clientId: "code-only", clientSecret: codeOnlySecret };
    const { code } = await newCode({ clientId: "code-only" });
    const first = await exchange(code, { client: codeOnly });
    expect(first.refreshToken).toBe("");
    expect(decodeJwt(first.accessToken).fid).toBeUndefined();
    expect(await introspect(first.accessToken)).toMatchObject({ active: true, client_id: "code-only" });
    const record = await parts().codes.findByHash(sha256Hex(code));
    const at = decodeJwt(first.accessToken);
    // Recorded by the consuming write itself: no extra write per issued token.
    expect([record!.issuedAccessJti, record!.issuedAccessExpiresAt]).toEqual([at.jti, at.exp! * 1000]);
    await expectOAuthError(exchange(code, { client: codeOnly }), "invalid_grant");
    expect(await introspect(first.accessToken)).toEqual({ active: false });
    await expectOAuthError(oauth.userInfo({ realm: realmName, baseUrl: "http://localhost:8080", accessToken: first.accessToken }), "invalid_token");
    // Remembered in the store until the token's own exp, not only in memory.
    expect(await parts().revoked.tokens.get(`${realmId}:${at.jti}`)).toEqual({ _id: `${realmId}:${at.jti}`, realmId, expiresAt: at.exp! * 1000 });
  });

  it("binds the code to its client, redirect_uri, lifetime and live session", async () => {
    await expectOAuthError(exchange((await newCode()).code, { redirectUri: "https://app.example/other" }), "invalid_grant");
    await expectOAuthError(exchange((await newCode({ clientId: "spa" })).code), "invalid_grant");
    const late = await newCode();
    clock.advance(CODE_USABLE_MS + 1);
    await expectOAuthError(exchange(late.code), "invalid_grant");
    const ended = await newCode();
    await parts().sso.end(realmId, ended.session, "logout");
    await expectOAuthError(exchange(ended.code), "invalid_grant");
    await expectOAuthError(exchange("never-issued"), "invalid_grant");
    await expectOAuthError(token({ client: webClient(), grantType: "authorization_code" }), "invalid_request");
  });

  it("requires PKCE S256 for public clients and checks the verifier (RFC 7636 4.6)", async () => {
    const verifier = randomToken(32);
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const spa = { clientId: "spa", clientSecret: "" };
    const ok = await newCode({ clientId: "spa", challenge });
    await expectOAuthError(token({ client: spa, grantType: "authorization_code", code: ok.code, redirectUri, codeVerifier: randomToken(32) }), "invalid_grant");
    const good = await newCode({ clientId: "spa", challenge });
    await expectOAuthError(token({ client: spa, grantType: "authorization_code", code: good.code, redirectUri }), "invalid_grant");
    const good2 = await newCode({ clientId: "spa", challenge });
    const res = await token({ client: spa, grantType: "authorization_code", code: good2.code, redirectUri, codeVerifier: verifier });
    expect(res.accessToken).toBeTruthy();
    const noPkce = await newCode({ clientId: "spa" });
    await expectOAuthError(token({ client: spa, grantType: "authorization_code", code: noPkce.code, redirectUri, codeVerifier: verifier }), "invalid_grant");
    const downgrade = await newCode();
    await expectOAuthError(exchange(downgrade.code, { codeVerifier: verifier }), "invalid_grant");
  });

  it("rotates refresh tokens; reuse revokes the family; scope never grows; bound to the client", async () => {
    const first = await exchange((await newCode()).code);
    const second = await token({ client: webClient(), grantType: "refresh_token", refreshToken: first.refreshToken, scope: "openid" });
    // RFC 6749 section 6: a narrower scope is granted as asked, default scopes included only when named.
    expect(second.scope).toBe("openid");
    expect(decodeJwt(second.accessToken).scope).toBe("openid");
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(decodeJwt(second.idToken).nonce).toBeUndefined();
    await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: second.refreshToken, scope: "openid offline_access" }), "invalid_scope");
    await expectOAuthError(token({ client: { clientId: "spa", clientSecret: "" }, grantType: "refresh_token", refreshToken: second.refreshToken }), "invalid_grant");
    const third = await token({ client: webClient(), grantType: "refresh_token", refreshToken: second.refreshToken });
    expect(third.scope).toBe(first.scope);
    // Reusing a rotated token revokes the family: the current token and its access tokens die too.
    await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: first.refreshToken }), "invalid_grant");
    await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: third.refreshToken }), "invalid_grant");
    expect(await introspect(third.accessToken)).toEqual({ active: false });
  });

  it("refreshes with a narrower scope: tokens, claims and userinfo of that scope; the family keeps the original (RFC 6749 section 6)", async () => {
    const first = await exchange((await newCode()).code);
    const original = first.scope;
    expect(original).toBe("openid acr basic email profile roles web-origins");
    const narrow = await token({ client: webClient(), grantType: "refresh_token", refreshToken: first.refreshToken, scope: "openid profile" });
    expect(narrow.scope).toBe("openid profile");
    const at = decodeJwt(narrow.accessToken);
    expect(at.scope).toBe("openid profile");
    expect(at.preferred_username).toBe("alice");
    // Not granted now: the email scope's claims, basic's auth_time, acr's acr, web-origins' allowed-origins.
    for (const claim of ["email", "email_verified", "auth_time", "acr", "allowed-origins"]) expect(at[claim]).toBeUndefined();
    const id = decodeJwt(narrow.idToken);
    expect(id).toMatchObject({ sub: userId, preferred_username: "alice", name: "Alice" });
    expect(id.email).toBeUndefined();
    const info = (await oauth.userInfo({ realm: realmName, baseUrl: "http://localhost:8080", accessToken: narrow.accessToken })).claims as Record<string, unknown>;
    expect(info).toEqual({ sub: userId, preferred_username: "alice", name: "Alice", given_name: "Alice", updated_at: expect.any(Number) });
    // The refresh token still stands for the original grant.
    expect(await introspect(narrow.refreshToken)).toMatchObject({ active: true, scope: original });

    // Without openid: no ID token (OIDC Core 1.0 section 12.2 is about openid requests).
    const noOpenid = await token({ client: webClient(), grantType: "refresh_token", refreshToken: narrow.refreshToken, scope: "email" });
    expect([noOpenid.scope, noOpenid.idToken, decodeJwt(noOpenid.accessToken).email]).toEqual(["email", "", "alice@example.com"]);

    // Omitted: the original grant again, ID token included.
    const back = await token({ client: webClient(), grantType: "refresh_token", refreshToken: noOpenid.refreshToken });
    expect(back.scope).toBe(original);
    expect(decodeJwt(back.accessToken)).toMatchObject({ scope: original, email: "alice@example.com", acr: "1" });
    expect(back.idToken).not.toBe("");
    await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: back.refreshToken, scope: "openid phone" }), "invalid_scope");
  });

  it("refreshes after the client lost a scope of the original grant: that scope is dropped, not invalid_scope", async () => {
    const first = await exchange((await newCode()).code);
    expect(first.scope.split(" ")).toContain("email");
    const scopes = w.clientScopes;
    const email = (await scopes.listScopeAssignments({ realm: realmName, clientId: "web", kind: ScopeKind.DEFAULT })).scopes.find((c) => c.name === "email")!;
    await scopes.removeScopeAssignment({ realm: realmName, clientId: "web", kind: ScopeKind.DEFAULT, scopeId: email.id });
    try {
      const refreshed = await token({ client: webClient(), grantType: "refresh_token", refreshToken: first.refreshToken });
      expect(refreshed.scope.split(" ").sort()).toEqual(first.scope.split(" ").filter((n) => n !== "email").sort());
      expect(decodeJwt(refreshed.accessToken).email).toBeUndefined();
      // Asked for by name, it is dropped the same way; a scope never granted stays invalid_scope.
      const named = await token({ client: webClient(), grantType: "refresh_token", refreshToken: refreshed.refreshToken, scope: "openid email" });
      expect(named.scope).toBe("openid");
      await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: named.refreshToken, scope: "openid phone" }), "invalid_scope");
    } finally {
      await scopes.assignScope({ realm: realmName, clientId: "web", kind: ScopeKind.DEFAULT, clientScopeId: email.id });
    }
  });

  it("expires refresh tokens after refreshTokenLifespan of idleness, and access tokens after theirs", async () => {
    const res = await exchange((await newCode()).code);
    clock.advance(301_000);
    expect(await introspect(res.accessToken)).toEqual({ active: false });
    clock.advance(1_500_000);
    await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: res.refreshToken }), "invalid_grant");
  });

  it("issues offline tokens for offline_access: listed, surviving SSO logout, revocable by the admin", async () => {
    const { code, session } = await newCode({ scope: "openid offline_access" });
    const res = await exchange(code);
    expect(res.refreshExpiresIn).toBe(86_400);
    expect(await introspect(res.refreshToken)).toMatchObject({ active: true, token_type: "Offline" });
    const list = await sessionsAdmin.listOfflineSessions({ realm: realmName, userId });
    const mine = list.sessions.find((s) => s.ssoSessionId === session);
    expect(mine).toBeDefined();
    await parts().sso.end(realmId, session, "logout");
    await new Promise((r) => setTimeout(r, 50));
    const again = await token({ client: webClient(), grantType: "refresh_token", refreshToken: res.refreshToken });
    await sessionsAdmin.revokeOfflineSession({ realm: realmName, userId, tokenId: mine!.id });
    await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: again.refreshToken }), "invalid_grant");
    await expect(sessionsAdmin.revokeOfflineSession({ realm: realmName, userId, tokenId: mine!.id })).rejects.toMatchObject({ code: Code.NotFound });
    expect((await sessionsAdmin.listOfflineSessions({ realm: realmName, userId })).sessions.find((s) => s.id === mine!.id)).toBeUndefined();
  });

  it("writes the login's level as acr where the acr scope puts it: \"0\" for an SSO login, kept by every refresh; \"1\" for a code stored before it was recorded (OIDC Core 2)", async () => {
    const levels = (t: { idToken: string; accessToken: string }) => [decodeJwt(t.idToken).acr, decodeJwt(t.accessToken).acr];
    const sso = await exchange((await newCode({ acr: "0" })).code);
    expect(levels(sso)).toEqual(["0", "0"]);
    expect(levels(await token({ client: webClient(), grantType: "refresh_token", refreshToken: sso.refreshToken }))).toEqual(["0", "0"]);
    const offline = await exchange((await newCode({ acr: "0", scope: "openid offline_access" })).code);
    expect(levels(await token({ client: webClient(), grantType: "refresh_token", refreshToken: offline.refreshToken }))).toEqual(["0", "0"]);
    const fresh = await exchange((await newCode({ acr: "1" })).code);
    expect(levels(await token({ client: webClient(), grantType: "refresh_token", refreshToken: fresh.refreshToken }))).toEqual(["1", "1"]);
    expect(levels(await exchange((await newCode()).code))).toEqual(["1", "1"]);
  });

  it("grants no offline_access to a client without the refresh_token grant: no refresh token, no offline session (RFC 6749 3.3)", async () => {
    const codeOnly = { clientId: "code-only", clientSecret: codeOnlySecret };
    const offlineOf = async (clientId: string) => (await sessionsAdmin.listOfflineSessions({ realm: realmName, userId })).sessions.filter((s) => s.clients.includes(clientId));
    const res = await exchange((await newCode({ clientId: "code-only", scope: "openid offline_access" })).code, { client: codeOnly });
    const granted = ["acr", "basic", "email", "openid", "profile", "roles", "web-origins"];
    expect([res.refreshToken, res.refreshExpiresIn]).toEqual(["", 0]);
    expect(res.scope.split(" ").sort()).toEqual(granted);
    expect(decodeJwt(res.accessToken)).toMatchObject({ scope: res.scope });
    expect(decodeJwt(res.accessToken).fid).toBeUndefined();
    expect(await offlineOf("code-only")).toEqual([]);

    // The device grant alike; the device code does not even record it, so the verification page does not ask for it.
    const kiosk = { clientId: "kiosk", clientSecret: "" };
    const started = await oauth.authorizeDevice({ realm: realmName, baseUrl: "http://localhost:8080", client: kiosk, scope: "openid offline_access" });
    const pending = await parts().devices.findPendingByUserCode(realmId, started.userCode.replace("-", ""));
    expect(pending?.scope).toBe("openid");
    await parts().devices.decide(pending!._id, { status: "approved", userId, ssoSessionId: await newSession(), authTime: clock.now(), amr: ["pwd"] });
    const device = await token({ client: kiosk, grantType: DEVICE, deviceCode: started.deviceCode });
    expect([device.refreshToken, device.scope.split(" ").sort()]).toEqual(["", granted]);
    expect(await offlineOf("kiosk")).toEqual([]);
  });

  /** A code-flow session logged out by refresh token while the client's back-channel receiver answers 503. */
  it("polls device codes (RFC 8628): pending, slow_down, access_denied, tokens once, expired_token", async () => {
    const tv = { clientId: "tv", clientSecret: "" };
    const start = () => oauth.authorizeDevice({ realm: realmName, baseUrl: "http://localhost:8080", client: tv, scope: "openid" });
    const poll = (deviceCode: string) => token({ client: tv, grantType: DEVICE, deviceCode });
    const a = await start();
    await expectOAuthError(poll(a.deviceCode), "authorization_pending");
    await expectOAuthError(poll(a.deviceCode), "slow_down");
    clock.advance(10_001);
    await expectOAuthError(poll(a.deviceCode), "authorization_pending");
    const pending = await parts().devices.findPendingByUserCode(realmId, a.userCode.replace("-", ""));
    const session = await newSession();
    await parts().devices.decide(pending!._id, { status: "approved", userId, ssoSessionId: session, authTime: clock.now(), amr: ["pwd"], acr: "0" });
    clock.advance(15_001);
    const res = await poll(a.deviceCode);
    expect(decodeJwt(res.idToken)).toMatchObject({ sub: userId, sid: session, azp: "tv", acr: "0" });
    expect(decodeJwt(res.accessToken).acr).toBe("0");
    expect(res.refreshToken).toBeTruthy();
    await expectOAuthError(poll(a.deviceCode), "invalid_grant");

    const b = await start();
    const pb = await parts().devices.findPendingByUserCode(realmId, b.userCode.replace("-", ""));
    await parts().devices.decide(pb!._id, { status: "denied" });
    await expectOAuthError(poll(b.deviceCode), "access_denied");

    const c = await start();
    expect(c.deviceCode).toMatch(/^[A-Za-z0-9_-]{43}\.[0-9a-z]+\.[A-Za-z0-9_-]{22}$/);
    clock.advance(601_000);
    // The store has forgotten it: the code's MACed suffix says it expired (RFC 8628 section 3.5).
    expect(await parts().devices.findByHash(sha256Hex(c.deviceCode))).toBeNull();
    await expectOAuthError(poll(c.deviceCode), "expired_token");
  });

  it("refuses a device code whose approving SSO session ended before the poll, offline_access too, as a code (RFC 8628 3.5)", async () => {
    const failure = async (p: Promise<unknown>) => p.then(() => "issued", (e: unknown) => [oauthErrorOf(e), (e as ConnectError).rawMessage]);
    const familiesOfUser = async () => (await parts().familyRepo.list({ realmId, userId })).map((f) => f._id);
    const before = await familiesOfUser();
    const cases: Array<[{ clientId: string; clientSecret: string }, string]> = [
      [{ clientId: "tv", clientSecret: "" }, "openid"],
      [{ clientId: "tv", clientSecret: "" }, "openid offline_access"],
      [{ clientId: "kiosk", clientSecret: "" }, "openid"],
    ];
    const answers: unknown[] = [];
    for (const [client, scope] of cases) {
      const started = await oauth.authorizeDevice({ realm: realmName, baseUrl: "http://localhost:8080", client, scope });
      const pending = await parts().devices.findPendingByUserCode(realmId, started.userCode.replace("-", ""));
      const session = await newSession();
      await parts().devices.decide(pending!._id, { status: "approved", userId, ssoSessionId: session, authTime: clock.now(), amr: ["pwd"] });
      await parts().sso.end(realmId, session, "logout");
      const poll = () => token({ client, grantType: DEVICE, deviceCode: started.deviceCode });
      // Consumed by the first answer, as a code is: the device must start again.
      answers.push([client.clientId, scope, await failure(poll()), await failure(poll())]);
    }
    expect(answers).toEqual(cases.map(([client, scope]) => [client.clientId, scope,
      ["invalid_grant", "the session that approved the device code has ended"], ["invalid_grant", "device code was already used"]]));
    // Neither an online family without its SSO session nor an offline one was started.
    expect(await familiesOfUser()).toEqual(before);
  });

  it("tells expired_token only of codes it issued: a made-up or altered code is invalid_grant", async () => {
    const tv = { clientId: "tv", clientSecret: "" };
    const poll = (deviceCode: string) => token({ client: tv, grantType: DEVICE, deviceCode });
    const issued = await oauth.authorizeDevice({ realm: realmName, baseUrl: "http://localhost:8080", client: tv, scope: "openid" });
    clock.advance(601_000);
    await expectOAuthError(poll(issued.deviceCode), "expired_token");
    const [random, expiry, mac] = issued.deviceCode.split(".");
    for (const forged of [
      `${"A".repeat(43)}.1`, `${"A".repeat(43)}.1.${"A".repeat(22)}`, `${random}.1.${mac}`, `${randomToken()}.${expiry}.${mac}`, `${random}.${expiry}`,
    ]) {
      const err = await poll(forged).catch((e: unknown) => e);
      expect([oauthErrorOf(err), (err as ConnectError).rawMessage]).toEqual(["invalid_grant", "invalid device code"]);
    }
  });

  it("refuses a scope the device client does not have before issuing any code (RFC 8628 section 3.2)", async () => {
    const tv = { clientId: "tv", clientSecret: "" };
    const start = (scope: string) => oauth.authorizeDevice({ realm: realmName, baseUrl: "http://localhost:8080", client: tv, scope });
    const before = await parts().devices.codes.count({ realmId });
    const refused = await start("openid bogus").catch((e: unknown) => e);
    expect(oauthErrorOf(refused)).toBe("invalid_scope");
    expect((refused as ConnectError).rawMessage).toBe("Invalid scopes: bogus.");
    await expectOAuthError(start("openid profile \"quoted\""), "invalid_scope");
    expect(await parts().devices.codes.count({ realmId })).toBe(before);
    // openid, a default and an optional scope of the client are all fine.
    const ok = await start("openid profile phone");
    const stored = await parts().devices.findPendingByUserCode(realmId, ok.userCode.replace("-", ""));
    expect(stored?.scope).toBe("openid profile phone");
  });
});
