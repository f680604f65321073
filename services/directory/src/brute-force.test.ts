import { Code } from "@connectrpc/connect";
import { RequiredAction } from "../../../gen/iam/directory/v1/authentication_pb.js";
import { AuthOutcome, failureOf, startAuthnHarness, type AuthnHarness } from "./authentication-test-kit.js";
import { HashingPool, type HashJobInput } from "./domain/hashing-pool.js";
import { MAX_PASSWORD } from "./domain/password-policy.js";

// AuthenticatePassword and brute-force protection (spec 3) through real Connect routing, with a
// manual clock: lockout after N, failure reset time, permanent lockout, unlock, atomic counting.
describe("AuthenticatePassword and brute force, in-process", () => {
  let h: AuthnHarness;
  beforeAll(async () => { h = await startAuthnHarness(); });
  afterAll(async () => h?.stop());

  async function failureRecord(realm: string, userId: string) {
    // Failures are written after their reply; a read through the directory waits for those of this process.
    await h.authn.getUserStatus({ realm, userId });
    const realmId = (await h.realms.getRealm({ name: realm })).realm!.id;
    const c = await h.store.collection<{ _id: string } & Record<string, unknown>>({ name: "login_failures" });
    return c.get(`${realmId}:${userId}`);
  }

  it("answers OK, wrong password, unknown user and disabled user with their event errors", async () => {
    const r = await h.realm();
    const id = await h.user(r, "Alice", "correct-horse-1", { email: "Alice@Example.test" });
    const ok = await h.login(r, "alice", "correct-horse-1");
    expect(ok).toMatchObject({ outcome: AuthOutcome.OK, userId: id, username: "Alice", otpRequired: false, requiredActions: [], eventError: "" });
    expect((await h.login(r, "ALICE@example.TEST", "correct-horse-1")).outcome).toBe(AuthOutcome.OK);
    expect(await h.login(r, "alice", "wrong-password")).toMatchObject({
      outcome: AuthOutcome.INVALID_CREDENTIALS, userId: id, eventError: "invalid_user_credentials",
    });
    expect(await h.login(r, "nobody", "correct-horse-1")).toMatchObject({
      outcome: AuthOutcome.INVALID_CREDENTIALS, userId: "", eventError: "user_not_found",
    });
    await h.users.updateUser({ realm: r, userId: id, update: { enabled: false } });
    expect(await h.login(r, "alice", "correct-horse-1")).toMatchObject({ outcome: AuthOutcome.DISABLED, eventError: "user_disabled" });
    // Only the right password learns that the account is disabled.
    expect(await h.login(r, "alice", "wrong-password")).toMatchObject({
      outcome: AuthOutcome.INVALID_CREDENTIALS, userId: id, eventError: "user_disabled",
    });
  });

  it("spends one password verification on every outcome, locked and disabled users included (no enumeration by timing)", async () => {
    const r = await h.realm({ bruteForceEnabled: true, maxLoginFailures: 2, lockoutDuration: 60, permanentLockoutAfter: 1 });
    await h.user(r, "kent");
    const lockedId = await h.user(r, "lola");
    const disabledId = await h.user(r, "mona");
    await h.users.updateUser({ realm: r, userId: disabledId, update: { enabled: false } });
    const permanentId = await h.user(r, "nils");
    for (let lockout = 0; lockout < 2; lockout++) {
      for (let i = 0; i < 2; i++) await h.login(r, "nils", "bad-password");
      h.clock.advance(60);
    }
    for (let i = 0; i < 2; i++) await h.login(r, "lola", "bad-password");
    expect((await h.security.listLockedUsers({ realm: r })).users.map((u) => [u.userId, u.permanent]).sort())
      .toEqual([[lockedId, false], [permanentId, true]].sort());

    // A spy on the real hashing pool: the verifications each login runs (the dummy's own hash,
    // made once per process, is a "hash" job and not counted).
    const real = HashingPool.prototype.run;
    let verifications = 0;
    HashingPool.prototype.run = function (this: HashingPool, job: HashJobInput) {
      if (job.kind === "verify") verifications++;
      return real.call(this, job);
    };
    const cases: Array<[string, string, AuthOutcome, string]> = [
      ["kent", "correct-horse-1", AuthOutcome.OK, ""],
      ["kent", "bad-password", AuthOutcome.INVALID_CREDENTIALS, "invalid_user_credentials"],
      ["nobody", "bad-password", AuthOutcome.INVALID_CREDENTIALS, "user_not_found"],
      ["lola", "correct-horse-1", AuthOutcome.LOCKED, "user_temporarily_disabled"],
      ["lola", "bad-password", AuthOutcome.LOCKED, "user_temporarily_disabled"],
      ["nils", "correct-horse-1", AuthOutcome.LOCKED, "user_disabled"],
      ["mona", "correct-horse-1", AuthOutcome.DISABLED, "user_disabled"],
      ["mona", "bad-password", AuthOutcome.INVALID_CREDENTIALS, "user_disabled"],
      // Longer than any password can be: no hash of it matches, but it costs what one that could does.
      ["kent", "x".repeat(MAX_PASSWORD + 1), AuthOutcome.INVALID_CREDENTIALS, "invalid_user_credentials"],
      ["nobody", "x".repeat(MAX_PASSWORD + 1), AuthOutcome.INVALID_CREDENTIALS, "user_not_found"],
    ];
    const got: unknown[] = [];
    try {
      for (const [username, password] of cases) {
        verifications = 0;
        const res = await h.login(r, username, password);
        got.push([username, password.length, res.outcome, res.eventError, verifications]);
      }
    } finally {
      HashingPool.prototype.run = real;
    }
    expect(got).toEqual(cases.map(([username, password, outcome, eventError]) => [username, password.length, outcome, eventError, 1]));
  });

  it("refuses an unknown realm and an empty realm as RPC errors", async () => {
    expect(await failureOf(h.login("no-such-realm", "a", "b"))).toMatchObject({ code: Code.NotFound });
    expect(await failureOf(h.login("", "a", "b"))).toMatchObject({ code: Code.InvalidArgument });
  });

  it("does not count failures when the realm has brute-force protection off", async () => {
    const r = await h.realm({ bruteForceEnabled: false, maxLoginFailures: 1 });
    const id = await h.user(r, "bob");
    for (let i = 0; i < 3; i++) await h.login(r, "bob", "nope-nope");
    expect((await h.login(r, "bob", "correct-horse-1")).outcome).toBe(AuthOutcome.OK);
    expect(await failureRecord(r, id)).toBeNull();
  });

  it("locks after maxLoginFailures for lockoutDuration, even for the right password, then lets in again", async () => {
    const r = await h.realm({ bruteForceEnabled: true, maxLoginFailures: 3, lockoutDuration: 60 });
    const id = await h.user(r, "carol");
    for (let i = 0; i < 2; i++) expect((await h.login(r, "carol", "bad-password")).outcome).toBe(AuthOutcome.INVALID_CREDENTIALS);
    expect((await h.login(r, "carol", "bad-password")).outcome).toBe(AuthOutcome.INVALID_CREDENTIALS);
    expect(await h.login(r, "carol", "correct-horse-1")).toMatchObject({
      outcome: AuthOutcome.LOCKED, userId: id, eventError: "user_temporarily_disabled",
    });
    const locked = await h.security.listLockedUsers({ realm: r });
    expect(locked.users).toHaveLength(1);
    expect(locked.users[0]).toMatchObject({
      userId: id, username: "carol", failureCount: 3, permanent: false, temporaryLockouts: 1,
      lockedUntil: BigInt(h.clock.now() + 60_000),
    });
    h.clock.advance(59);
    expect((await h.login(r, "carol", "correct-horse-1")).outcome).toBe(AuthOutcome.LOCKED);
    h.clock.advance(1);
    expect((await h.login(r, "carol", "correct-horse-1")).outcome).toBe(AuthOutcome.OK);
    expect((await h.security.listLockedUsers({ realm: r })).users).toEqual([]);
    // Success cleared the counter: two more failures do not lock.
    for (let i = 0; i < 2; i++) await h.login(r, "carol", "bad-password");
    expect((await h.login(r, "carol", "correct-horse-1")).outcome).toBe(AuthOutcome.OK);
  });

  it("resets the failure counter failureResetTime seconds after the last failure", async () => {
    const r = await h.realm({ bruteForceEnabled: true, maxLoginFailures: 3, failureResetTime: 100 });
    const id = await h.user(r, "dave");
    await h.login(r, "dave", "bad-password");
    await h.login(r, "dave", "bad-password");
    h.clock.advance(100);
    await h.login(r, "dave", "bad-password");
    expect(await failureRecord(r, id)).toMatchObject({ failureCount: 1 });
    await h.login(r, "dave", "bad-password");
    h.clock.advance(99);
    await h.login(r, "dave", "bad-password");
    expect(await failureRecord(r, id)).toMatchObject({ failureCount: 3, temporaryLockouts: 1 });
    expect((await h.login(r, "dave", "correct-horse-1")).outcome).toBe(AuthOutcome.LOCKED);
  });

  it("locks permanently once permanentLockoutAfter temporary lockouts happened; unlock re-enables", async () => {
    const r = await h.realm({ bruteForceEnabled: true, maxLoginFailures: 2, lockoutDuration: 10, permanentLockoutAfter: 1, adminEventsEnabled: true });
    const id = await h.user(r, "erin");
    await h.login(r, "erin", "bad-password");
    await h.login(r, "erin", "bad-password");
    expect((await h.login(r, "erin", "correct-horse-1")).outcome).toBe(AuthOutcome.LOCKED);
    h.clock.advance(10);
    await h.login(r, "erin", "bad-password");
    await h.login(r, "erin", "bad-password");
    h.clock.advance(86_400);
    expect(await h.login(r, "erin", "correct-horse-1")).toMatchObject({ outcome: AuthOutcome.LOCKED, eventError: "user_disabled" });
    expect((await h.users.getUser({ realm: r, userId: id })).user!.enabled).toBe(false);
    const status = await h.authn.getUserStatus({ realm: r, userId: id });
    expect(status).toMatchObject({ exists: true, enabled: false, username: "erin" });
    const locked = await h.security.listLockedUsers({ realm: r });
    expect(locked.users[0]).toMatchObject({ userId: id, permanent: true, lockedUntil: 0n, failureCount: 4, temporaryLockouts: 1 });

    await h.security.unlockUser({ realm: r, userId: id });
    expect((await h.users.getUser({ realm: r, userId: id })).user!.enabled).toBe(true);
    expect((await h.login(r, "erin", "correct-horse-1")).outcome).toBe(AuthOutcome.OK);
    expect((await h.security.listLockedUsers({ realm: r })).users).toEqual([]);
    expect(await failureOf(h.security.unlockUser({ realm: r, userId: "00000000-0000-4000-8000-000000000000" }))).toMatchObject({ reason: "user_not_found" });
  });

  it.each([
    ["the user's enabling", "users", "findOneAndUpdate"],
    ["the lockout record's removal", "login_failures", "findOneAndDelete"],
  ])("an unlock that fails at %s leaves the user locked out, and the retry finishes", async (_what, collection, method) => {
    const r = await h.realm({ bruteForceEnabled: true, maxLoginFailures: 2, lockoutDuration: 10, permanentLockoutAfter: 1 });
    const id = await h.user(r, "fred");
    await h.login(r, "fred", "bad-password");
    await h.login(r, "fred", "bad-password");
    h.clock.advance(10);
    await h.login(r, "fred", "bad-password");
    await h.login(r, "fred", "bad-password");
    h.clock.advance(86_400);
    expect(await h.login(r, "fred", "correct-horse-1")).toMatchObject({ outcome: AuthOutcome.LOCKED, eventError: "user_disabled" });
    expect((await h.users.getUser({ realm: r, userId: id })).user!.enabled).toBe(false);
    // The store fails one of the unlock's two writes once (a crash there, as far as the store shows).
    const c = await h.store.collection<{ _id: string } & Record<string, unknown>>({ name: collection });
    const proto = Object.getPrototypeOf(c) as Record<string, (...a: unknown[]) => Promise<unknown>>;
    const real = proto[method]!;
    let failed = false;
    proto[method] = async function (this: { name: string }, ...a: unknown[]) {
      if (this.name === collection && !failed) {
        failed = true;
        throw new Error("store unavailable");
      }
      return real.apply(this, a);
    };
    try {
      expect((await failureOf(h.security.unlockUser({ realm: r, userId: id }))).code).toBe(Code.Internal);
    } finally {
      proto[method] = real;
    }
    expect(failed).toBe(true);
    // Either nothing changed or the user is enabled with the permanent lockout still on record:
    // refused either way, and the admin's retry finishes the unlock.
    expect(await h.login(r, "fred", "correct-horse-1")).toMatchObject({ outcome: AuthOutcome.LOCKED, eventError: "user_disabled" });
    await h.security.unlockUser({ realm: r, userId: id });
    expect((await h.users.getUser({ realm: r, userId: id })).user!.enabled).toBe(true);
    expect((await h.login(r, "fred", "correct-horse-1")).outcome).toBe(AuthOutcome.OK);
  });

  it("counts 50 parallel wrong passwords exactly 50 times", async () => {
    const r = await h.realm({ bruteForceEnabled: true, maxLoginFailures: 1000 });
    const id = await h.user(r, "frank");
    const results = await Promise.all(Array.from({ length: 50 }, () => h.login(r, "frank", "bad-password")));
    expect(results.every((x) => x.outcome === AuthOutcome.INVALID_CREDENTIALS)).toBe(true);
    expect(await failureRecord(r, id)).toMatchObject({ failureCount: 50, pending: 50, temporaryLockouts: 0 });
  });

  it("locks exactly once when 50 parallel wrong passwords cross maxLoginFailures", async () => {
    const r = await h.realm({ bruteForceEnabled: true, maxLoginFailures: 5 });
    const id = await h.user(r, "grace");
    await Promise.all(Array.from({ length: 50 }, () => h.login(r, "grace", "bad-password")));
    expect(await failureRecord(r, id)).toMatchObject({ temporaryLockouts: 1, permanent: false });
    expect((await h.login(r, "grace", "correct-horse-1")).outcome).toBe(AuthOutcome.LOCKED);
  });

  it("names the required actions in order, including the password's max age", async () => {
    const r = await h.realm({ mfaRequired: true, requireEmailVerification: true, passwordMaxAgeDays: 2 });
    await h.user(r, "heidi", "correct-horse-1", { requirePasswordReset: true });
    expect((await h.login(r, "heidi", "correct-horse-1")).requiredActions).toEqual([
      RequiredAction.CONFIGURE_TOTP, RequiredAction.UPDATE_PASSWORD, RequiredAction.VERIFY_EMAIL,
    ]);
    const r2 = await h.realm({ passwordMaxAgeDays: 2 });
    const id = await h.user(r2, "ivan");
    expect((await h.login(r2, "ivan", "correct-horse-1")).requiredActions).toEqual([]);
    h.clock.advance(2 * 86_400 - 1);
    expect((await h.login(r2, "ivan", "correct-horse-1")).requiredActions).toEqual([]);
    h.clock.advance(1);
    expect((await h.login(r2, "ivan", "correct-horse-1")).requiredActions).toEqual([RequiredAction.UPDATE_PASSWORD]);
    expect((await h.authn.getUserStatus({ realm: r2, userId: id })).requiredActions).toEqual([RequiredAction.UPDATE_PASSWORD]);
    await h.authn.changePassword({ realm: r2, userId: id, newPassword: "a-new-password-2" });
    expect((await h.login(r2, "ivan", "a-new-password-2")).requiredActions).toEqual([]);
  });

  it("ChangePassword applies policy and history, clears requirePasswordReset", async () => {
    const r = await h.realm({ passwordHistoryCount: 2, passwordMinLength: 10 });
    const id = await h.user(r, "judy", "first-password-1", { requirePasswordReset: true });
    expect(await failureOf(h.authn.changePassword({ realm: r, userId: id, newPassword: "short-1" }))).toMatchObject({ reason: "invalid_password" });
    expect(await failureOf(h.authn.changePassword({ realm: r, userId: id, newPassword: "first-password-1" }))).toMatchObject({ reason: "invalid_password" });
    await h.authn.changePassword({ realm: r, userId: id, newPassword: "second-password-2" });
    expect((await h.users.getUser({ realm: r, userId: id })).user!.requirePasswordReset).toBe(false);
    expect((await h.login(r, "judy", "first-password-1")).outcome).toBe(AuthOutcome.INVALID_CREDENTIALS);
    expect(await h.login(r, "judy", "second-password-2")).toMatchObject({ outcome: AuthOutcome.OK, requiredActions: [] });
    expect(await h.authn.getUserStatus({ realm: r, userId: "unknown" })).toMatchObject({ exists: false, enabled: false });
  });
});
