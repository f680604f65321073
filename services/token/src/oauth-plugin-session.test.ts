import { decodeJwt } from "jose";
import { ScopeKind } from "../../../gen/iam/directory/v1/client_scope_pb.js";
import { TestClock } from "../../kit/src/store/store-contract-kit.js";
import { createLogger } from "../../kit/src/logger.js";
import { PluginCalls } from "../../kit/src/plugins/plugin-calls.js";
import { PluginRegistry } from "../../kit/src/plugins/plugin-registry.js";
import type { TesseraPlugin } from "../../kit/src/plugins/plugin-api.js";
import { ACCESS_TOKEN_TYPE, REFRESH_TOKEN_TYPE, TOKEN_EXCHANGE_GRANT } from "./domain/grants/token-exchange-grant.js";
import { DEVICE_GRANT, FLOWS_REALM, OAuthFlowsWorld, worldCalls } from "./oauth-flows-test-kit.js";

/** Writes the login it is told of (plugin-api.ts MapperSession) into the claim `login`. */
const SESSION_PLUGIN: TesseraPlugin = {
  id: "session", version: "1.0.0", kinds: ["protocol-mapper"],
  protocolMapper: { defaultClaimName: "login", map: ({ session }) => ({ sid: session.id, auth_time: session.authTime }) },
};

type Credentials = { clientId: string; clientSecret: string };

// Every grant, and userinfo, tells a plugin mapper the login its token belongs to: the claim it
// writes equals the token's `sid` and the ID token's `auth_time`. In-process (oauth-flows-test-kit.ts),
// the session plugin loaded in the directory and its mapper among the clients' default scopes.
describe("plugin mappers see the token's session, in-process", () => {
  const clock = new TestClock();
  const baseUrl = "http://localhost:8080";
  let w: OAuthFlowsWorld;
  let pw: Credentials;
  let pwOnly: Credentials;
  let svc: Credentials;
  const { parts, webClient, token, exchange, newSession, newCode } = worldCalls(() => w);

  beforeAll(async () => {
    const logger = createLogger("test", "silent");
    w = await OAuthFlowsWorld.build(clock, { plugins: new PluginRegistry([{ source: "test", plugin: SESSION_PLUGIN }], new PluginCalls(5_000, logger)) });
    const scope = (await w.clientScopes.createClientScope({ realm: FLOWS_REALM, scope: { name: "login" } })).scope!;
    await w.clientScopes.createProtocolMapper({ realm: FLOWS_REALM, scopeId: scope.id, mapper: { name: "login", mapperType: "plugin:session", config: {} } });
    const client = async (clientId: string, grantTypes: string[], standardTokenExchangeEnabled = false): Promise<Credentials> => {
      const created = await w.clients.createClient({ realm: FLOWS_REALM, client: { clientId, grantTypes, grantTypesPresent: true, standardTokenExchangeEnabled } });
      return { clientId, clientSecret: created.client!.secret! };
    };
    pw = await client("pw", ["password", "refresh_token"], true);
    pwOnly = await client("pw-only", ["password"]);
    svc = await client("svc", ["client_credentials"]);
    for (const clientId of ["web", "code-only", "tv", "pw", "pw-only", "svc"]) {
      await w.clientScopes.assignScope({ realm: FLOWS_REALM, clientId, kind: ScopeKind.DEFAULT, clientScopeId: scope.id });
    }
  }, 60_000);
  afterAll(() => w.close());

  const loginOf = (jwt: string): unknown => decodeJwt(jwt).login;
  const userinfoLogin = async (accessToken: string): Promise<unknown> =>
    ((await w.oauth.userInfo({ realm: FLOWS_REALM, baseUrl, accessToken })).claims as Record<string, unknown>).login;
  const seconds = (ms: number) => Math.floor(ms / 1000);

  it("authorization code: the SSO session and the code's auth time, kept by a refresh", async () => {
    const { code, session } = await newCode();
    const res = await exchange(code);
    const expected = { sid: session, auth_time: seconds(clock.now() - 1000) };
    const id = decodeJwt(res.idToken);
    expect([id.sid, id.auth_time]).toEqual([expected.sid, expected.auth_time]);
    expect([id.login, loginOf(res.accessToken), await userinfoLogin(res.accessToken)]).toStrictEqual([expected, expected, expected]);

    clock.advance(60_000);
    const refreshed = await token({ client: webClient(), grantType: "refresh_token", refreshToken: res.refreshToken });
    const again = decodeJwt(refreshed.idToken);
    expect([again.sid, again.auth_time]).toEqual([expected.sid, expected.auth_time]);
    expect([again.login, loginOf(refreshed.accessToken), await userinfoLogin(refreshed.accessToken)]).toStrictEqual([expected, expected, expected]);
  });

  it("authorization code without refresh tokens: the SSO session, for userinfo too", async () => {
    const { code, session } = await newCode({ clientId: "code-only" });
    const res = await exchange(code, { client: { clientId: "code-only", clientSecret: w.codeOnlySecret } });
    const expected = { sid: session, auth_time: seconds(clock.now() - 1000) };
    expect(decodeJwt(res.idToken)).toMatchObject({ sid: expected.sid, auth_time: expected.auth_time, login: expected });
    expect([loginOf(res.accessToken), await userinfoLogin(res.accessToken)]).toStrictEqual([expected, expected]);
  });

  it("device code: the SSO session that approved it and its auth time", async () => {
    const tv = { clientId: "tv", clientSecret: "" };
    const started = await w.oauth.authorizeDevice({ realm: FLOWS_REALM, baseUrl, client: tv, scope: "openid" });
    const pending = await parts().devices.findPendingByUserCode(w.realmId, started.userCode.replace("-", ""));
    const session = await newSession();
    await parts().devices.decide(pending!._id, { status: "approved", userId: w.userId, ssoSessionId: session, authTime: clock.now() - 5000, amr: ["pwd"] });
    const res = await token({ client: tv, grantType: DEVICE_GRANT, deviceCode: started.deviceCode });
    const expected = { sid: session, auth_time: seconds(clock.now() - 5000) };
    expect(decodeJwt(res.idToken)).toMatchObject({ sid: expected.sid, auth_time: expected.auth_time, login: expected });
    expect(loginOf(res.accessToken)).toStrictEqual(expected);
  });

  it("password grant: the refresh family is the session; without refresh tokens there is none", async () => {
    const res = await token({ client: pw, grantType: "password", username: "alice", password: "correct-horse-9", scope: "openid" });
    const id = decodeJwt(res.idToken);
    const expected = { sid: res.sessionState, auth_time: seconds(clock.now()) };
    expect(res.sessionState).toMatch(/^[0-9a-f-]{36}$/);
    expect([id.sid, id.auth_time]).toEqual([expected.sid, expected.auth_time]);
    expect([id.login, loginOf(res.accessToken), await userinfoLogin(res.accessToken)]).toStrictEqual([expected, expected, expected]);

    const bare = await token({ client: pwOnly, grantType: "password", username: "alice", password: "correct-horse-9", scope: "openid" });
    expect([bare.sessionState, decodeJwt(bare.idToken).sid]).toEqual(["", undefined]);
    expect([decodeJwt(bare.idToken).login, loginOf(bare.accessToken), await userinfoLogin(bare.accessToken)]).toStrictEqual([{ sid: "" }, { sid: "" }, { sid: "" }]);
  });

  it("introspection: the token's session, for a mapper switched on for introspection alone", async () => {
    const scope = (await w.clientScopes.createClientScope({ realm: FLOWS_REALM, scope: { name: "introspected-login" } })).scope!;
    await w.clientScopes.createProtocolMapper({ realm: FLOWS_REALM, scopeId: scope.id, mapper: {
      name: "introspected", mapperType: "plugin:session", config: { "claim.name": "introspected", "access.token.claim": "false", "introspection.token.claim": "true" },
    } });
    await w.clientScopes.assignScope({ realm: FLOWS_REALM, clientId: "pw", kind: ScopeKind.DEFAULT, clientScopeId: scope.id });
    const res = await token({ client: pw, grantType: "password", username: "alice", password: "correct-horse-9", scope: "openid" });
    const expected = { sid: res.sessionState, auth_time: seconds(clock.now()) };
    expect(decodeJwt(res.accessToken).introspected).toBeUndefined();
    const seen = (await w.oauth.introspect({ realm: FLOWS_REALM, baseUrl, client: pw, token: res.accessToken })).result as Record<string, unknown>;
    expect([seen.active, seen.introspected, seen.login]).toStrictEqual([true, expected, expected]);
  });

  it("client_credentials: no session and no auth time", async () => {
    const res = await token({ client: svc, grantType: "client_credentials" });
    expect([decodeJwt(res.accessToken).sid, loginOf(res.accessToken)]).toStrictEqual([undefined, { sid: "" }]);
  });

  it("token exchange: the subject token's session, or the new refresh family's", async () => {
    const subject = await token({ client: pw, grantType: "password", username: "alice", password: "correct-horse-9", scope: "openid" });
    const authTime = seconds(clock.now());
    clock.advance(5_000);
    const swap = (requestedTokenType: string) => token({
      client: pw, grantType: TOKEN_EXCHANGE_GRANT, subjectToken: subject.accessToken, subjectTokenType: ACCESS_TOKEN_TYPE, requestedTokenType,
    });
    const access = await swap(ACCESS_TOKEN_TYPE);
    expect([decodeJwt(access.accessToken).sid, loginOf(access.accessToken)]).toStrictEqual([subject.sessionState, { sid: subject.sessionState, auth_time: authTime }]);

    // A password login has no SSO session: the exchange's own family is the new tokens' session.
    const refresh = await swap(REFRESH_TOKEN_TYPE);
    const sid = decodeJwt(refresh.accessToken).sid;
    expect([sid === subject.sessionState, sid]).toEqual([false, refresh.sessionState]);
    expect(loginOf(refresh.accessToken)).toStrictEqual({ sid: refresh.sessionState, auth_time: authTime });
  });
});
