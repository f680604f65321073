import { fromBinary } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import { generate } from "otplib";
import type { AuthenticationService } from "../../../../gen/iam/directory/v1/authentication_pb.js";
import type { UserService } from "../../../../gen/iam/directory/v1/user_pb.js";
import { ScopeKind } from "../../../../gen/iam/directory/v1/client_scope_pb.js";
import { LoginEventSchema, type LoginEvent } from "../../../../gen/iam/audit/v1/audit_pb.js";
import { sha256Hex } from "../../../kit/src/crypto/random.js";
import type { KeyRing } from "../domain/key-ring.js";
import type { SsoSessionRepository } from "../store/sso-session-repository.js";
import type { AuthorizationCodeRepository } from "../store/authorization-code-repository.js";
import type { DeviceCodeRepository } from "../store/device-code-repository.js";
import type { RefreshFamilyRepository } from "../store/refresh-family-repository.js";
import type { RefreshFamilyRecord } from "../domain/refresh-family.js";
import type { BrowserFlow } from "./browser-flow.js";
import type { FlowReply } from "./flow-reply.js";
import type { StepContext } from "./flow-kit.js";
import { FLOW_BASE, buildFlowWorld, ctx, next, page, redirect, type FlowWorld } from "./flow-test-kit.js";

// The browser flow against the real directory module built in-process (real Connect routing,
// sqlite :memory:, the in-memory bus, a manual clock): password, TOTP (codes from otplib as an
// independent oracle), required actions, consent, SSO reuse, codes, device approval, logout,
// registration and the login events the flow publishes.
describe("browser flow (token service, real directory in-process)", () => {
  let now = Date.parse("2026-11-22T10:00:00Z");
  const clock = { now: () => now };
  let world: FlowWorld;
  let flow: BrowserFlow;
  let keys: KeyRing;
  let codes: AuthorizationCodeRepository;
  let devices: DeviceCodeRepository;
  let families: RefreshFamilyRepository;
  let sessionsRepo: SsoSessionRepository;
  let users: Client<typeof UserService>;
  let authn: Client<typeof AuthenticationService>;
  let realmId = "";
  let aliceId = "";
  const events: LoginEvent[] = [];
  const BASE = FLOW_BASE;
  const CB = "https://app.example.com/cb";
  const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
  const PW = "correct-horse-9";
  const totp = (secret: string) => generate({ secret, epoch: Math.floor(now / 1000) });

  beforeAll(async () => {
    world = await buildFlowWorld(clock);
    ({ flow, keys, codes, devices, families, sessionsRepo, users, authn } = world);
    const { realms, clients } = world;
    await world.bus.subscribe({ durable: "test-events", subject: "iam.*.v1.login-event.recorded" }, async (m) => {
      events.push(fromBinary(LoginEventSchema, m.payload));
    });
    realmId = (await realms.createRealm({ realm: {
      name: "acme", eventsEnabled: true, bruteForceEnabled: true, maxLoginFailures: 3, passwordRequireDigits: true,
    } })).realm!.id;
    await realms.createRealm({ realm: { name: "strict", mfaRequired: true } });
    for (const [realm, clientId] of [["acme", "spa"], ["acme", "asks"], ["strict", "spa"]] as const) {
      await clients.createClient({ realm, client: {
        clientId, name: clientId.toUpperCase(), clientType: "PUBLIC", redirectUris: [CB], requireConsent: clientId === "asks",
        grantTypes: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"], grantTypesPresent: true,
      } });
    }
    aliceId = (await users.createUser({ realm: "acme", user: { username: "alice", email: "alice@example.com", password: PW } })).user!.id;
    await users.createUser({ realm: "acme", user: { username: "off", password: PW, enabled: false } });
    await users.createUser({ realm: "acme", user: { username: "locky", password: PW } });
    await users.createUser({ realm: "acme", user: { username: "bob", password: PW } });
    await users.createUser({ realm: "strict", user: { username: "carol", password: PW, requirePasswordReset: true } });
  }, 60_000);
  afterAll(async () => {
    await world.close();
  });

  const params = (extra: Record<string, string> = {}) => ({
    client_id: "spa", redirect_uri: CB, response_type: "code", scope: "openid profile", state: "s1", nonce: "n1",
    code_challenge: CHALLENGE, code_challenge_method: "S256", ...extra,
  });

  it("logs in with a password and issues a code bound to client, redirect_uri and PKCE", async () => {
    const begun = await flow.authorization.begin(ctx(), params({ login_hint: "ali" }));
    expect(page(begun)).toMatchObject({ step: "login", username: "ali", clientName: "SPA" });
    expect(begun.formActionOrigin).toBe("https://app.example.com");
    const wrong = await flow.steps.submitCredentials(next(begun), "alice", "nope");
    expect(page(wrong).message).toBe("Invalid username or password.");
    for (let i = 0; i < 3; i++) await flow.steps.submitCredentials(next(begun), "locky", "wrong-password-1");
    const locked = await flow.steps.submitCredentials(next(begun), "locky", PW);
    expect(page(locked).message).toBe("Invalid username or password.");
    const off = await flow.steps.submitCredentials(next(begun), "off", PW);
    expect(page(off).message).toBe("Account is disabled.");
    // Without the password, a disabled account looks like any other failure.
    expect(page(await flow.steps.submitCredentials(next(begun), "off", "wrong-password-1")).message).toBe("Invalid username or password.");

    const done = await flow.steps.submitCredentials(next(begun), "alice", PW);
    const at = redirect(done);
    expect([...at.searchParams.keys()]).toEqual(["code", "state", "iss"]);
    expect(at.searchParams.get("state")).toBe("s1");
    expect(at.searchParams.get("iss")).toBe(`${BASE}/realms/acme`);
    const code = at.searchParams.get("code")!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const record = await codes.findByHash(sha256Hex(code));
    expect(record).toMatchObject({
      realmId: realmId, clientId: "spa", redirectUri: CB, userId: aliceId, scope: "openid profile", nonce: "n1",
      codeChallenge: CHALLENGE, codeChallengeMethod: "S256", amr: ["pwd"], acr: "1", usableUntil: now + 60_000, expiresAt: now + 600_000,
    });
    expect(done.setSsoCookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const session = await sessionsRepo.findByCookieHash(realmId, sha256Hex(done.setSsoCookie!));
    expect(session).toMatchObject({ _id: record!.ssoSessionId, userId: aliceId, clientIds: ["spa"], expiresAt: now + 1_800_000 });

    // The finished transaction cannot be replayed.
    expect((await flow.steps.submitCredentials(next(begun), "alice", PW)).outcome).toMatchObject({ kind: "error", error: "invalid_transaction" });
    // Another browser cannot continue a transaction.
    const fresh = await flow.authorization.begin(ctx(), params());
    const stolen = await flow.steps.submitCredentials({ ...next(fresh), browserId: "browser-2" }, "alice", PW);
    expect(stolen.outcome).toMatchObject({ kind: "error", error: "invalid_transaction" });

    // SSO: the cookie alone yields a code; prompt=login and an old max_age ask again.
    const sso = await flow.authorization.begin(ctx({ ssoCookie: done.setSsoCookie! }), params());
    expect(redirect(sso).searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sso.setSsoCookie).toBeUndefined();
    // No credentials in this request: the code records the SSO level (acr "0").
    expect(await codes.findByHash(sha256Hex(redirect(sso).searchParams.get("code")!))).toMatchObject({ ssoSessionId: session!._id, amr: ["pwd"], acr: "0" });
    now += 5_000;
    expect(page(await flow.authorization.begin(ctx({ ssoCookie: done.setSsoCookie! }), params({ max_age: "3" }))).step).toBe("login");
    const again = await flow.authorization.begin(ctx({ ssoCookie: done.setSsoCookie! }), params({ prompt: "login" }));
    const reauth = await flow.steps.submitCredentials(next(again, done.setSsoCookie!), "alice", PW);
    expect(reauth.setSsoCookie).toBeUndefined();
    expect((await sessionsRepo.findById(realmId, session!._id))?.authTime).toBe(now);
    redirect(reauth);
  });

  it("asks for a TOTP code when the user has one; a replayed code is refused", async () => {
    const bobId = (await users.listUsers({ realm: "acme", username: "bob" })).users[0]!.id;
    const enrol = await authn.beginOtpEnrollment({ realm: "acme", userId: bobId });
    expect((await authn.confirmOtpEnrollment({ realm: "acme", userId: bobId, code: await totp(enrol.secret) })).confirmed).toBe(true);
    now += 30_000;
    const begun = await flow.authorization.begin(ctx(), params());
    const otp = await flow.steps.submitCredentials(next(begun), "bob", PW);
    expect(page(otp).step).toBe("otp");
    const good = await totp(enrol.secret);
    const wrong = String((Number(good) + 1) % 1_000_000).padStart(6, "0");
    expect(page(await flow.steps.submitOtp(next(otp), wrong)).message).toBe("Invalid authenticator code.");
    const done = await flow.steps.submitOtp(next(otp), good);
    const record = await codes.findByHash(sha256Hex(redirect(done).searchParams.get("code")!));
    expect(record?.amr).toEqual(["pwd", "otp"]);
    const again = await flow.steps.submitCredentials(next(await flow.authorization.begin(ctx(), params())), "bob", PW);
    expect(page(await flow.steps.submitOtp(next(again), good)).message).toBe("Invalid authenticator code.");
  });

  it("runs CONFIGURE_TOTP (QR secret, recovery codes once) and UPDATE_PASSWORD before the code", async () => {
    const sctx = (e: Partial<StepContext> = {}) => ctx({ realm: "strict", ...e });
    const nx = (r: FlowReply) => sctx({ transactionId: page(r).transactionId ?? "", csrfToken: page(r).csrfToken ?? "" });
    const begun = await flow.authorization.begin(sctx(), params());
    const enroll = await flow.steps.submitCredentials(nx(begun), "carol", PW);
    expect(page(enroll)).toMatchObject({ step: "otp_enroll" });
    const secret = page(enroll).otpSecret!;
    expect(page(enroll).otpauthUri).toContain(`secret=${secret}`);
    expect(page(await flow.steps.confirmOtpEnrollment(nx(enroll), "111111"))).toMatchObject({ step: "otp_enroll", message: "Invalid authenticator code.", otpSecret: secret });
    const codesPage = await flow.steps.confirmOtpEnrollment(nx(enroll), await totp(secret));
    expect(page(codesPage)).toMatchObject({ step: "recovery_codes" });
    expect(page(codesPage).recoveryCodes!.length).toBeGreaterThan(0);
    const pwd = await flow.steps.continue(nx(codesPage));
    expect(page(pwd).step).toBe("update_password");
    expect(page(await flow.steps.submitNewPassword(nx(pwd), "longenough", "different"))).toMatchObject({ message: "The passwords do not match." });
    // Listed as the registration page lists the same refusal: one line per failed rule.
    const refused = page(await flow.steps.submitNewPassword(nx(pwd), "short", "short"));
    expect([refused.step, refused.message, refused.messages]).toEqual([
      "update_password", undefined, ["The password does not meet the password policy:", "- at least 8 characters"],
    ]);
    const done = await flow.steps.submitNewPassword(nx(pwd), "brand-new-pass-1", "brand-new-pass-1");
    redirect(done);
    expect((await authn.authenticatePassword({ realm: "strict", username: "carol", password: "brand-new-pass-1" })).requiredActions).toEqual([]);
  });

  it("asks for consent to the shown scopes the tokens will carry, defaults included, and again for a new one (OIDC Core 3.1.2.4)", async () => {
    const texts: Record<string, string> = { email: "Email address", profile: "User profile", phone: "Phone number" };
    const text = (name: string) => ({ name, text: texts[name] });
    // scope=openid still gets the client's default scopes: those shown on the consent screen are
    // listed (roles, web-origins, acr and basic are not; openid is the protocol, not a client scope).
    const begun = await flow.authorization.begin(ctx(), params({ client_id: "asks", scope: "openid" }));
    const consent = await flow.steps.submitCredentials(next(begun), "alice", PW);
    expect(page(consent)).toMatchObject({
      step: "consent", clientName: "ASKS", username: "alice", scopes: ["email", "profile"], consentScopes: [text("email"), text("profile")],
    });
    const cookie = consent.setSsoCookie!;
    const silently = async (extra: Record<string, string>) => {
      const at = redirect(await flow.authorization.begin(ctx({ ssoCookie: cookie }), params({ client_id: "asks", prompt: "none", ...extra })));
      return at.searchParams.get("error") ?? (at.searchParams.get("code") ? "code" : "none");
    };
    expect(await silently({ scope: "openid" })).toBe("consent_required");
    redirect(await flow.steps.submitConsent(next(consent, cookie), true));
    expect(await silently({ scope: "openid email" })).toBe("code");
    expect(await silently({ scope: "email" })).toBe("code");

    // A requested optional scope that is shown is asked for, alone.
    expect(await silently({ scope: "openid phone" })).toBe("consent_required");
    const phone = await flow.authorization.begin(ctx({ ssoCookie: cookie }), params({ client_id: "asks", scope: "openid phone" }));
    expect(page(phone)).toMatchObject({ step: "consent", scopes: ["phone"], consentScopes: [text("phone")] });
    redirect(await flow.steps.submitConsent(next(phone, cookie), true));
    expect(await silently({ scope: "openid phone" })).toBe("code");

    // A default scope the client gets later: the next request asks for it alone, with its
    // description as the text (its name when it has none).
    for (const [name, description] of [["dept", "Your department"], ["team", ""]] as const) {
      const scope = (await world.scopes.createClientScope({ realm: "acme", scope: { name, description } })).scope!;
      await world.scopes.assignScope({ realm: "acme", clientId: "asks", kind: ScopeKind.DEFAULT, clientScopeId: scope.id });
    }
    now += 31_000; // past the token service's client cache (ClientDirectory; events drop it in a deployment)
    expect(await silently({ scope: "openid" })).toBe("consent_required");
    const added = await flow.authorization.begin(ctx({ ssoCookie: cookie }), params({ client_id: "asks", scope: "openid" }));
    expect(page(added)).toMatchObject({ step: "consent", scopes: ["dept", "team"], consentScopes: [{ name: "dept", text: "Your department" }, { name: "team", text: "team" }] });
    redirect(await flow.steps.submitConsent(next(added, cookie), true));
    expect(await silently({ scope: "openid" })).toBe("code");

    // prompt=consent lists everything shown again; denying answers access_denied.
    const ask = await flow.authorization.begin(ctx({ ssoCookie: cookie }), params({ client_id: "asks", prompt: "consent" }));
    expect(page(ask).scopes).toEqual(["dept", "email", "profile", "team"]);
    const denied = await flow.steps.submitConsent(next(ask, cookie), false);
    expect(redirect(denied).searchParams.get("error")).toBe("access_denied");
  });

  it("approves a device code after login (RFC 8628 3.3)", async () => {
    await devices.insert({
      _id: "dc-1", realmId: realmId, realmName: "acme", clientId: "spa", userCode: "WDJBMJHT", scope: "openid",
      status: "pending", interval: 5, lastPolledAt: 0, createdAt: now, expiresAt: now + 600_000,
    });
    expect(page(await flow.device.begin(ctx(), "XXXX-XXXX")).message).toBe("Invalid or expired code. Please check the code and try again.");
    const login = await flow.device.begin(ctx(), "wdjb-mjht");
    // Shown as the device shows it (RFC 8628 section 6.1), also when a wrong password re-renders the page.
    expect(page(login)).toMatchObject({ step: "login", userCode: "WDJB-MJHT" });
    const wrong = await flow.steps.submitCredentials(next(login), "alice", "wrong-password-1");
    expect(page(wrong)).toMatchObject({ step: "login", userCode: "WDJB-MJHT", message: "Invalid username or password." });
    const consent = await flow.steps.submitCredentials(next(wrong), "alice", PW);
    // The same list as an authorization request's consent page: the default scopes shown.
    expect(page(consent)).toMatchObject({ step: "consent", userCode: "WDJB-MJHT", clientId: "spa", scopes: ["email", "profile"] });
    const done = await flow.steps.submitConsent(next(consent, consent.setSsoCookie!), true);
    expect(page(done)).toMatchObject({ step: "device_done", approved: true });
    expect(await devices.findByHash("dc-1")).toMatchObject({ status: "approved", userId: aliceId, amr: ["pwd"], acr: "1" });
  });

  it("does not approve a device code from an SSO session whose user owes a required action", async () => {
    const erinId = (await users.createUser({ realm: "acme", user: { username: "erin", password: PW } })).user!.id;
    const cookie = (await flow.steps.submitCredentials(next(await flow.authorization.begin(ctx(), params())), "erin", PW)).setSsoCookie!;
    await users.updateUser({ realm: "acme", userId: erinId, update: { requirePasswordReset: true } });
    await devices.insert({
      _id: "dc-2", realmId: realmId, realmName: "acme", clientId: "spa", userCode: "BCDFGHJK", scope: "openid",
      status: "pending", interval: 5, lastPolledAt: 0, createdAt: now, expiresAt: now + 600_000,
    });
    // Not the consent page: the session alone does not log in a user who must reset the password.
    const login = await flow.device.begin(ctx({ ssoCookie: cookie }), "BCDF-GHJK");
    expect(page(login)).toMatchObject({ step: "login", userCode: "BCDF-GHJK", username: "erin" });
    const pwd = await flow.steps.submitCredentials(next(login, cookie), "erin", PW);
    expect(page(pwd).step).toBe("update_password");
    const consent = await flow.steps.submitNewPassword(next(pwd, cookie), "brand-new-pass-2", "brand-new-pass-2");
    expect(page(consent)).toMatchObject({ step: "consent", userCode: "BCDF-GHJK", clientId: "spa" });
    expect(await devices.findByHash("dc-2")).toMatchObject({ status: "pending" });
    expect(page(await flow.steps.submitConsent(next(consent, cookie), true))).toMatchObject({ step: "device_done", approved: true });
    expect(await devices.findByHash("dc-2")).toMatchObject({ status: "approved", userId: erinId });
  });

  it("logs out at once with a valid id_token_hint, else after confirmation", async () => {
    const begun = await flow.authorization.begin(ctx(), params());
    const done = await flow.steps.submitCredentials(next(begun), "alice", PW);
    const cookie = done.setSsoCookie!;
    const session = await sessionsRepo.findByCookieHash(realmId, sha256Hex(cookie));
    const realm = { id: realmId, name: "acme", enabled: true, tokenLifespanSeconds: 1800 };
    // An access token of the same session (typ "Bearer") is no id_token_hint: refused, nothing ends.
    const accessToken = await keys.sign(realm, { iss: `${BASE}/realms/acme`, sub: aliceId, aud: "spa", sid: session!._id, typ: "Bearer", exp: Math.floor(now / 1000) + 60 });
    expect(await flow.logout.begin(ctx({ ssoCookie: cookie }), { idTokenHint: accessToken, postLogoutRedirectUri: CB, state: "bye", clientId: "" }))
      .toEqual({ outcome: { kind: "error", error: "invalid_request", description: "The id_token_hint is not valid.", status: 400 } });
    expect(await sessionsRepo.findById(realmId, session!._id)).not.toBeNull();
    // An expired ID token is still a valid hint (RP-Initiated Logout 1.0 section 2).
    const hint = await keys.sign(realm, { iss: `${BASE}/realms/acme`, sub: aliceId, aud: "spa", sid: session!._id, typ: "ID", exp: Math.floor(now / 1000) - 10 });
    const out = await flow.logout.begin(ctx({ ssoCookie: cookie }), { idTokenHint: hint, postLogoutRedirectUri: CB, state: "bye", clientId: "" });
    expect(out).toEqual({ clearSsoCookie: true, outcome: { kind: "redirect", uri: `${CB}?state=bye` }, formActionOrigin: "https://app.example.com" });
    expect(await sessionsRepo.findById(realmId, session!._id)).toBeNull();

    const second = await flow.steps.submitCredentials(next(await flow.authorization.begin(ctx(), params())), "alice", PW);
    const confirm = await flow.logout.begin(ctx({ ssoCookie: second.setSsoCookie! }), { idTokenHint: "", postLogoutRedirectUri: "", state: "", clientId: "" });
    expect(page(confirm)).toMatchObject({ step: "logout_confirm", username: "alice" });
    expect((await flow.logout.confirm({ ...next(confirm, second.setSsoCookie!), csrfToken: "wrong" }, true)).outcome).toMatchObject({ kind: "error" });
    const loggedOut = await flow.logout.confirm(next(confirm, second.setSsoCookie!), true);
    expect(loggedOut).toEqual({ clearSsoCookie: true, outcome: { kind: "page", page: { step: "logged_out", message: "You are logged out." } } });
    expect(await sessionsRepo.findByCookieHash(realmId, sha256Hex(second.setSsoCookie!))).toBeNull();
  });

  it("ends the OAuth session of a grant without SSO session that a hint's sid names, without a cookie (RP-Initiated Logout 1.0 section 2)", async () => {
    const realm = { id: realmId, name: "acme", enabled: true, tokenLifespanSeconds: 1800 };
    // What the password grant starts (refresh-families.ts): no SSO session, sid = the family's id.
    const family = (id: string, extra: Partial<RefreshFamilyRecord> = {}): RefreshFamilyRecord => ({
      _id: id, realmId, realmName: "acme", clientId: "spa", userId: aliceId, username: "alice", ssoSessionId: "", sid: id,
      offline: false, scope: "openid", currentHash: "h", previousHashes: [], authTime: now, amr: ["pwd"], ipAddress: "10.0.0.1",
      createdAt: now, lastRefreshAt: now, expiresAt: now + 1_800_000, ...extra,
    });
    const hintFor = (sid: string, sub = aliceId) =>
      keys.sign(realm, { iss: `${BASE}/realms/acme`, sub, aud: "spa", sid, typ: "ID", exp: Math.floor(now / 1000) + 60 });
    const logout = async (sid: string, sub?: string) =>
      flow.logout.begin(ctx(), { idTokenHint: await hintFor(sid, sub), postLogoutRedirectUri: CB, state: "bye", clientId: "" });
    const answered = { clearSsoCookie: true, outcome: { kind: "redirect", uri: `${CB}?state=bye` }, formActionOrigin: "https://app.example.com" };
    const ids = ["00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b", "00000000-0000-4000-8000-00000000000c"];
    const [own, offline, ofSso] = ids as [string, string, string];
    await families.insert(family(own));
    await families.insert(family(offline, { offline: true }));
    await families.insert(family(ofSso, { ssoSessionId: "gone-sso-session", sid: "gone-sso-session" }));

    // Another user's ID token names nothing of alice's; an offline session survives logout; a family
    // of an SSO session is named by that session's sid, not its own id: each answer is as before.
    expect(await logout(own, "someone-else")).toEqual(answered);
    expect(await logout(offline)).toEqual(answered);
    expect(await logout(ofSso)).toEqual(answered);
    for (const id of ids) expect(await families.get(realmId, id)).not.toBeNull();
    expect(events.filter((e) => e.type === "LOGOUT" && ids.includes(e.sessionId))).toEqual([]);

    expect(await logout(own)).toEqual(answered);
    expect(await families.get(realmId, own)).toBeNull();
    for (let i = 0; i < 100 && !events.some((e) => e.type === "LOGOUT" && e.sessionId === own); i++) await new Promise((r) => setTimeout(r, 10));
    const ended = events.filter((e) => e.type === "LOGOUT" && ids.includes(e.sessionId));
    expect(ended.map((e) => ({ clientId: e.clientId, userId: e.userId, sessionId: e.sessionId, ipAddress: e.ipAddress, details: { ...e.details } }))).toEqual([
      { clientId: "spa", userId: aliceId, sessionId: own, ipAddress: "10.0.0.1", details: { auth_method: "openid-connect", username: "alice" } },
    ]);
  });

  it("names the request's client in the LOGOUT event of a confirmed logout", async () => {
    const cookie = (await flow.steps.submitCredentials(next(await flow.authorization.begin(ctx(), params())), "alice", PW)).setSsoCookie!;
    const session = (await sessionsRepo.findByCookieHash(realmId, sha256Hex(cookie)))!;
    const confirm = await flow.logout.begin(ctx({ ssoCookie: cookie }), { idTokenHint: "", postLogoutRedirectUri: CB, state: "c", clientId: "spa" });
    expect(page(confirm)).toMatchObject({ step: "logout_confirm", username: "alice" });
    expect(redirect(await flow.logout.confirm(next(confirm, cookie), true)).href).toBe(`${CB}?state=c`);
    for (let i = 0; i < 100 && !events.some((e) => e.type === "LOGOUT" && e.sessionId === session._id); i++) await new Promise((r) => setTimeout(r, 10));
    expect(events.filter((e) => e.type === "LOGOUT" && e.sessionId === session._id)).toEqual([
      expect.objectContaining({ clientId: "spa", userId: aliceId, sessionId: session._id }),
    ]);
  });

  it("registers a user from the login page (policy errors listed) and logs them in", async () => {
    const begun = await flow.authorization.begin(ctx(), params());
    const form = await flow.registration.begin({ ...ctx(), transactionId: page(begun).transactionId! });
    expect(page(form).step).toBe("register");
    const form2 = { username: "dave", email: "dave@example.com", firstName: "Dave", lastName: "D", password: "short", confirmation: "short" };
    const refused = page(await flow.registration.submit(next(begun), form2));
    expect(refused.step).toBe("register");
    expect(refused.messages).toEqual(["The password does not meet the password policy:", expect.stringMatching(/8/), expect.stringMatching(/digit/)]);
    expect(refused).toMatchObject({ username: "dave", email: "dave@example.com", firstName: "Dave" });
    expect(page(await flow.registration.submit(next(begun), { ...form2, password: "long-pass-12", confirmation: "x" })).messages).toEqual(["The password confirmation does not match."]);
    expect(page(await flow.registration.submit(next(begun), { ...form2, username: "alice", password: "long-pass-12", confirmation: "long-pass-12" })).messages![0]).toMatch(/alice|exists|taken/i);
    const done = await flow.registration.submit(next(begun), { ...form2, password: "long-pass-12", confirmation: "long-pass-12" });
    const code = await codes.findByHash(sha256Hex(redirect(done).searchParams.get("code")!));
    const dave = (await users.listUsers({ realm: "acme", username: "dave" })).users[0]!;
    expect(code?.userId).toBe(dave.id);
    expect(dave).toMatchObject({ email: "dave@example.com", firstName: "Dave", emailVerified: false });
  });

  it("refuses the login of a client deleted and created again under its clientId while the page was open", async () => {
    const { clients } = world;
    const spec = { clientId: "reborn", clientType: "PUBLIC", redirectUris: [CB] };
    await clients.createClient({ realm: "acme", client: spec });
    const begun = await flow.authorization.begin(ctx(), params({ client_id: "reborn" }));
    expect(page(begun).step).toBe("login");
    await clients.deleteClient({ realm: "acme", clientId: "reborn" });
    await clients.createClient({ realm: "acme", client: spec });
    now += 31_000; // past the token service's client cache (ClientDirectory; events drop it in a deployment)
    // The transaction's code would be bound to the first client's id: that client is gone.
    expect((await flow.steps.submitCredentials(next(begun), "alice", PW)).outcome).toEqual({
      kind: "error", error: "invalid_client", description: "Unknown login requester.", status: 400,
    });
    for (let i = 0; i < 100 && !events.some((e) => e.clientId === "reborn"); i++) await new Promise((r) => setTimeout(r, 10));
    // Refused before the password was checked: the user is not known, the name typed is recorded.
    expect(events.filter((e) => e.clientId === "reborn").map((e) => [e.type, e.error, e.userId, e.details.username])).toEqual([["LOGIN_ERROR", "client_not_found", "", "alice"]]);
    // A login begun now is the new client's, and gets its code.
    const fresh = await flow.authorization.begin(ctx(), params({ client_id: "reborn" }));
    expect([...redirect(await flow.steps.submitCredentials(next(fresh), "alice", PW)).searchParams.keys()]).toEqual(["code", "state", "iss"]);
  });

  it("publishes the flow's login events with client, user, session and IP, never a secret", async () => {
    // The bus delivers asynchronously: wait for the last flow's events.
    for (let i = 0; i < 100 && !events.some((e) => e.type === "REGISTER"); i++) await new Promise((r) => setTimeout(r, 10));
    const types = events.map((e) => `${e.type}${e.error ? `:${e.error}` : ""}`);
    expect(types).toEqual(expect.arrayContaining([
      "LOGIN", "LOGIN_ERROR:invalid_user_credentials", "LOGIN_ERROR:user_temporarily_disabled", "LOGIN_ERROR:user_disabled",
      "LOGIN_ERROR:invalid_user_totp", "REGISTER", "LOGOUT",
    ]));
    const login = events.find((e) => e.type === "LOGIN" && e.userId === aliceId)!;
    expect(login).toMatchObject({ realm: "acme", clientId: "spa", ipAddress: "10.0.0.1" });
    expect(login.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect({ ...login.details }).toEqual({ auth_method: "openid-connect", redirect_uri: CB, username: "alice" });
    const all = JSON.stringify(events.map((e) => ({ ...e, time: undefined, expiresAt: undefined })));
    for (const secret of [PW, "brand-new-pass-1", "long-pass-12", "wrong-password-1"]) expect(all).not.toContain(secret);
    // The "strict" realm does not record events.
    expect(events.filter((e) => e.realm === "strict")).toEqual([]);
  });
});
