import { SecretBox, generateMasterKey } from "../../../kit/src/crypto/secret-box.js";
import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
import { RefreshFamilyRepository } from "../store/refresh-family-repository.js";
import { SsoSessionRepository } from "../store/sso-session-repository.js";
import type { OAuthRealm } from "./realm-settings.js";
import { RefreshFamilies } from "./refresh-families.js";
import { BROWSER_MAX_AGE_SECONDS, forLogin, rememberMeCookieMaxAge } from "./session-max.js";
import { SsoSessionKeepAlive } from "./sso-session-keep-alive.js";
import type { SsoSessionRecord } from "./sso-session.js";

const HOUR = 3_600_000;

/** A realm's bounds: refresh (idle) 30 min, SSO Session Max 10 h, remember-me idle 1 day and max 14 days. */
const realm: OAuthRealm = {
  id: "r1", name: "acme", enabled: true, tokenLifespanSeconds: 1800, accessTokenLifespan: 300, refreshTokenLifespan: 1800,
  offlineTokenLifespan: 2_592_000, eventsEnabled: false, eventsExpiration: 604_800, adminEventsEnabled: false, registrationAllowed: false,
  ssoSessionMaxLifespan: 36_000, rememberMe: true, ssoSessionIdleTimeoutRememberMe: 86_400, ssoSessionMaxLifespanRememberMe: 1_209_600,
  resetPasswordAllowed: false, requirePushedAuthorizationRequests: false,
};

describe("a login's bounds (Keycloak's SessionExpirationUtils)", () => {
  it("are the remember-me lifespans for a remembered login where they are set, else the usual ones", () => {
    const pick = (r: OAuthRealm) => [r.refreshTokenLifespan, r.ssoSessionMaxLifespan];
    expect(pick(forLogin(realm, true))).toEqual([86_400, 1_209_600]);
    expect(pick(forLogin(realm, false))).toEqual([1800, 36_000]);
    expect(pick(forLogin(realm, undefined))).toEqual([1800, 36_000]);
    // 0 is "not set": the usual value of that bound, each on its own.
    expect(pick(forLogin({ ...realm, ssoSessionIdleTimeoutRememberMe: 0 }, true))).toEqual([1800, 1_209_600]);
    expect(pick(forLogin({ ...realm, ssoSessionMaxLifespanRememberMe: 0 }, true))).toEqual([86_400, 36_000]);
    // The session's choice holds though the realm stops offering the box (Keycloak reads the session's).
    expect(pick(forLogin({ ...realm, rememberMe: false }, true))).toEqual([86_400, 1_209_600]);
  });

  it("give the remembered cookie a Max-Age of the remember-me max, else SSO Session Max, else the browser's longest", () => {
    expect(rememberMeCookieMaxAge(realm)).toBe(1_209_600);
    expect(rememberMeCookieMaxAge({ ...realm, ssoSessionMaxLifespanRememberMe: 0 })).toBe(36_000);
    expect(rememberMeCookieMaxAge({ ...realm, ssoSessionMaxLifespanRememberMe: 0, ssoSessionMaxLifespan: 0 })).toBe(34_560_000);
    expect(rememberMeCookieMaxAge({ ...realm, ssoSessionMaxLifespanRememberMe: 315_360_000 })).toBe(BROWSER_MAX_AGE_SECONDS);
  });
});

/** The bounds applied by the refresh families and the SSO session keep-alive, on the real SQLite store. */
describe("remember-me sessions and their refresh tokens", () => {
  let clock: TestClock;
  let store: SqliteStore;
  let sessions: SsoSessionRepository;
  let families: RefreshFamilies;
  let keepAlive: SsoSessionKeepAlive;

  beforeEach(async () => {
    clock = new TestClock();
    store = new SqliteStore({ path: ":memory:", sweepIntervalMs: 0, clock });
    sessions = await SsoSessionRepository.open(store);
    families = new RefreshFamilies(await RefreshFamilyRepository.open(store), clock, new SecretBox(generateMasterKey()));
    keepAlive = new SsoSessionKeepAlive(sessions, clock);
  });
  afterEach(async () => store.close());

  async function login(rememberMe: boolean): Promise<{ session: SsoSessionRecord; token: string }> {
    const now = clock.now();
    const session: SsoSessionRecord = {
      _id: `s-${rememberMe}`, realmId: realm.id, realmName: realm.name, userId: "u1", username: "alice", cookieHash: `h-${rememberMe}`,
      authTime: now, amr: ["pwd"], clientIds: ["web"], ipAddress: "127.0.0.1", ...(rememberMe ? { rememberMe } : {}),
      createdAt: now, lastSeenAt: now, expiresAt: now + forLogin(realm, rememberMe).refreshTokenLifespan * 1000,
    };
    await sessions.insert(session);
    const { token } = await families.start({
      realm, client: { id: "c1", clientId: "web" }, userId: "u1", username: "alice", ssoSessionId: session._id, offline: false, scope: "openid",
      authTime: now, amr: ["pwd"], acr: "1", ipAddress: "127.0.0.1", sessionStartedAt: now, rememberMe,
    });
    return { session, token };
  }

  it("last a day idle for a remembered login, where a usual one's end after 30 minutes", async () => {
    const remembered = await login(true);
    const usual = await login(false);
    clock.advance(HOUR);
    expect(await families.findCurrent(realm, usual.token)).toBeNull();
    const family = await families.check(realm, remembered.token, { id: "c1", clientId: "web" });
    expect(family.rememberMe).toBe(true);
    const rotated = await families.rotate(realm, family);
    expect(rotated.family.expiresAt - clock.now()).toBe(86_400_000);
    // The session, a day idle from the login, is not moved while more than half a day is left...
    expect(await keepAlive.extend(realm, remembered.session)).toBe(TestClock.START + 86_400_000);
    // ...then moved to a full idle day for the next token.
    clock.advance(13 * HOUR);
    expect(await keepAlive.extend(realm, remembered.session)).toBe(clock.now() + 86_400_000);
    clock.advance(86_400_000 - 12 * HOUR);
    expect(await families.findCurrent(realm, rotated.token)).toBeNull();
  });

  it("end at the remember-me max from the login however active, and never past it", async () => {
    const remembered = await login(true);
    let token = remembered.token;
    // A refresh every 12 hours: each within the idle day, past the usual 10-hour max.
    for (let elapsed = 0; elapsed + 12 * HOUR < 1_209_600_000; elapsed += 12 * HOUR) {
      clock.advance(12 * HOUR);
      const rotated = await families.rotate(realm, await families.check(realm, token, { id: "c1", clientId: "web" }));
      expect(rotated.family.expiresAt).toBe(Math.min(clock.now() + 86_400_000, TestClock.START + 1_209_600_000));
      token = rotated.token;
    }
    clock.t = TestClock.START + 1_209_600_000;
    // The family's end was capped at the max, so the token is gone as an expired one is.
    const refused: unknown = await families.check(realm, token, { id: "c1", clientId: "web" }).catch((e: unknown) => e);
    expect([(refused as Error).message, (refused as { oauthError: string }).oauthError]).toEqual(["Invalid refresh token", "invalid_grant"]);
    expect(await keepAlive.extend(realm, remembered.session)).toBeNull();
  });
});
