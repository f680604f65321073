import { randomUUID, createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { Code, createClient, createRouterTransport, ConnectError, type Client } from "@connectrpc/connect";
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from "jose";
import { ErrorDetailSchema } from "../../../gen/iam/kit/v1/kit_pb.js";
import { RealmService } from "../../../gen/iam/directory/v1/realm_pb.js";
import { ClientService } from "../../../gen/iam/directory/v1/client_pb.js";
import { UserService } from "../../../gen/iam/directory/v1/user_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { OAuthService, type TokenRequestSchema } from "../../../gen/iam/token/v1/oauth_pb.js";

type TokenInit = Omit<MessageInitShape<typeof TokenRequestSchema>, "realm" | "baseUrl">;
import { SessionAdminService } from "../../../gen/iam/token/v1/sessions_pb.js";
import { openStore } from "../../kit/src/store/open-store.js";
import { openBus } from "../../kit/src/bus/open-bus.js";
import { createLogger } from "../../kit/src/logger.js";
import { createMetrics } from "../../kit/src/metrics.js";
import { SecretBox, generateMasterKey } from "../../kit/src/crypto/secret-box.js";
import { LazyTransport } from "../../kit/src/rpc/lazy-transport.js";
import { serverInterceptor } from "../../kit/src/rpc/server-interceptor.js";
import { SERVICE_NAMES, type ServiceDeps, type ServiceModule, type ServiceName } from "../../kit/src/module.js";
import { TestClock } from "../../kit/src/store/store-contract-kit.js";
import type { Store } from "../../kit/src/store/port.js";
import type { Bus } from "../../kit/src/bus/port.js";
import { sha256Hex, randomToken } from "../../kit/src/crypto/random.js";
import { buildDirectory } from "../../directory/src/module.js";
import { loadDirectoryConfig } from "../../directory/src/config.js";
import { SigningKeyRepository } from "./store/signing-key-repository.js";
import { KeyRing } from "./domain/key-ring.js";
import { buildOAuth } from "./oauth-module.js";
import { CODE_REMEMBERED_MS, CODE_USABLE_MS } from "./domain/authorization-code.js";
import { familyIdOfCode } from "./domain/refresh-family.js";
import { BACKCHANNEL_LOGOUT_EVENT, BackchannelLogout } from "./domain/backchannel-logout.js";

// The grants the browser and password branches feed (authorization_code, refresh_token, device
// code), offline tokens, logout with back-channel delivery and sessions admin, in-process: the
// directory and the token service's OAuth half over real Connect routing, sqlite :memory:, the
// in-memory bus, an injectable clock. Codes, SSO sessions and device decisions are written through
// the shared repositories, as the browser branch writes them.
describe("OAuth flows, in-process", () => {
  const logger = createLogger("test", "silent");
  const clock = new TestClock();
  const realmName = "flows";
  const redirectUri = "https://app.example/cb";
  const DEVICE = "urn:ietf:params:oauth:grant-type:device_code";
  let stores: Store[] = [];
  let bus: Bus;
  let directory: ServiceModule;
  let oauthModule: Awaited<ReturnType<typeof buildOAuth>>;
  let keys: KeyRing;
  let oauth: Client<typeof OAuthService>;
  let sessionsAdmin: Client<typeof SessionAdminService>;
  let users: Client<typeof UserService>;
  let realmId: string;
  let webSecret: string;
  let codeOnlySecret: string;
  let userId: string;
  let bcl: Server;
  const received: string[] = [];
  let bclStatus = 200;

  beforeAll(async () => {
    clock.t = Date.now();
    bcl = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        received.push(new URLSearchParams(body).get("logout_token") ?? "");
        res.statusCode = bclStatus;
        res.end();
      });
    });
    await new Promise<void>((r) => bcl.listen(0, "127.0.0.1", () => r()));
    const port = (bcl.address() as { port: number }).port;

    bus = await openBus({ kind: "memory", path: ":memory:", logger });
    const transports = Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;
    const secrets = new SecretBox(generateMasterKey());
    const deps = async (): Promise<ServiceDeps> => {
      const store = await openStore({ kind: "sqlite", path: ":memory:", clock, sweepIntervalMs: 0 });
      stores.push(store);
      return { store, bus, logger, metrics: createMetrics(), transports, secrets, clock };
    };
    directory = await buildDirectory(await deps(), loadDirectoryConfig({}));
    const tokenDeps = await deps();
    keys = new KeyRing(await SigningKeyRepository.open(tokenDeps.store), secrets, clock);
    oauthModule = await buildOAuth(tokenDeps, keys, { publicUrl: "http://localhost:8080", backchannel: { backoffMs: 20, attempts: 3 } });
    const bind = (m: { routes: ServiceModule["routes"] }, name: ServiceName) => {
      const t = createRouterTransport((r) => m.routes(r), { router: { interceptors: [serverInterceptor(name, logger)] } });
      transports[name].bind(t);
      return t;
    };
    bind(directory, "directory");
    const tokenTransport = bind(oauthModule, "token");
    await directory.start();
    await oauthModule.start();
    oauth = createClient(OAuthService, tokenTransport);
    sessionsAdmin = createClient(SessionAdminService, tokenTransport);
    users = createClient(UserService, transports.directory);
    const realms = createClient(RealmService, transports.directory);
    const clients = createClient(ClientService, transports.directory);
    realmId = (await realms.createRealm({ realm: { name: realmName, refreshTokenLifespan: 1800, offlineTokenLifespan: 86_400 } })).realm!.id;
    const web = await clients.createClient({ realm: realmName, client: {
      clientId: "web", grantTypes: ["authorization_code", "refresh_token"], grantTypesPresent: true, redirectUris: [redirectUri],
      backchannelLogoutUri: `http://127.0.0.1:${port}/bcl`, backchannelLogoutSessionRequired: true,
    } });
    webSecret = web.client!.secret!;
    // No refresh_token grant: its tokens have no refresh family (and its access tokens no `fid`).
    codeOnlySecret = (await clients.createClient({ realm: realmName, client: {
      clientId: "code-only", grantTypes: ["authorization_code"], grantTypesPresent: true, redirectUris: [redirectUri],
    } })).client!.secret!;
    await clients.createClient({ realm: realmName, client: { clientId: "spa", clientType: "PUBLIC", grantTypes: ["authorization_code", "refresh_token"], grantTypesPresent: true, redirectUris: [redirectUri] } });
    await clients.createClient({ realm: realmName, client: { clientId: "tv", clientType: "PUBLIC", grantTypes: [DEVICE, "refresh_token"], grantTypesPresent: true } });
    userId = (await users.createUser({ realm: realmName, user: { username: "alice", email: "alice@example.com", firstName: "Alice", password: "correct-horse-9" } })).user!.id;
  }, 60_000);

  afterAll(async () => {
    await oauthModule.stop();
    await directory.stop();
    await bus.close();
    for (const s of stores) await s.close();
    await new Promise((r) => bcl.close(r));
  });

  const parts = () => oauthModule.parts;
  const webClient = () => ({ clientId: "web", clientSecret: webSecret });
  const errorOf = (e: unknown) => (e instanceof ConnectError ? e.findDetails(ErrorDetailSchema)[0]?.oauthError : String(e));
  const expectOAuthError = async (p: Promise<unknown>, error: string) => {
    let caught: unknown;
    try {
      await p;
    } catch (e) {
      caught = e;
    }
    expect(errorOf(caught)).toBe(error);
  };
  const token = (req: TokenInit) => oauth.token({ realm: realmName, baseUrl: "http://localhost:8080", ...req } as MessageInitShape<typeof TokenRequestSchema>);
  const jwks = async () => createLocalJWKSet({ keys: await keys.publishedKeys({ id: realmId, name: realmName, enabled: true, tokenLifespanSeconds: 1800 }) } as JSONWebKeySet);
  const introspect = async (t: string) => (await oauth.introspect({ realm: realmName, baseUrl: "http://localhost:8080", client: webClient(), token: t })).result as Record<string, unknown>;

  async function newSession(): Promise<string> {
    const id = randomUUID();
    const now = clock.now();
    await parts().ssoRepo.insert({
      _id: id, realmId, realmName, userId, username: "alice", cookieHash: sha256Hex(randomToken()), authTime: now - 1000,
      amr: ["pwd"], clientIds: ["web"], ipAddress: "127.0.0.1", createdAt: now, lastSeenAt: now, expiresAt: now + 1_800_000,
    });
    return id;
  }

  async function newCode(over: { clientId?: string; scope?: string; challenge?: string; session?: string } = {}): Promise<{ code: string; session: string }> {
    const code = randomToken();
    const session = over.session ?? (await newSession());
    const now = clock.now();
    await parts().codes.insert({
      _id: sha256Hex(code), realmId, realmName, clientId: over.clientId ?? "web", redirectUri, userId, ssoSessionId: session,
      scope: over.scope ?? "openid profile", nonce: "n-0S6", codeChallenge: over.challenge ?? "", codeChallengeMethod: over.challenge ? "S256" : "",
      authTime: now - 1000, amr: ["pwd"], createdAt: now, usableUntil: now + CODE_USABLE_MS, expiresAt: now + CODE_REMEMBERED_MS,
    });
    return { code, session };
  }

  const exchange = (code: string, over: TokenInit = {}) =>
    token({ client: webClient(), grantType: "authorization_code", code, redirectUri, ...over });

  it("exchanges a code for access, refresh and ID tokens (OIDC Core 3.1.3.3)", async () => {
    const { code, session } = await newCode();
    const res = await exchange(code);
    expect(res.tokenType).toBe("Bearer");
    expect(res.refreshToken).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
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
    expect(info).toEqual({ sub: userId, preferred_username: "alice", name: "Alice", given_name: "Alice" });
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

  /** A code-flow session logged out by refresh token while the client's back-channel receiver answers 503. */
  async function logoutWhileReceiverFails() {
    received.length = 0;
    bclStatus = 503;
    const { code, session } = await newCode();
    const res = await exchange(code);
    await oauth.logout({ realm: realmName, baseUrl: "http://localhost:8080", client: webClient(), refreshToken: res.refreshToken });
    return { session, res };
  }

  it("logs out with a refresh token: session ended, tokens inactive, signed back-channel logout delivered with retries", async () => {
    const { session, res } = await logoutWhileReceiverFails();
    expect(await parts().ssoRepo.findById(realmId, session)).toBeNull();
    expect(await introspect(res.accessToken)).toEqual({ active: false });
    await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: res.refreshToken }), "invalid_grant");
    const until = Date.now() + 5000;
    while (received.filter((t) => decodeJwt(t).sid === session).length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    bclStatus = 200;
    await parts().backchannel.idle();
    const mine = received.filter((t) => decodeJwt(t).sid === session);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    const { payload, protectedHeader } = await jwtVerify(mine[0]!, await jwks(), { issuer: `http://localhost:8080/realms/${realmName}`, audience: "web" });
    expect(protectedHeader.typ).toBe("logout+jwt");
    expect(payload).toMatchObject({ sub: userId, sid: session, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } });
    expect(payload.nonce).toBeUndefined();
    expect(typeof payload.jti).toBe("string");
  });

  it("keeps a back-channel logout that a stopped process left undone, and the next start delivers it", async () => {
    const { session } = await logoutWhileReceiverFails();
    const until = Date.now() + 5000;
    while (!received.some((t) => decodeJwt(t).sid === session) && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    // The process stops (a crash would leave the same record) between the failed first attempt and its retry.
    await parts().backchannel.stop();
    const left = await parts().deliveries.due(Number.MAX_SAFE_INTEGER, 10);
    expect(left.map((d) => ({ clientId: d.clientId, sid: d.sid, userId: d.userId }))).toEqual([{ clientId: "web", sid: session, userId }]);
    expect(left[0]!.attempts).toBe(1);
    const before = received.length;
    bclStatus = 200;
    clock.advance(60_000);
    const next = new BackchannelLogout(keys, parts().clients, parts().issuers, parts().deliveries, clock, logger, { backoffMs: 20, attempts: 3 });
    next.start();
    const deadline = Date.now() + 5000;
    while (received.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await next.stop();
    const delivered = received.slice(before);
    expect(delivered).toHaveLength(1);
    const { payload } = await jwtVerify(delivered[0]!, await jwks(), { issuer: `http://localhost:8080/realms/${realmName}`, audience: "web", currentDate: new Date(clock.now()) });
    expect(payload).toMatchObject({ sub: userId, sid: session, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } });
    expect(await parts().deliveries.due(Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    parts().backchannel.start();
  });

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
    await parts().devices.decide(pending!._id, { status: "approved", userId, ssoSessionId: session, authTime: clock.now(), amr: ["pwd"] });
    clock.advance(15_001);
    const res = await poll(a.deviceCode);
    expect(decodeJwt(res.idToken)).toMatchObject({ sub: userId, sid: session, azp: "tv" });
    expect(res.refreshToken).toBeTruthy();
    await expectOAuthError(poll(a.deviceCode), "invalid_grant");

    const b = await start();
    const pb = await parts().devices.findPendingByUserCode(realmId, b.userCode.replace("-", ""));
    await parts().devices.decide(pb!._id, { status: "denied" });
    await expectOAuthError(poll(b.deviceCode), "access_denied");

    const c = await start();
    clock.advance(601_000);
    await expectOAuthError(poll(c.deviceCode), "expired_token");
  });

  it("sessions admin lists and revokes oauth and sso sessions; revoke-all counts", async () => {
    const a = await exchange((await newCode()).code);
    const { session } = await newCode();
    const listed = await sessionsAdmin.listUserSessions({ realm: realmName, userId });
    const familyId = a.refreshToken.split(".")[0]!;
    expect(listed.sessions.find((s) => s.id === familyId)).toMatchObject({ type: "oauth", clients: ["web"], username: "alice" });
    expect(listed.sessions.find((s) => s.id === session)).toMatchObject({ type: "sso" });
    expect(await sessionsAdmin.revokeSession({ realm: realmName, sessionId: familyId, type: "oauth" })).toMatchObject({ revoked: true, sessionId: familyId, type: "oauth" });
    expect(await introspect(a.accessToken)).toEqual({ active: false });
    expect(await sessionsAdmin.revokeSession({ realm: realmName, sessionId: session, type: "sso" })).toMatchObject({ revoked: true, type: "sso" });
    await exchange((await newCode()).code);
    const { count } = await sessionsAdmin.revokeUserSessions({ realm: realmName, userId });
    expect(count).toBeGreaterThanOrEqual(2);
    expect((await sessionsAdmin.listUserSessions({ realm: realmName, userId })).sessions).toEqual([]);
  });

  it("ends the user's sessions when the directory disables the user", async () => {
    const res = await exchange((await newCode()).code);
    await users.updateUser({ realm: realmName, userId, update: { enabled: false } });
    const until = Date.now() + 5000;
    while ((await introspect(res.accessToken)).active && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(await introspect(res.accessToken)).toEqual({ active: false });
    await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: res.refreshToken }), "invalid_grant");
    await users.updateUser({ realm: realmName, userId, update: { enabled: true } });
  });
});
