import { ConnectError } from "@connectrpc/connect";
import { TestClock } from "../../kit/src/store/store-contract-kit.js";
import { OAuthFlowsWorld, expectOAuthError, oauthErrorOf, worldCalls } from "./oauth-flows-test-kit.js";

// Refresh token reuse detection (RFC 9700 section 4.14.2) and revocation of a user's refresh
// tokens, in-process (oauth-flows-test-kit.ts). The ordinary rotation rules: oauth-flows.test.ts.
describe("refresh token replays and revoked users", () => {
  const clock = new TestClock();
  let w: OAuthFlowsWorld;
  let realmId: string;
  let userId: string;
  beforeAll(async () => {
    w = await OAuthFlowsWorld.build(clock);
    ({ realmId, userId } = w);
  }, 60_000);
  afterAll(() => w.close());

  const { parts, webClient, token, exchange, introspect, newCode } = worldCalls(() => w);

  it("recognises a replay of a token rotated out any number of rotations ago, and is not fooled by a made-up one", async () => {
    const first = await exchange((await newCode()).code);
    let current = first.refreshToken;
    // More rotations than a family once remembered hashes (20): the first token is still known as this family's.
    for (let i = 0; i < 25; i++) current = (await token({ client: webClient(), grantType: "refresh_token", refreshToken: current })).refreshToken;
    const [familyId, generation] = current.split(".");
    expect(generation).toBe("25");
    // A token never issued, under the family's public id (its sid) with an old generation: refused, and it revokes nothing.
    const madeUp = `${familyId}.3.${"A".repeat(43)}.${"B".repeat(22)}`;
    const refusal = async (refreshToken: string) => {
      const e = await token({ client: webClient(), grantType: "refresh_token", refreshToken }).then(() => undefined, (err: unknown) => err as ConnectError);
      return [oauthErrorOf(e), e?.rawMessage];
    };
    expect(await refusal(madeUp)).toEqual(["invalid_grant", "Invalid refresh token"]);
    const live = await token({ client: webClient(), grantType: "refresh_token", refreshToken: current });
    // RFC 9700 section 4.14.2: the replay of the first token revokes the family, its current token and access tokens with it.
    expect(await refusal(first.refreshToken)).toEqual(["invalid_grant", "refresh token was already used; its session is revoked"]);
    await expectOAuthError(token({ client: webClient(), grantType: "refresh_token", refreshToken: live.refreshToken }), "invalid_grant");
    expect(await introspect(live.accessToken)).toEqual({ active: false });
  });

  it("refuses at once the refresh tokens of a user just revoked (disabled, deleted, password changed), before the consumer removes them", async () => {
    const before = await exchange((await newCode()).code);
    clock.advance(1000);
    // What the watch of user.disabled / password.changed notes in every replica (RecentUserRevocations).
    parts().recentRevocations.note(realmId, userId, clock.now());
    clock.advance(1000);
    const after = await exchange((await newCode()).code);
    expect(await introspect(before.refreshToken)).toEqual({ active: false });
    const e = await token({ client: webClient(), grantType: "refresh_token", refreshToken: before.refreshToken }).then(() => undefined, (err: unknown) => err as ConnectError);
    expect([oauthErrorOf(e), e?.rawMessage]).toEqual(["invalid_grant", "Session not active"]);
    // A session begun after the revocation is the user's new one.
    expect(await introspect(after.refreshToken)).toMatchObject({ active: true, sub: userId });
    expect((await token({ client: webClient(), grantType: "refresh_token", refreshToken: after.refreshToken })).refreshToken).toMatch(/\.1\./);
  });
});
