import { Code } from "@connectrpc/connect";
import { generate } from "otplib";
import { RequiredAction } from "../../../gen/iam/directory/v1/authentication_pb.js";
import { AuthOutcome, failureOf, startAuthnHarness, type AuthnHarness } from "./authentication-test-kit.js";
import { hotp, totpAt } from "./domain/totp.js";

// TOTP (RFC 6238) enrolment, verification window, replay, recovery codes and MFA administration,
// through real Connect routing with a manual clock. otplib v13 is the independent oracle for codes.
describe("TOTP, in-process", () => {
  let h: AuthnHarness;
  beforeAll(async () => { h = await startAuthnHarness(); });
  afterAll(async () => h?.stop());

  const oracle = (secret: string, ms: number) => generate({ secret, epoch: Math.floor(ms / 1000) });

  async function enrolled(realm: string, username: string) {
    const userId = await h.user(realm, username);
    const begun = await h.authn.beginOtpEnrollment({ realm, userId });
    const confirmed = await h.authn.confirmOtpEnrollment({ realm, userId, code: await oracle(begun.secret, h.clock.now()) });
    return { userId, secret: begun.secret, recoveryCodes: confirmed.recoveryCodes, begun, confirmed };
  }

  it("matches RFC 6238 appendix B (SHA-1, truncated to 6 digits) and otplib", async () => {
    const rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"; // base32 of "12345678901234567890"
    expect(totpAt(rfcSecret, 59_000)).toBe("287082");
    expect(totpAt(rfcSecret, 1_111_111_109_000)).toBe("081804");
    expect(totpAt(rfcSecret, 20_000_000_000_000)).toBe("353130");
    expect(hotp(rfcSecret, 1)).toBe("287082");
    expect(totpAt(rfcSecret, 1_234_567_890_000)).toBe(await oracle(rfcSecret, 1_234_567_890_000));
  });

  it("enrols: pending secret, wrong first code refused, right one confirms and returns 10 recovery codes once", async () => {
    const r = await h.realm({ mfaRequired: true });
    const userId = await h.user(r, "alice");
    expect((await h.login(r, "alice", "correct-horse-1")).requiredActions).toEqual([RequiredAction.CONFIGURE_TOTP]);
    expect(await failureOf(h.authn.confirmOtpEnrollment({ realm: r, userId, code: "123456" }))).toMatchObject({
      code: Code.FailedPrecondition, reason: "no_pending_enrollment",
    });
    const begun = await h.authn.beginOtpEnrollment({ realm: r, userId });
    expect(begun.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(begun.otpauthUri).toBe(`otpauth://totp/${r}:alice?secret=${begun.secret}&issuer=${r}&algorithm=SHA1&digits=6&period=30`);
    const wrong = (Number(await oracle(begun.secret, h.clock.now())) + 1) % 1_000_000;
    expect(await h.authn.confirmOtpEnrollment({ realm: r, userId, code: String(wrong).padStart(6, "0") }))
      .toMatchObject({ confirmed: false, recoveryCodes: [] });
    expect((await h.security.getMfaStatus({ realm: r, userId })).enabled).toBe(false);
    const ok = await h.authn.confirmOtpEnrollment({ realm: r, userId, code: await oracle(begun.secret, h.clock.now()) });
    expect(ok.confirmed).toBe(true);
    expect(ok.recoveryCodes).toHaveLength(10);
    expect(new Set(ok.recoveryCodes).size).toBe(10);
    for (const c of ok.recoveryCodes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect((await h.security.getMfaStatus({ realm: r, userId })).enabled).toBe(true);
    expect(await h.login(r, "alice", "correct-horse-1")).toMatchObject({ outcome: AuthOutcome.OK, otpRequired: true, requiredActions: [] });
    expect(await h.authn.getUserStatus({ realm: r, userId })).toMatchObject({ otpConfigured: true, requiredActions: [] });
    expect(await failureOf(h.authn.beginOtpEnrollment({ realm: r, userId }))).toMatchObject({ reason: "otp_already_configured" });
  });

  it("accepts one step of drift either side, each step once, never an older step", async () => {
    const r = await h.realm();
    const { userId, secret } = await enrolled(r, "bob");
    const verify = (code: string) => h.authn.verifyOtp({ realm: r, userId, code });
    const t0 = h.clock.now();
    // The enrolment code used the current step: it is not accepted again.
    expect(await verify(await oracle(secret, t0))).toMatchObject({ outcome: AuthOutcome.INVALID_CREDENTIALS, eventError: "invalid_user_credentials" });
    h.clock.advance(90);
    expect((await verify(totpAt(secret, t0 + 60_000))).outcome).toBe(AuthOutcome.OK); // previous step
    expect((await verify(totpAt(secret, t0 + 60_000))).outcome).toBe(AuthOutcome.INVALID_CREDENTIALS); // replay
    expect((await verify(totpAt(secret, t0 + 120_000))).outcome).toBe(AuthOutcome.OK); // next step
    expect((await verify(totpAt(secret, t0 + 90_000))).outcome).toBe(AuthOutcome.INVALID_CREDENTIALS); // older than the last used
    h.clock.advance(300);
    expect((await verify(totpAt(secret, h.clock.now() + 60_000))).outcome).toBe(AuthOutcome.INVALID_CREDENTIALS); // two steps ahead
    expect((await verify(totpAt(secret, h.clock.now() - 60_000))).outcome).toBe(AuthOutcome.INVALID_CREDENTIALS); // two steps behind
    expect((await verify(await oracle(secret, h.clock.now()))).outcome).toBe(AuthOutcome.OK);
    expect((await verify("abc")).outcome).toBe(AuthOutcome.INVALID_CREDENTIALS);
  });

  it("accepts each recovery code once in place of a code", async () => {
    const r = await h.realm();
    const { userId, recoveryCodes } = await enrolled(r, "carol");
    expect((await h.authn.verifyOtp({ realm: r, userId, code: recoveryCodes[3]! })).outcome).toBe(AuthOutcome.OK);
    expect((await h.authn.verifyOtp({ realm: r, userId, code: recoveryCodes[3]! })).outcome).toBe(AuthOutcome.INVALID_CREDENTIALS);
    expect((await h.authn.verifyOtp({ realm: r, userId, code: recoveryCodes[4]!.toUpperCase().replace("-", " ") })).outcome).toBe(AuthOutcome.OK);
    expect((await h.authn.verifyOtp({ realm: r, userId, code: "aaaaa-bbbbb" })).outcome).toBe(AuthOutcome.INVALID_CREDENTIALS);
  });

  it("counts wrong codes as brute-force failures: a locked user is refused even with the right code", async () => {
    const r = await h.realm({ bruteForceEnabled: true, maxLoginFailures: 2, lockoutDuration: 60 });
    const { userId, secret } = await enrolled(r, "dave");
    h.clock.advance(30);
    await h.authn.verifyOtp({ realm: r, userId, code: "000000" === totpAt(secret, h.clock.now()) ? "111111" : "000000" });
    await h.authn.verifyOtp({ realm: r, userId, code: "abcde-fghij" });
    expect(await h.authn.verifyOtp({ realm: r, userId, code: totpAt(secret, h.clock.now()) }))
      .toMatchObject({ outcome: AuthOutcome.LOCKED, eventError: "user_temporarily_disabled" });
    expect((await h.login(r, "dave", "correct-horse-1")).outcome).toBe(AuthOutcome.LOCKED);
    h.clock.advance(60);
    expect((await h.authn.verifyOtp({ realm: r, userId, code: totpAt(secret, h.clock.now()) })).outcome).toBe(AuthOutcome.OK);
  });

  it("answers unknown users, users without TOTP and disabled users", async () => {
    const r = await h.realm();
    expect(await h.authn.verifyOtp({ realm: r, userId: "nope", code: "123456" })).toMatchObject({
      outcome: AuthOutcome.INVALID_CREDENTIALS, eventError: "user_not_found",
    });
    const plain = await h.user(r, "erin");
    expect(await failureOf(h.authn.verifyOtp({ realm: r, userId: plain, code: "123456" }))).toMatchObject({ reason: "otp_not_configured" });
    const { userId } = await enrolled(r, "frank");
    await h.users.updateUser({ realm: r, userId, update: { enabled: false } });
    expect((await h.authn.verifyOtp({ realm: r, userId, code: "123456" })).outcome).toBe(AuthOutcome.DISABLED);
  });

  it("MFA reset removes TOTP and recovery codes; enrolment can start again", async () => {
    const r = await h.realm();
    const { userId, recoveryCodes } = await enrolled(r, "grace");
    await h.security.resetMfa({ realm: r, userId });
    expect((await h.security.getMfaStatus({ realm: r, userId })).enabled).toBe(false);
    expect((await h.login(r, "grace", "correct-horse-1")).otpRequired).toBe(false);
    expect(await failureOf(h.authn.verifyOtp({ realm: r, userId, code: recoveryCodes[0]! }))).toMatchObject({ reason: "otp_not_configured" });
    const again = await h.authn.beginOtpEnrollment({ realm: r, userId });
    expect(again.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await failureOf(h.security.getMfaStatus({ realm: r, userId: "nope" }))).toMatchObject({ code: Code.NotFound });
  });

  it("locks out TOTP guessing even with the right password: a password alone does not reset the counter", async () => {
    const r = await h.realm({ bruteForceEnabled: true, maxLoginFailures: 3 });
    const { userId, secret } = await enrolled(r, "guesser");
    h.clock.advance(60);
    const good = await oracle(secret, h.clock.now());
    const bad = String((Number(good) + 1) % 1_000_000).padStart(6, "0");
    for (let i = 0; i < 3; i++) {
      expect((await h.login(r, "guesser", "correct-horse-1")).outcome).toBe(AuthOutcome.OK);
      expect((await h.authn.verifyOtp({ realm: r, userId, code: bad })).outcome).toBe(AuthOutcome.INVALID_CREDENTIALS);
    }
    expect((await h.login(r, "guesser", "correct-horse-1")).outcome).toBe(AuthOutcome.LOCKED);
    expect((await h.authn.verifyOtp({ realm: r, userId, code: good })).outcome).toBe(AuthOutcome.LOCKED);
  });
});
