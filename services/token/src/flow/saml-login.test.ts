import { Code, ConnectError, createRouterTransport } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { AuthenticationService, AuthOutcome } from "../../../../gen/iam/directory/v1/authentication_pb.js";
import { RealmSchema, RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { openStore } from "../../../kit/src/store/open-store.js";
import { openBus } from "../../../kit/src/bus/open-bus.js";
import { SecretBox, generateMasterKey } from "../../../kit/src/crypto/secret-box.js";
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

// SAML logins in the token service (saml-login.ts) against a fake directory: the same login steps
// as OIDC, SSO reuse, ForceAuthn and IsPassive (SAML 2.0 core 3.4.1), ending SSO sessions.
describe("SAML login transactions (token service, fake directory)", () => {
  let now = Date.parse("2026-11-22T10:00:00Z");
  const clock = { now: () => now };
  let store: Store;
  let bus: Bus;
  let flow: BrowserFlow;
  let sessions: SsoSessionRepository;
  const status = { enabled: true, otpRequired: false };

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
      r.service(AuthenticationService, {
        authenticatePassword: (req) => {
          if (req.username === "locked") return { outcome: AuthOutcome.LOCKED, userId: "u-locked" };
          if (req.username !== "alice" || req.password !== "pw") return { outcome: AuthOutcome.INVALID_CREDENTIALS };
          return { outcome: AuthOutcome.OK, userId: "u-alice", username: "alice", otpRequired: status.otpRequired, requiredActions: [] };
        },
        verifyOtp: (req) => ({ outcome: req.code === "123456" ? AuthOutcome.OK : AuthOutcome.INVALID_CREDENTIALS }),
        getUserStatus: () => ({ exists: true, enabled: status.enabled, username: "alice" }),
      });
    });
    sessions = await SsoSessionRepository.open(store);
    flow = await BrowserFlow.build({
      store, bus, clock, directory, clients: new ClientDirectory(directory, clock),
      keys: new KeyRing(await SigningKeyRepository.open(store), new SecretBox(generateMasterKey()), clock),
      sessions: new SsoSessions(sessions, bus, clock),
      codes: await AuthorizationCodeRepository.open(store), devices: await DeviceCodeRepository.open(store),
    });
  });
  afterAll(async () => {
    await bus.close();
    await store.close();
  });

  const ctx = (extra: Partial<StepContext> = {}): StepContext => ({
    realm: "acme", transactionId: "", csrfToken: "", browserId: "browser-1", ssoCookie: "", ipAddress: "10.0.0.1", baseUrl: "https://id.example.com", ...extra,
  });
  const input = (extra: Partial<{ forceAuthn: boolean; isPassive: boolean; pendingId: string }> = {}) => ({
    pendingId: "pending-1", spEntityId: "urn:sp:one", spName: "SP One", forceAuthn: false, isPassive: false, ...extra,
  });
  const page = (r: FlowReply) => {
    if (r.outcome.kind !== "page") throw new Error(`expected a page, got ${JSON.stringify(r.outcome)}`);
    return r.outcome.page;
  };
  const next = (r: FlowReply, cookie = ""): StepContext => ctx({ transactionId: page(r).transactionId ?? "", csrfToken: page(r).csrfToken ?? "", ssoCookie: cookie });
  const complete = (r: FlowReply) => {
    if (r.outcome.kind !== "saml_complete") throw new Error(`expected saml_complete, got ${JSON.stringify(r.outcome)}`);
    return r.outcome;
  };

  async function loggedIn(): Promise<{ cookie: string; sessionId: string }> {
    const begun = await flow.saml.begin(ctx(), input());
    const done = await flow.steps.submitCredentials(next(begun), "alice", "pw");
    return { cookie: done.setSsoCookie!, sessionId: complete(done).sessionId };
  }

  it("runs the OIDC login steps and ends with saml_complete, establishing the SSO session once", async () => {
    const begun = await flow.saml.begin(ctx(), input());
    expect(page(begun)).toMatchObject({ step: "login", clientId: "urn:sp:one", clientName: "SP One" });
    expect(begun.formActionOrigin).toBeUndefined();
    expect(page(await flow.steps.submitCredentials(next(begun), "alice", "nope")).message).toBe("Invalid username or password.");
    expect(page(await flow.steps.submitCredentials(next(begun), "locked", "pw")).message).toBe("Invalid username or password.");
    const done = await flow.steps.submitCredentials(next(begun), "alice", "pw");
    const c = complete(done);
    expect(c).toEqual({ kind: "saml_complete", pendingId: "pending-1", sessionId: expect.any(String), userId: "u-alice", authTime: now });
    expect(done.setSsoCookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await sessions.findById("realm-1", c.sessionId))?.clientIds).toEqual([]);
    // The transaction is finished: the same form cannot complete twice.
    expect(await flow.steps.submitCredentials(next(begun), "alice", "pw")).toMatchObject({ outcome: { kind: "error", error: "invalid_transaction" } });
  });

  it("TOTP when the user has it, before saml_complete", async () => {
    status.otpRequired = true;
    try {
      const begun = await flow.saml.begin(ctx(), input());
      const otp = await flow.steps.submitCredentials(next(begun), "alice", "pw");
      expect(page(otp).step).toBe("otp");
      expect(page(await flow.steps.submitOtp(next(otp), "000000")).message).toBe("Invalid authenticator code.");
      expect(complete(await flow.steps.submitOtp(next(otp), "123456")).userId).toBe("u-alice");
    } finally {
      status.otpRequired = false;
    }
  });

  it("reuses the SSO session; ForceAuthn re-authenticates into the same session; IsPassive never shows a page", async () => {
    const { cookie, sessionId } = await loggedIn();
    now += 60_000;
    const reused = await flow.saml.begin(ctx({ ssoCookie: cookie }), input({ pendingId: "pending-2" }));
    expect(complete(reused)).toMatchObject({ pendingId: "pending-2", sessionId, authTime: now - 60_000 });
    expect(reused.setSsoCookie).toBeUndefined();

    const forced = await flow.saml.begin(ctx({ ssoCookie: cookie }), input({ forceAuthn: true }));
    expect(page(forced).step).toBe("login");
    const again = await flow.steps.submitCredentials(next(forced, cookie), "alice", "pw");
    expect(complete(again)).toMatchObject({ sessionId, authTime: now });
    expect(again.setSsoCookie).toBeUndefined();

    expect(complete(await flow.saml.begin(ctx({ ssoCookie: cookie }), input({ isPassive: true }))).sessionId).toBe(sessionId);
    expect(await flow.saml.begin(ctx(), input({ isPassive: true }))).toMatchObject({ outcome: { kind: "error", error: "saml_no_passive", status: 400 } });
  });

  it("a disabled user's session is ended instead of reused", async () => {
    const { cookie, sessionId } = await loggedIn();
    status.enabled = false;
    try {
      expect(page(await flow.saml.begin(ctx({ ssoCookie: cookie }), input())).step).toBe("login");
      expect(await sessions.findById("realm-1", sessionId)).toBeNull();
    } finally {
      status.enabled = true;
    }
  });

  it("EndSsoSession ends a session once", async () => {
    const { sessionId } = await loggedIn();
    expect(await flow.saml.endSession("acme", sessionId)).toEqual({ ended: true, userId: "u-alice" });
    expect(await flow.saml.endSession("acme", sessionId)).toEqual({ ended: false, userId: "" });
    expect(await flow.saml.endSession("nope", sessionId)).toEqual({ ended: false, userId: "" });
  });
});
