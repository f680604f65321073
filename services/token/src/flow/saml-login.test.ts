import { fromBinary } from "@bufbuild/protobuf";
import { generate } from "otplib";
import { LoginEventSchema, type LoginEvent } from "../../../../gen/iam/audit/v1/audit_pb.js";
import { AuthOutcome } from "../../../../gen/iam/directory/v1/authentication_pb.js";
import type { BrowserFlow } from "./browser-flow.js";
import type { SsoSessionRepository } from "../store/sso-session-repository.js";
import { buildFlowWorld, ctx, next, page, samlComplete as complete, type FlowWorld } from "./flow-test-kit.js";

// SAML logins in the token service (saml-login.ts) against the real directory module built
// in-process (flow-test-kit.ts): the same login steps as OIDC, SSO reuse, ForceAuthn and IsPassive
// (SAML 2.0 core 3.4.1), ending SSO sessions. Lockout, disabling and TOTP are real directory state:
// realm "acme" locks after one failure (for one second), UpdateUser disables, TOTP is enrolled.
describe("SAML login transactions (token service, real directory in-process)", () => {
  let now = Date.parse("2026-11-22T10:00:00Z");
  const clock = { now: () => now };
  const PW = "correct-horse-9";
  const LOCKOUT_MS = 1_000;
  let world: FlowWorld;
  let flow: BrowserFlow;
  let sessions: SsoSessionRepository;
  let realmId = "";
  let aliceId = "";
  let ottoId = "";
  const totp = (secret: string) => generate({ secret, epoch: Math.floor(now / 1000) });
  const events: LoginEvent[] = [];

  beforeAll(async () => {
    world = await buildFlowWorld(clock);
    ({ flow, sessionsRepo: sessions } = world);
    realmId = (await world.realms.createRealm({ realm: {
      name: "acme", accessTokenLifespan: 300, refreshTokenLifespan: 1800, eventsEnabled: true,
      bruteForceEnabled: true, maxLoginFailures: 1, lockoutDuration: LOCKOUT_MS / 1000,
    } })).realm!.id;
    aliceId = (await world.users.createUser({ realm: "acme", user: { username: "alice", password: PW } })).user!.id;
    await world.users.createUser({ realm: "acme", user: { username: "locked", password: PW } });
    ottoId = (await world.users.createUser({ realm: "acme", user: { username: "otto", password: PW } })).user!.id;
    await world.bus.subscribe({ durable: "test-events", subject: "iam.*.v1.login-event.recorded" }, async (m) => {
      events.push(fromBinary(LoginEventSchema, m.payload));
    });
  }, 60_000);
  afterAll(async () => {
    await world.close();
  });

  const input = (extra: Partial<{ forceAuthn: boolean; isPassive: boolean; pendingId: string }> = {}) => ({
    pendingId: "pending-1", spEntityId: "urn:sp:one", spName: "SP One", forceAuthn: false, isPassive: false, ...extra,
  });

  async function loggedIn(): Promise<{ cookie: string; sessionId: string }> {
    const begun = await flow.saml.begin(ctx(), input());
    const done = await flow.steps.submitCredentials(next(begun), "alice", PW);
    return { cookie: done.setSsoCookie!, sessionId: complete(done).sessionId };
  }

  it("runs the OIDC login steps and ends with saml_complete, establishing the SSO session once", async () => {
    const begun = await flow.saml.begin(ctx(), input());
    expect(page(begun)).toMatchObject({ step: "login", clientId: "urn:sp:one", clientName: "SP One" });
    expect(begun.formActionOrigin).toBeUndefined();
    expect(page(await flow.steps.submitCredentials(next(begun), "alice", "nope")).message).toBe("Invalid username or password.");
    // One real failed login locks "locked" (maxLoginFailures 1); the right password then meets the lock.
    await flow.steps.submitCredentials(next(begun), "locked", "wrong-password-1");
    expect((await world.authn.authenticatePassword({ realm: "acme", username: "locked", password: PW })).outcome).toBe(AuthOutcome.LOCKED);
    expect(page(await flow.steps.submitCredentials(next(begun), "locked", PW)).message).toBe("Invalid username or password.");
    // alice's own "nope" locked her too: wait out the lockout.
    now += LOCKOUT_MS;
    const done = await flow.steps.submitCredentials(next(begun), "alice", PW);
    const c = complete(done);
    expect(c).toEqual({ kind: "saml_complete", pendingId: "pending-1", sessionId: expect.any(String), userId: aliceId, authTime: now });
    expect(done.setSsoCookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await sessions.findById(realmId, c.sessionId))?.clientIds).toEqual([]);
    // The transaction is finished: the same form cannot complete twice.
    expect(await flow.steps.submitCredentials(next(begun), "alice", PW)).toMatchObject({ outcome: { kind: "error", error: "invalid_transaction" } });
  });

  it("TOTP when the user has it, before saml_complete", async () => {
    const enrol = await world.authn.beginOtpEnrollment({ realm: "acme", userId: ottoId });
    expect((await world.authn.confirmOtpEnrollment({ realm: "acme", userId: ottoId, code: await totp(enrol.secret) })).confirmed).toBe(true);
    now += 30_000; // the next time step: the enrolment code is spent
    const begun = await flow.saml.begin(ctx(), input());
    const otp = await flow.steps.submitCredentials(next(begun), "otto", PW);
    expect(page(otp).step).toBe("otp");
    const good = await totp(enrol.secret);
    const wrong = String((Number(good) + 1) % 1_000_000).padStart(6, "0");
    expect(page(await flow.steps.submitOtp(next(otp), wrong)).message).toBe("Invalid authenticator code.");
    now += LOCKOUT_MS; // the wrong code counted as a failure and locked otto
    expect(complete(await flow.steps.submitOtp(next(otp), await totp(enrol.secret))).userId).toBe(ottoId);
  });

  it("reuses the SSO session; ForceAuthn re-authenticates into the same session; IsPassive never shows a page", async () => {
    const { cookie, sessionId } = await loggedIn();
    now += 60_000;
    const reused = await flow.saml.begin(ctx({ ssoCookie: cookie }), input({ pendingId: "pending-2" }));
    expect(complete(reused)).toMatchObject({ pendingId: "pending-2", sessionId, authTime: now - 60_000 });
    expect(reused.setSsoCookie).toBeUndefined();
    // A LOGIN for the page's login and one for the reuse, both naming the SP and the protocol.
    for (let i = 0; i < 100 && events.filter((e) => e.type === "LOGIN" && e.sessionId === sessionId).length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(events.filter((e) => e.type === "LOGIN" && e.sessionId === sessionId).map((e) => ({ clientId: e.clientId, userId: e.userId, details: { ...e.details } }))).toEqual([
      { clientId: "urn:sp:one", userId: aliceId, details: { auth_method: "saml", username: "alice" } },
      { clientId: "urn:sp:one", userId: aliceId, details: { auth_method: "saml", username: "alice" } },
    ]);

    const forced = await flow.saml.begin(ctx({ ssoCookie: cookie }), input({ forceAuthn: true }));
    expect(page(forced).step).toBe("login");
    const again = await flow.steps.submitCredentials(next(forced, cookie), "alice", PW);
    expect(complete(again)).toMatchObject({ sessionId, authTime: now });
    expect(again.setSsoCookie).toBeUndefined();

    expect(complete(await flow.saml.begin(ctx({ ssoCookie: cookie }), input({ isPassive: true }))).sessionId).toBe(sessionId);
    expect(await flow.saml.begin(ctx(), input({ isPassive: true }))).toMatchObject({ outcome: { kind: "error", error: "saml_no_passive", status: 400 } });
  });

  it("a disabled user's session is ended instead of reused", async () => {
    const { cookie, sessionId } = await loggedIn();
    await world.users.updateUser({ realm: "acme", userId: aliceId, update: { enabled: false } });
    try {
      expect(page(await flow.saml.begin(ctx({ ssoCookie: cookie }), input())).step).toBe("login");
      expect(await sessions.findById(realmId, sessionId)).toBeNull();
    } finally {
      await world.users.updateUser({ realm: "acme", userId: aliceId, update: { enabled: true } });
    }
  });

  it("EndSsoSession ends a session once", async () => {
    const { sessionId } = await loggedIn();
    expect(await flow.saml.endSession("acme", sessionId)).toEqual({ ended: true, userId: aliceId });
    expect(await flow.saml.endSession("acme", sessionId)).toEqual({ ended: false, userId: "" });
    expect(await flow.saml.endSession("nope", sessionId)).toEqual({ ended: false, userId: "" });
    expect(events.filter((e) => e.sessionId === sessionId && e.type === "LOGOUT")).toEqual([]);
  });

  it("EndSsoSession for an SP's LogoutRequest records its LOGOUT with the session's end, once", async () => {
    const { sessionId } = await loggedIn();
    const by = { spEntityId: "urn:sp:one", ipAddress: "10.0.0.7" };
    expect(await flow.saml.endSession("acme", sessionId, by)).toEqual({ ended: true, userId: aliceId });
    expect(await sessions.findById(realmId, sessionId)).toBeNull();
    // A second request (the SP's retry) ends nothing and records nothing.
    expect(await flow.saml.endSession("acme", sessionId, by)).toEqual({ ended: false, userId: "" });
    for (let i = 0; i < 100 && !events.some((e) => e.type === "LOGOUT" && e.sessionId === sessionId); i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 20));
    expect(events.filter((e) => e.type === "LOGOUT" && e.sessionId === sessionId).map((e) => ({
      realm: e.realm, clientId: e.clientId, userId: e.userId, ipAddress: e.ipAddress, details: { ...e.details },
    }))).toEqual([
      { realm: "acme", clientId: "urn:sp:one", userId: aliceId, ipAddress: "10.0.0.7", details: { auth_method: "saml", username: "alice" } },
    ]);
  });

  it("names the SAML protocol in the login page's events", async () => {
    const begun = await flow.saml.begin(ctx(), input());
    await flow.steps.submitCredentials(next(begun), "otto", "wrong-password-1");
    const wrongPassword = (e: LoginEvent) => e.type === "LOGIN_ERROR" && e.userId === ottoId && e.error === "invalid_user_credentials";
    for (let i = 0; i < 100 && !events.some(wrongPassword); i++) await new Promise((r) => setTimeout(r, 10));
    expect(events.filter(wrongPassword).map((e) => ({ clientId: e.clientId, error: e.error, details: { ...e.details } }))).toEqual([
      { clientId: "urn:sp:one", error: "invalid_user_credentials", details: { auth_method: "saml", username: "otto" } },
    ]);
  });
});
