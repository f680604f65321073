import { TestClock } from "../../kit/src/store/store-contract-kit.js";
import type { SsoSessionRecord } from "./domain/sso-session.js";
import { OAuthFlowsWorld, expectOAuthError, oauthErrorOf, worldCalls } from "./oauth-flows-test-kit.js";

// Online refresh tokens and their SSO session (RFC 6749 sections 5.1 and 6), in-process
// (oauth-flows-test-kit.ts) with the test clock: the realm's refreshTokenLifespan is 1800 s, a
// browser login leaves the session 1800 s to live, and a refresh keeps it alive once less than
// half of that is left (sso-session-keep-alive.ts).
describe("online refresh tokens keep their SSO session alive", () => {
  const clock = new TestClock();
  let w: OAuthFlowsWorld;
  beforeAll(async () => {
    w = await OAuthFlowsWorld.build(clock);
  }, 60_000);
  afterAll(() => w.close());

  const { parts, webClient, token, exchange, introspect, newSession, newCode } = worldCalls(() => w);
  const refresh = (refreshToken: string) => token({ client: webClient(), grantType: "refresh_token", refreshToken });
  const sessionOf = (id: string) => parts().ssoRepo.findById(w.realmId, id);
  const S = 1000;

  /** Counts the keep-alive writes (the repository's conditional extend) while `run` runs. */
  async function countingExtends<T>(run: () => Promise<T>): Promise<{ result: T; extends: number }> {
    const repo = parts().ssoRepo;
    const extend = repo.extend.bind(repo);
    let n = 0;
    repo.extend = (...args) => {
      n++;
      return extend(...args);
    };
    try {
      return { result: await run(), extends: n };
    } finally {
      repo.extend = extend;
    }
  }

  it("refreshes steadily past the session's first end, one extra write per half lifespan, the access tokens staying active", async () => {
    const { code, session } = await newCode();
    const start = clock.now();
    let res = await exchange(code);
    expect(res.refreshExpiresIn).toBe(1800);
    const { result: answered, extends: writes } = await countingExtends(async () => {
      const seen: number[] = [];
      // Every 300 s for 3600 s: twice the lifespan, so well past the 1800 s the login gave the session.
      for (let i = 0; i < 12; i++) {
        clock.advance(299 * S);
        // The previous access token is still active just before its exp: its session lives.
        expect(await introspect(res.accessToken)).toMatchObject({ active: true, sid: session });
        clock.advance(1 * S);
        res = await refresh(res.refreshToken);
        seen.push(res.refreshExpiresIn);
        expect(await introspect(res.refreshToken)).toMatchObject({ active: true, exp: Math.floor((clock.now() + res.refreshExpiresIn * S) / 1000) });
      }
      return seen;
    });
    // The session is extended when less than 900 s are left (at 1200, 2400 and 3600 s); in between,
    // refresh_expires_in is the session's remaining life, never the family's 1800.
    expect(answered).toEqual([1500, 1200, 900, 1800, 1500, 1200, 900, 1800, 1500, 1200, 900, 1800]);
    expect(writes).toBe(3);
    expect(await sessionOf(session)).toMatchObject({ lastSeenAt: start + 3600 * S, expiresAt: start + 5400 * S });
  });

  it("answers refresh_expires_in with what happens: usable until then, the session ended at that instant", async () => {
    const late = await exchange((await newCode()).code);
    const soon = await exchange((await newCode()).code);
    clock.advance(600 * S);
    const lateNext = await refresh(late.refreshToken);
    const soonNext = await refresh(soon.refreshToken);
    expect([lateNext.refreshExpiresIn, soonNext.refreshExpiresIn]).toEqual([1200, 1200]);
    clock.advance(1200 * S - 1);
    expect((await refresh(soonNext.refreshToken)).refreshExpiresIn).toBe(1800);
    clock.advance(1);
    let caught: unknown;
    await refresh(lateNext.refreshToken).catch((e: unknown) => (caught = e));
    expect(oauthErrorOf(caught)).toBe("invalid_grant");
    expect((caught as Error).message).toContain("Session not active");
  });

  it("answers a code exchange with the session's remaining life, and keeps a session near its end alive", async () => {
    const session = await newSession();
    clock.advance(800 * S);
    // 1000 s left of the session the code is issued in: not worth a write, and not 1800 either.
    expect((await exchange((await newCode({ session })).code)).refreshExpiresIn).toBe(1000);
    expect((await sessionOf(session))?.expiresAt).toBe(clock.now() + 1000 * S);
    clock.advance(200 * S);
    // 800 s left: extended to a full lifespan.
    expect((await exchange((await newCode({ session })).code)).refreshExpiresIn).toBe(1800);
    expect((await sessionOf(session))?.expiresAt).toBe(clock.now() + 1800 * S);
  });

  it("does not revive a session a logout ends while a refresh is under way", async () => {
    const { code, session } = await newCode();
    const res = await exchange(code);
    clock.advance(1000 * S);
    const repo = parts().ssoRepo;
    const findById = repo.findById.bind(repo);
    // The logout lands after the refresh read the session and before it extends it.
    repo.findById = async (realmId, id) => {
      const found = await findById(realmId, id);
      // The record the logout ends is the one just read (its own read would land here again).
      if (id === session && found) await parts().sso.end(realmId, id, "logout", { known: found });
      return found;
    };
    try {
      await expectOAuthError(refresh(res.refreshToken), "invalid_grant");
    } finally {
      repo.findById = findById;
    }
    expect(await repo.sessions.get(session)).toBeNull();
    expect(await parts().familyRepo.get(w.realmId, res.refreshToken.split(".")[0]!)).toBeNull();
    expect(await introspect(res.accessToken)).toEqual({ active: false });
  });

  it("lets two refreshes of one session race: both succeed and neither shortens the other's extension", async () => {
    const first = await newCode();
    const second = await newCode({ session: first.session });
    const [a, b] = [await exchange(first.code), await exchange(second.code)];
    clock.advance(1000 * S);
    const [ra, rb] = await Promise.all([refresh(a.refreshToken), refresh(b.refreshToken)]);
    expect([ra.refreshExpiresIn, rb.refreshExpiresIn]).toEqual([1800, 1800]);
    const after = (await sessionOf(first.session)) as SsoSessionRecord;
    expect(after.expiresAt).toBe(clock.now() + 1800 * S);
    expect(await introspect(ra.accessToken)).toMatchObject({ active: true });
    expect(await introspect(rb.accessToken)).toMatchObject({ active: true });
  });
});
