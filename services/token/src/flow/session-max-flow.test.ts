import { sha256Hex } from "../../../kit/src/crypto/random.js";
import type { BrowserFlow } from "./browser-flow.js";
import { buildFlowWorld, ctx, next, page, redirect, type FlowWorld } from "./flow-test-kit.js";

// SSO Session Max in the browser (domain/session-max.ts), with the realm's ssoSessionMaxLifespan at
// 3600 and the realm's refreshTokenLifespan (the idle timeout) at its default 1800: a browser that
// keeps coming back keeps its session alive only until an hour after the login.
describe("SSO Session Max: the browser's session ends that long after the login, however active", () => {
  let now = Date.parse("2026-11-24T10:00:00Z");
  const clock = { now: () => now };
  let world: FlowWorld;
  let flow: BrowserFlow;
  let realmId = "";
  const CB = "https://app.example.com/cb";
  const PW = "correct-horse-9";
  const S = 1000;
  const params = (extra: Record<string, string> = {}) => ({
    client_id: "spa", redirect_uri: CB, response_type: "code", scope: "openid", state: "s1",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", code_challenge_method: "S256", ...extra,
  });

  beforeAll(async () => {
    world = await buildFlowWorld(clock);
    flow = world.flow;
    realmId = (await world.realms.createRealm({ realm: { name: "acme", ssoSessionMaxLifespan: 3600 } })).realm!.id;
    await world.clients.createClient({ realm: "acme", client: {
      clientId: "spa", clientType: "PUBLIC", redirectUris: [CB], grantTypes: ["authorization_code", "refresh_token"], grantTypesPresent: true,
    } });
    await world.users.createUser({ realm: "acme", user: { username: "alice", password: PW } });
  }, 60_000);
  afterAll(() => world.close());

  async function login(): Promise<{ cookie: string; sessionId: string }> {
    const done = await flow.steps.submitCredentials(next(await flow.authorization.begin(ctx(), params())), "alice", PW);
    const code = redirect(done).searchParams.get("code")!;
    const record = await world.codes.findByHash(sha256Hex(code));
    return { cookie: done.setSsoCookie!, sessionId: record!.ssoSessionId };
  }

  it("moves the idle end with each use up to the bound, then answers prompt=none with login_required and shows the login page", async () => {
    const start = now;
    const { cookie, sessionId } = await login();
    const ends: number[] = [];
    // Back every 1000 s: always within the 1800 s idle timeout.
    for (let i = 0; i < 3; i++) {
      now += 1000 * S;
      expect(redirect(await flow.authorization.begin(ctx({ ssoCookie: cookie }), params({ prompt: "none" }))).searchParams.has("code")).toBe(true);
      ends.push((await world.sessionsRepo.findById(realmId, sessionId))!.expiresAt - start);
    }
    // 1000 + 1800 = 2800 s; then 3600 s, not 3800 or 4800: the bound.
    expect(ends).toEqual([2800 * S, 3600 * S, 3600 * S]);
    now = start + 3600 * S - 1;
    expect(redirect(await flow.authorization.begin(ctx({ ssoCookie: cookie }), params({ prompt: "none" }))).searchParams.has("code")).toBe(true);
    now = start + 3600 * S;
    const none = redirect(await flow.authorization.begin(ctx({ ssoCookie: cookie }), params({ prompt: "none" })));
    expect(none.searchParams.get("error")).toBe("login_required");
    expect(page(await flow.authorization.begin(ctx({ ssoCookie: cookie }), params())).step).toBe("login");
  });

  it("keeps the session's start when the user re-authenticates (prompt=login): the bound still counts from the first login", async () => {
    const start = now;
    const { cookie, sessionId } = await login();
    now += 1500 * S;
    await flow.authorization.begin(ctx({ ssoCookie: cookie }), params({ prompt: "none" })); // keeps it from idling out
    now += 1500 * S;
    const again = await flow.authorization.begin(ctx({ ssoCookie: cookie }), params({ prompt: "login" }));
    const reauth = await flow.steps.submitCredentials(next(again, cookie), "alice", PW);
    expect(reauth.setSsoCookie).toBeUndefined();
    expect(await world.sessionsRepo.findById(realmId, sessionId)).toMatchObject({ authTime: start + 3000 * S, createdAt: start, expiresAt: start + 3600 * S });
  });

  it("replaces a session past the bound at the next login: a new session, the old one ended", async () => {
    const start = now;
    const first = await login();
    now = start + 1700 * S;
    await flow.authorization.begin(ctx({ ssoCookie: first.cookie }), params()); // keeps it from idling out
    now = start + 3600 * S;
    const begun = await flow.authorization.begin(ctx({ ssoCookie: first.cookie }), params());
    const done = await flow.steps.submitCredentials(next(begun, first.cookie), "alice", PW);
    expect(done.setSsoCookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const second = (await world.codes.findByHash(sha256Hex(redirect(done).searchParams.get("code")!)))!.ssoSessionId;
    expect(second).not.toBe(first.sessionId);
    expect(await world.sessionsRepo.findById(realmId, first.sessionId)).toBeNull();
    expect(await world.sessionsRepo.findById(realmId, second)).toMatchObject({ createdAt: start + 3600 * S, expiresAt: start + 5400 * S });
  });
});
