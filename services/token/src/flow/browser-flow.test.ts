import { Code, ConnectError, createRouterTransport } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { AuthenticationService, AuthOutcome, RequiredAction } from "../../../../gen/iam/directory/v1/authentication_pb.js";
import { ClientSchema, ClientService } from "../../../../gen/iam/directory/v1/client_pb.js";
import { RealmSchema, RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { openStore } from "../../../kit/src/store/open-store.js";
import { openBus } from "../../../kit/src/bus/open-bus.js";
import { SecretBox, generateMasterKey } from "../../../kit/src/crypto/secret-box.js";
import { sha256Hex } from "../../../kit/src/crypto/random.js";
import type { Bus } from "../../../kit/src/bus/port.js";
import type { Store } from "../../../kit/src/store/port.js";
import { ClientDirectory } from "../domain/client-directory.js";
import { KeyRing } from "../domain/key-ring.js";
import { SsoSessions } from "../domain/sso-sessions.js";
import { SigningKeyRepository } from "../store/signing-key-repository.js";
import { SsoSessionRepository } from "../store/sso-session-repository.js";
import { AuthorizationCodeRepository } from "../store/authorization-code-repository.js";
import { DeviceCodeRepository } from "../store/device-code-repository.js";
import { BrowserFlow } from "./browser-flow.js";
import type { FlowReply } from "./flow-reply.js";
import type { StepContext } from "./flow-kit.js";

// The browser flow against a fake directory (the real AuthenticationService is another branch's):
// password, TOTP, required actions, consent, SSO reuse, codes, device approval, logout.
describe("browser flow (token service, fake directory)", () => {
  let now = Date.parse("2026-11-22T10:00:00Z");
  const clock = { now: () => now };
  let store: Store;
  let bus: Bus;
  let flow: BrowserFlow;
  let keys: KeyRing;
  let codes: AuthorizationCodeRepository;
  let devices: DeviceCodeRepository;
  let sessionsRepo: SsoSessionRepository;
  const user = { otpRequired: false, actions: [] as RequiredAction[] };
  const calls: string[] = [];
  const BASE = "https://id.example.com";
  const CB = "https://app.example.com/cb";
  const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

  beforeAll(async () => {
    store = await openStore({ kind: "sqlite", path: ":memory:", clock });
    bus = await openBus({ kind: "memory", path: ":memory:" });
    const directory = createRouterTransport((r) => {
      r.service(RealmService, {
        getRealm: (req) => {
          if (req.name !== "acme") throw new ConnectError("no realm", Code.NotFound);
          return { realm: create(RealmSchema, { id: "realm-1", name: "acme", enabled: true, accessTokenLifespan: 300, refreshTokenLifespan: 1800 }) };
        },
      });
      r.service(ClientService, {
        getClient: (req) => {
          if (!["spa", "asks"].includes(req.clientId)) throw new ConnectError("no client", Code.NotFound);
          return { client: create(ClientSchema, { id: `id-${req.clientId}`, clientId: req.clientId, name: req.clientId.toUpperCase(), clientType: "PUBLIC", enabled: true, redirectUris: [CB], grantTypes: ["authorization_code"], requireConsent: req.clientId === "asks" }) };
        },
      });
      r.service(AuthenticationService, {
        authenticatePassword: (req) => {
          calls.push(`password:${req.username}`);
          if (req.username === "locked") return { outcome: AuthOutcome.LOCKED, userId: "u-locked" };
          if (req.username === "off") return { outcome: AuthOutcome.DISABLED, userId: "u-off" };
          if (req.username !== "alice" || req.password !== "pw") return { outcome: AuthOutcome.INVALID_CREDENTIALS };
          return { outcome: AuthOutcome.OK, userId: "u-alice", username: "alice", otpRequired: user.otpRequired, requiredActions: user.actions };
        },
        verifyOtp: (req) => ({ outcome: req.code === "123456" ? AuthOutcome.OK : AuthOutcome.INVALID_CREDENTIALS }),
        beginOtpEnrollment: () => ({ secret: "JBSWY3DPEHPK3PXP", otpauthUri: "otpauth://totp/acme:alice?secret=JBSWY3DPEHPK3PXP" }),
        confirmOtpEnrollment: (req) => (req.code === "654321" ? { confirmed: true, recoveryCodes: ["rc-1", "rc-2"] } : { confirmed: false }),
        changePassword: (req) => {
          if (req.newPassword.length < 8) throw new ConnectError("password must be at least 8 characters", Code.InvalidArgument);
          calls.push("changePassword");
          return {};
        },
        getUserStatus: () => ({ exists: true, enabled: true, username: "alice" }),
      });
    });
    keys = new KeyRing(await SigningKeyRepository.open(store), new SecretBox(generateMasterKey()), clock);
    sessionsRepo = await SsoSessionRepository.open(store);
    codes = await AuthorizationCodeRepository.open(store);
    devices = await DeviceCodeRepository.open(store);
    flow = await BrowserFlow.build({
      store, clock, keys, directory, clients: new ClientDirectory(directory, clock),
      sessions: new SsoSessions(sessionsRepo, bus, clock), codes, devices,
    });
  });
  afterAll(async () => {
    await bus.close();
    await store.close();
  });

  const ctx = (extra: Partial<StepContext> = {}): StepContext => ({
    realm: "acme", transactionId: "", csrfToken: "", browserId: "browser-1", ssoCookie: "", ipAddress: "10.0.0.1", baseUrl: BASE, ...extra,
  });
  const params = (extra: Record<string, string> = {}) => ({
    client_id: "spa", redirect_uri: CB, response_type: "code", scope: "openid profile", state: "s1", nonce: "n1",
    code_challenge: CHALLENGE, code_challenge_method: "S256", ...extra,
  });
  const page = (r: FlowReply) => {
    if (r.outcome.kind !== "page") throw new Error(`expected a page, got ${JSON.stringify(r.outcome)}`);
    return r.outcome.page;
  };
  const next = (r: FlowReply, cookie = ""): StepContext => {
    const p = page(r);
    return ctx({ transactionId: p.transactionId ?? "", csrfToken: p.csrfToken ?? "", ssoCookie: cookie });
  };
  const redirect = (r: FlowReply) => {
    if (r.outcome.kind !== "redirect") throw new Error(`expected a redirect, got ${JSON.stringify(r.outcome)}`);
    return new URL(r.outcome.uri);
  };

  it("logs in with a password and issues a code bound to client, redirect_uri and PKCE", async () => {
    const begun = await flow.authorization.begin(ctx(), params({ login_hint: "ali" }));
    expect(page(begun)).toMatchObject({ step: "login", username: "ali", clientName: "SPA" });
    expect(begun.formActionOrigin).toBe("https://app.example.com");
    const wrong = await flow.steps.submitCredentials(next(begun), "alice", "nope");
    expect(page(wrong).message).toBe("Invalid username or password.");
    const locked = await flow.steps.submitCredentials(next(begun), "locked", "pw");
    expect(page(locked).message).toBe("Invalid username or password.");
    const off = await flow.steps.submitCredentials(next(begun), "off", "pw");
    expect(page(off).message).toBe("Account is disabled.");

    const done = await flow.steps.submitCredentials(next(begun), "alice", "pw");
    const at = redirect(done);
    expect([...at.searchParams.keys()]).toEqual(["code", "state", "iss"]);
    expect(at.searchParams.get("state")).toBe("s1");
    expect(at.searchParams.get("iss")).toBe(`${BASE}/realms/acme`);
    const code = at.searchParams.get("code")!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const record = await codes.findByHash(sha256Hex(code));
    expect(record).toMatchObject({
      realmId: "realm-1", clientId: "spa", redirectUri: CB, userId: "u-alice", scope: "openid profile", nonce: "n1",
      codeChallenge: CHALLENGE, codeChallengeMethod: "S256", amr: ["pwd"], usableUntil: now + 60_000, expiresAt: now + 600_000,
    });
    expect(done.setSsoCookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const session = await sessionsRepo.findByCookieHash("realm-1", sha256Hex(done.setSsoCookie!));
    expect(session).toMatchObject({ _id: record!.ssoSessionId, userId: "u-alice", clientIds: ["spa"], expiresAt: now + 1_800_000 });

    // The finished transaction cannot be replayed.
    expect((await flow.steps.submitCredentials(next(begun), "alice", "pw")).outcome).toMatchObject({ kind: "error", error: "invalid_transaction" });
    // Another browser cannot continue a transaction.
    const fresh = await flow.authorization.begin(ctx(), params());
    const stolen = await flow.steps.submitCredentials({ ...next(fresh), browserId: "browser-2" }, "alice", "pw");
    expect(stolen.outcome).toMatchObject({ kind: "error", error: "invalid_transaction" });

    // SSO: the cookie alone yields a code; prompt=login and an old max_age ask again.
    const sso = await flow.authorization.begin(ctx({ ssoCookie: done.setSsoCookie! }), params());
    expect(redirect(sso).searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sso.setSsoCookie).toBeUndefined();
    now += 5_000;
    expect(page(await flow.authorization.begin(ctx({ ssoCookie: done.setSsoCookie! }), params({ max_age: "3" }))).step).toBe("login");
    const again = await flow.authorization.begin(ctx({ ssoCookie: done.setSsoCookie! }), params({ prompt: "login" }));
    const reauth = await flow.steps.submitCredentials(next(again, done.setSsoCookie!), "alice", "pw");
    expect(reauth.setSsoCookie).toBeUndefined();
    expect((await sessionsRepo.findById("realm-1", session!._id))?.authTime).toBe(now);
    redirect(reauth);
  });

  it("asks for a TOTP code when the user has one", async () => {
    user.otpRequired = true;
    const begun = await flow.authorization.begin(ctx(), params());
    const otp = await flow.steps.submitCredentials(next(begun), "alice", "pw");
    expect(page(otp).step).toBe("otp");
    expect(page(await flow.steps.submitOtp(next(otp), "000000")).message).toBe("Invalid authenticator code.");
    const done = await flow.steps.submitOtp(next(otp), "123456");
    const record = await codes.findByHash(sha256Hex(redirect(done).searchParams.get("code")!));
    expect(record?.amr).toEqual(["pwd", "otp"]);
    user.otpRequired = false;
  });

  it("runs CONFIGURE_TOTP (QR secret, recovery codes once) and UPDATE_PASSWORD before the code", async () => {
    user.actions = [RequiredAction.CONFIGURE_TOTP, RequiredAction.UPDATE_PASSWORD];
    const begun = await flow.authorization.begin(ctx(), params());
    const enroll = await flow.steps.submitCredentials(next(begun), "alice", "pw");
    expect(page(enroll)).toMatchObject({ step: "otp_enroll", otpSecret: "JBSWY3DPEHPK3PXP", otpauthUri: "otpauth://totp/acme:alice?secret=JBSWY3DPEHPK3PXP" });
    expect(page(await flow.steps.confirmOtpEnrollment(next(enroll), "111111"))).toMatchObject({ step: "otp_enroll", message: "Invalid authenticator code.", otpSecret: "JBSWY3DPEHPK3PXP" });
    const codesPage = await flow.steps.confirmOtpEnrollment(next(enroll), "654321");
    expect(page(codesPage)).toMatchObject({ step: "recovery_codes", recoveryCodes: ["rc-1", "rc-2"] });
    const pwd = await flow.steps.continue(next(codesPage));
    expect(page(pwd).step).toBe("update_password");
    expect(page(await flow.steps.submitNewPassword(next(pwd), "longenough", "different"))).toMatchObject({ message: "The passwords do not match." });
    expect(page(await flow.steps.submitNewPassword(next(pwd), "short", "short"))).toMatchObject({ message: "password must be at least 8 characters" });
    const done = await flow.steps.submitNewPassword(next(pwd), "longenough", "longenough");
    redirect(done);
    expect(calls).toContain("changePassword");
    user.actions = [];
  });

  it("asks for consent, remembers it, and answers consent_required / access_denied", async () => {
    const begun = await flow.authorization.begin(ctx(), params({ client_id: "asks", scope: "openid email" }));
    const consent = await flow.steps.submitCredentials(next(begun), "alice", "pw");
    expect(page(consent)).toMatchObject({ step: "consent", scopes: ["openid", "email"], clientName: "ASKS", username: "alice" });
    const cookie = consent.setSsoCookie!;
    const none = await flow.authorization.begin(ctx({ ssoCookie: cookie }), params({ client_id: "asks", scope: "openid email", prompt: "none" }));
    expect(redirect(none).searchParams.get("error")).toBe("consent_required");
    redirect(await flow.steps.submitConsent(next(consent, cookie), true));
    const remembered = await flow.authorization.begin(ctx({ ssoCookie: cookie }), params({ client_id: "asks", scope: "email" }));
    expect(redirect(remembered).searchParams.get("code")).toBeTruthy();
    const ask = await flow.authorization.begin(ctx({ ssoCookie: cookie }), params({ client_id: "asks", prompt: "consent" }));
    const denied = await flow.steps.submitConsent(next(ask, cookie), false);
    expect(redirect(denied).searchParams.get("error")).toBe("access_denied");
  });

  it("approves a device code after login (RFC 8628 3.3)", async () => {
    await devices.insert({
      _id: "dc-1", realmId: "realm-1", realmName: "acme", clientId: "spa", userCode: "WDJBMJHT", scope: "openid",
      status: "pending", interval: 5, lastPolledAt: 0, createdAt: now, expiresAt: now + 600_000,
    });
    expect(page(await flow.device.begin(ctx(), "XXXX-XXXX")).message).toBe("Invalid or expired code. Please check the code and try again.");
    const login = await flow.device.begin(ctx(), "wdjb-mjht");
    expect(page(login)).toMatchObject({ step: "login", userCode: "WDJBMJHT" });
    const consent = await flow.steps.submitCredentials(next(login), "alice", "pw");
    expect(page(consent)).toMatchObject({ step: "consent", userCode: "WDJBMJHT", clientId: "spa" });
    const done = await flow.steps.submitConsent(next(consent, consent.setSsoCookie!), true);
    expect(page(done)).toMatchObject({ step: "device_done", approved: true });
    expect(await devices.findByHash("dc-1")).toMatchObject({ status: "approved", userId: "u-alice", amr: ["pwd"] });
  });

  it("logs out at once with a valid id_token_hint, else after confirmation", async () => {
    const begun = await flow.authorization.begin(ctx(), params());
    const done = await flow.steps.submitCredentials(next(begun), "alice", "pw");
    const cookie = done.setSsoCookie!;
    const session = await sessionsRepo.findByCookieHash("realm-1", sha256Hex(cookie));
    const realm = { id: "realm-1", name: "acme", enabled: true, tokenLifespanSeconds: 1800 };
    const hint = await keys.sign(realm, { iss: `${BASE}/realms/acme`, sub: "u-alice", aud: "spa", sid: session!._id, exp: Math.floor(now / 1000) - 10 });
    const out = await flow.logout.begin(ctx({ ssoCookie: cookie }), { idTokenHint: hint, postLogoutRedirectUri: CB, state: "bye", clientId: "" });
    expect(out).toEqual({ clearSsoCookie: true, outcome: { kind: "redirect", uri: `${CB}?state=bye` }, formActionOrigin: "https://app.example.com" });
    expect(await sessionsRepo.findById("realm-1", session!._id)).toBeNull();

    const second = await flow.steps.submitCredentials(next(await flow.authorization.begin(ctx(), params())), "alice", "pw");
    const confirm = await flow.logout.begin(ctx({ ssoCookie: second.setSsoCookie! }), { idTokenHint: "", postLogoutRedirectUri: "", state: "", clientId: "" });
    expect(page(confirm)).toMatchObject({ step: "logout_confirm", username: "alice" });
    expect((await flow.logout.confirm({ ...next(confirm, second.setSsoCookie!), csrfToken: "wrong" }, true)).outcome).toMatchObject({ kind: "error" });
    const loggedOut = await flow.logout.confirm(next(confirm, second.setSsoCookie!), true);
    expect(loggedOut).toEqual({ clearSsoCookie: true, outcome: { kind: "page", page: { step: "logged_out", message: "You are logged out." } } });
    expect(await sessionsRepo.findByCookieHash("realm-1", sha256Hex(second.setSsoCookie!))).toBeNull();
  });
});
