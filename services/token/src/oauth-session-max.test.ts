import { decodeJwt } from "jose";
import { TestClock } from "../../kit/src/store/store-contract-kit.js";
import { FLOWS_REALM, OAuthFlowsWorld, expectOAuthError, oauthErrorOf, worldCalls } from "./oauth-flows-test-kit.js";

// SSO Session Max for refresh tokens (domain/session-max.ts), in-process with the test clock:
// the realm's ssoSessionMaxLifespan at 3600, the realm's refreshTokenLifespan 1800 (idle) and
// offlineTokenLifespan 86400. A client refreshing steadily keeps its tokens only until an hour
// after the login; offline tokens are not bounded.
describe("SSO Session Max ends online refresh tokens that long after the login", () => {
  const clock = new TestClock();
  let w: OAuthFlowsWorld;
  beforeAll(async () => {
    w = await OAuthFlowsWorld.build(clock, { ssoSessionMaxLifespan: 3600 });
  }, 60_000);
  afterAll(() => w.close());

  const { parts, webClient, token, exchange, introspect, newCode } = worldCalls(() => w);
  const refresh = (refreshToken: string, client = webClient()) => token({ client, grantType: "refresh_token", refreshToken });
  const S = 1000;

  it("counts refresh_expires_in down to the bound, then refuses the refresh and reports every token inactive", async () => {
    const start = clock.now();
    const { code, session } = await newCode();
    let res = await exchange(code);
    expect(res.refreshExpiresIn).toBe(1800);
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      clock.advance(800 * S);
      res = await refresh(res.refreshToken);
      seen.push(res.refreshExpiresIn);
    }
    // At 800 s the session (1800 s from the login) ends first; at 1600 s it is kept alive to 3400 s;
    // at 2400 s the family may not pass 3600 s; at 3200 s both end at the bound.
    expect(seen).toEqual([1000, 1800, 1000, 400]);
    // The access token's 300 s still fit before the bound...
    expect(res.expiresIn).toBe(300);
    clock.advance(399 * S);
    res = await refresh(res.refreshToken);
    expect(res.refreshExpiresIn).toBe(1);
    // ...these do not: access and ID token expire at the bound, as in Keycloak.
    expect(res.expiresIn).toBe(1);
    const exp = Math.floor((start + 3600 * S) / 1000);
    expect(decodeJwt(res.accessToken).exp).toBe(exp);
    expect(decodeJwt(res.idToken).exp).toBe(exp);
    expect(await parts().ssoRepo.findById(w.realmId, session)).toMatchObject({ createdAt: start, expiresAt: start + 3600 * S });
    clock.advance(1 * S);
    let caught: unknown;
    await refresh(res.refreshToken).catch((e: unknown) => (caught = e));
    expect(oauthErrorOf(caught)).toBe("invalid_grant");
    // The family's end was the bound, so it is gone as at an idle end (the store hides what expired).
    expect((caught as Error).message).toContain("Invalid refresh token");
    expect(await introspect(res.refreshToken)).toEqual({ active: false });
    expect(await introspect(res.accessToken)).toEqual({ active: false });
  });

  it("bounds a password-grant family, which has no SSO session, from its own start", async () => {
    const secret = (await w.clients.createClient({ realm: FLOWS_REALM, client: {
      clientId: "cli", grantTypes: ["password", "refresh_token"], grantTypesPresent: true,
    } })).client!.secret!;
    const cli = { clientId: "cli", clientSecret: secret };
    let res = await token({ client: cli, grantType: "password", username: "alice", password: "correct-horse-9", scope: "openid" });
    expect(res.refreshExpiresIn).toBe(1800);
    clock.advance(1700 * S);
    res = await refresh(res.refreshToken, cli);
    expect(res.refreshExpiresIn).toBe(1800);
    clock.advance(1700 * S);
    res = await refresh(res.refreshToken, cli);
    expect(res.refreshExpiresIn).toBe(200);
    expect(res.expiresIn).toBe(200);
    clock.advance(200 * S);
    await expectOAuthError(refresh(res.refreshToken, cli), "invalid_grant");
  });

  it("follows the realm's setting: lowered, it ends a login already past it at its next refresh; 0 lifts the bound", async () => {
    const { code } = await newCode();
    let res = await exchange(code);
    clock.advance(1000 * S);
    const realmNow = async (max: number) => {
      await w.realms.updateRealm({ name: FLOWS_REALM, update: { ssoSessionMaxLifespan: max } });
      const until = Date.now() + 5000; // the token service's realm cache drops on realm.updated
      while ((await parts().realms.publicRealm(FLOWS_REALM)).ssoSessionMaxLifespan !== max && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    };
    try {
      await realmNow(0);
      for (let i = 0; i < 3; i++) { // 4000 s after the login: past an hour, no bound
        res = await refresh(res.refreshToken);
        expect(res.refreshExpiresIn).toBe(1800);
        clock.advance(1000 * S);
      }
      expect(decodeJwt(res.accessToken).exp).toBe(Math.floor(clock.now() / 1000) - 1000 + 300);
      await realmNow(3600);
      await expectOAuthError(refresh(res.refreshToken), "invalid_grant");
      expect(await introspect(res.refreshToken)).toEqual({ active: false });
    } finally {
      await realmNow(3600);
    }
  });

  it("leaves offline tokens alone: they live by offlineTokenLifespan of idleness, past the bound", async () => {
    const { code } = await newCode({ scope: "openid offline_access" });
    let res = await exchange(code);
    expect(res.refreshExpiresIn).toBe(86_400);
    for (let i = 0; i < 3; i++) {
      clock.advance(3000 * S);
      res = await refresh(res.refreshToken);
      expect(res.refreshExpiresIn).toBe(86_400);
      expect(res.expiresIn).toBe(300);
    }
    expect(await introspect(res.refreshToken)).toMatchObject({ active: true });
  });
});
