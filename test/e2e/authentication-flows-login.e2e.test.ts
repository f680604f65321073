import { generate } from "otplib";
import { adminApi, http, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, titleOf, type PageResponse } from "./support/browser-session.js";

const UP = { type: "username-password", requirement: "REQUIRED" };
const ROLE_OTP = { type: "otp", requirement: "CONDITIONAL", condition: { type: "condition-user-role", config: { role: "admin" } } };
const DENY_CONTRACTORS = {
  type: "subflow", requirement: "CONDITIONAL", steps: [
    { type: "condition-user-attribute", requirement: "REQUIRED", config: { attribute: "kind", value: "contractor" } },
    { type: "deny", requirement: "REQUIRED" },
  ],
};
const PW = "Flow-Pass-123";
const CB = "http://localhost:3995/cb";

// Custom authentication flows at login (docs/authentication-flows.md): the direct grant and the
// login pages run the realm's flow, or the client's override. Users enrol TOTP on the login pages
// (the realm requires MFA while they do), codes are computed with otplib from the shown secret.
describe.each(targets())("authentication flows at login ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let mixedFlowId: string;
  const secrets = new Map<string, string>();
  const clientSecrets = new Map<string, string>();
  const recoveryCodes = new Map<string, string[]>();
  const userIds = new Map<string, string>();

  beforeAll(async () => {
    server = await target.start("authentication-flows-login");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("flowlogin");
    expect((await api.post("/admin/realms", { name: realm, mfaRequired: true })).status).toBe(201);
    expect((await api.post(`/admin/realms/${realm}/roles`, { name: "admin" })).status).toBe(201);
    for (const clientId of ["web", "partner", "legacy", "mixed"]) {
      const c = await api.post(`/admin/realms/${realm}/clients`, { clientId, redirectUris: [CB], grantTypes: ["authorization_code", "password"] });
      expect(c.status).toBe(201);
      clientSecrets.set(clientId, c.body.secret);
    }
    // alice: admin with TOTP; bob: TOTP, no role; carol: admin without TOTP; dave: a contractor.
    for (const [username, extra] of [["alice", {}], ["bob", {}], ["carol", {}], ["dave", { attributes: { kind: ["contractor"] } }]] as const) {
      const u = await api.post(`/admin/realms/${realm}/users`, { username, password: PW, ...extra });
      expect(u.status).toBe(201);
      userIds.set(username, u.body.id);
      if (username === "alice" || username === "carol") {
        expect((await api.post(`/admin/realms/${realm}/users/${u.body.id}/role-mappings/realm`, { roleNames: ["admin"] })).status).toBe(200);
      }
    }
    for (const username of ["alice", "bob"]) secrets.set(username, await enrolTotp(username));
    expect((await api.put(`/admin/realms/${realm}`, { mfaRequired: false })).status).toBe(200);
    const flow = await api.post(`/admin/realms/${realm}/authentication/flows`, { alias: "otp for admins", steps: [UP, ROLE_OTP, DENY_CONTRACTORS] });
    expect(flow.status).toBe(201);
    expect((await api.put(`/admin/realms/${realm}`, { directGrantFlow: "otp for admins", browserFlow: "otp for admins" })).status).toBe(200);
    expect((await api.put(`/admin/realms/${realm}/clients/legacy`, { directGrantFlowOverride: "direct grant", browserFlowOverride: "browser" })).status).toBe(200);
    const partner = await api.post(`/admin/realms/${realm}/authentication/flows`, { alias: "partner", steps: [UP, { type: "otp", requirement: "REQUIRED" }] });
    expect(partner.status).toBe(201);
    expect((await api.put(`/admin/realms/${realm}/clients/partner`, { directGrantFlowOverride: "partner", browserFlowOverride: "partner" })).status).toBe(200);
    mixedFlowId = (await api.post(`/admin/realms/${realm}/authentication/flows`, { alias: "mixed", steps: [UP] })).body.id;
    expect((await api.put(`/admin/realms/${realm}/clients/mixed`, { directGrantFlowOverride: "mixed" })).status).toBe(200);
    const staff = await api.post(`/admin/realms/${realm}/groups`, { name: "staff" });
    expect(staff.status).toBe(201);
    expect((await api.put(`/admin/realms/${realm}/users/${userIds.get("bob")!}/groups/${staff.body.id}`, {})).status).toBe(200);
  }, 120_000);
  afterAll(async () => server?.stop());

  const authUrl = (clientId = "web") => `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: clientId, redirect_uri: CB, response_type: "code", scope: "openid", state: "st",
  })}`;
  /**
   * A code of a later time step than the user's last (a step is accepted once, and never one
   * older than the last used: RFC 6238 section 5.2): the enrolment used the previous step, then
   * the current one, then the next (one step of drift is accepted).
   */
  const used = new Map<string, number>();
  const nextCode = (username: string) => {
    const n = used.get(username) ?? 0;
    used.set(username, n + 1);
    return generate({ secret: secrets.get(username)!, epoch: Math.floor(Date.now() / 1000) + 30 * n });
  };
  const wrongCode = async (username: string) => ((await generate({ secret: secrets.get(username)!, epoch: Math.floor(Date.now() / 1000) })) === "000000" ? "111111" : "000000");

  async function enrolTotp(username: string): Promise<string> {
    const b = new BrowserSession(server.url);
    const page = await b.submit(await b.get(authUrl()), { username, password: PW });
    expect(titleOf(page)).toBe("Set up an authenticator");
    const secret = /<span class="secret" id="otp-secret">([A-Z2-7]+)<\/span>/.exec(page.text)![1]!;
    const codes = await b.submit(page, { otp: await generate({ secret, epoch: Math.floor(Date.now() / 1000) - 30 }) });
    expect(titleOf(codes)).toBe("Recovery codes");
    recoveryCodes.set(username, [...codes.text.matchAll(/<li><code>([a-z2-7-]+)<\/code><\/li>/g)].map((m) => m[1]!));
    expect((await b.submit(codes, {})).status).toBe(302);
    return secret;
  }

  const grant = (username: string, extra: Record<string, string> = {}, clientId = "web") =>
    http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
      form: { grant_type: "password", client_id: clientId, client_secret: clientSecrets.get(clientId)!, username, password: PW, ...extra },
    });
  const invalidGrant = (description: string) => ({ status: 400, body: { error: "invalid_grant", error_description: description } });

  describe("the password grant", () => {
    it("skips a conditional OTP step when the role is not held, even for a user with TOTP", async () => {
      const res = await grant("bob");
      expect(res.status).toBe(200);
      expect(res.body.access_token).toEqual(expect.any(String));
    });

    it("asks the code of a role holder in `otp` (or `totp`): missing or wrong is invalid_grant", async () => {
      expect(await grant("alice")).toMatchObject(invalidGrant("Invalid user credentials"));
      expect(await grant("alice", { otp: await wrongCode("alice") })).toMatchObject(invalidGrant("Invalid user credentials"));
      const ok = await grant("alice", { otp: await nextCode("alice") });
      expect(ok.status).toBe(200);
      expect((await grant("alice", { totp: await nextCode("alice") })).status).toBe(200);
    });

    it("refuses a role holder without TOTP as not fully set up, and a contractor through the deny step", async () => {
      expect(await grant("carol")).toMatchObject(invalidGrant("Account is not fully set up"));
      expect(await grant("dave")).toMatchObject(invalidGrant("Access denied"));
      expect(await grant("dave", { password: "wrong" })).toMatchObject(invalidGrant("Invalid user credentials"));
    });

    it("runs a client's override instead: the built-in flow (TOTP when configured) and a REQUIRED otp", async () => {
      expect(await grant("bob", {}, "legacy")).toMatchObject(invalidGrant("Invalid user credentials"));
      expect((await grant("bob", { otp: await nextCode("bob") }, "legacy")).status).toBe(200);
      expect((await grant("carol", {}, "legacy")).status).toBe(200);
      expect((await grant("dave", {}, "legacy")).status).toBe(200);
      expect(await grant("dave", {}, "partner")).toMatchObject(invalidGrant("Account is not fully set up"));
      expect(await grant("bob", {}, "partner")).toMatchObject(invalidGrant("Invalid user credentials"));
      expect((await grant("bob", { otp: await nextCode("bob") }, "partner")).status).toBe(200);
    });
  });

  describe("each requirement and condition on the password grant (the flow changed between logins)", () => {
    const mixed = async (steps: unknown[]) => expect((await api.put(`/admin/realms/${realm}/authentication/flows/${mixedFlowId}`, { steps: [UP, ...steps] })).status).toBe(200);
    const otpIf = (type: string, config: Record<string, string>) => ({ type: "otp", requirement: "CONDITIONAL", condition: { type, config } });

    it("a group condition and a client condition, negated or not", async () => {
      await mixed([otpIf("condition-user-group", { group: "/staff" })]);
      expect(await grant("bob", {}, "mixed")).toMatchObject(invalidGrant("Invalid user credentials"));
      expect((await grant("carol", {}, "mixed")).status).toBe(200);
      await mixed([otpIf("condition-client", { clientId: "mixed" })]);
      expect(await grant("carol", {}, "mixed")).toMatchObject(invalidGrant("Account is not fully set up"));
      await mixed([otpIf("condition-client", { clientId: "mixed", negate: "true" })]);
      expect((await grant("bob", {}, "mixed")).status).toBe(200);
    });

    it("DISABLED skips a step, ALTERNATIVE steps of a REQUIRED subflow take one credential (a recovery code)", async () => {
      await mixed([{ type: "otp", requirement: "DISABLED" }]);
      expect((await grant("bob", {}, "mixed")).status).toBe(200);
      await mixed([{ type: "subflow", requirement: "REQUIRED", steps: [{ type: "otp", requirement: "ALTERNATIVE" }, { type: "recovery-code", requirement: "ALTERNATIVE" }] }]);
      expect(await grant("bob", {}, "mixed")).toMatchObject(invalidGrant("Invalid user credentials"));
      expect((await grant("bob", { otp: recoveryCodes.get("bob")![1]! }, "mixed")).status).toBe(200);
    });

    it("required actions run unless the flow disables them", async () => {
      expect((await api.put(`/admin/realms/${realm}`, { mfaRequired: true })).status).toBe(200);
      try {
        await mixed([{ type: "required-actions", requirement: "REQUIRED" }]);
        expect(await grant("carol", {}, "mixed")).toMatchObject(invalidGrant("Account is not fully set up"));
        await mixed([{ type: "required-actions", requirement: "DISABLED" }]);
        expect((await grant("carol", {}, "mixed")).status).toBe(200);
      } finally {
        expect((await api.put(`/admin/realms/${realm}`, { mfaRequired: false })).status).toBe(200);
      }
    });
  });

  describe("the login pages", () => {
    const login = async (username: string, clientId = "web") => {
      const b = new BrowserSession(server.url);
      return { b, page: await b.submit(await b.get(authUrl(clientId)), { username, password: PW }) };
    };
    const b0 = async () => new BrowserSession(server.url).get(authUrl());
    const expectCode = (page: PageResponse) => {
      expect(page.status).toBe(302);
      expect(new URL(page.location).searchParams.get("code")).toBeTruthy();
    };

    it("skips the conditional OTP step for a user without the role, even with TOTP", async () => {
      expectCode((await login("bob")).page);
    });

    it("asks a role holder's code (a recovery code is accepted there), and a wrong one is refused", async () => {
      const { b, page } = await login("alice");
      expect(titleOf(page)).toBe("Authenticator code");
      const wrong = await b.submit(page, { otp: await wrongCode("alice") });
      expect(wrong.text).toContain("Invalid authenticator code.");
      expectCode(await b.submit(wrong, { otp: recoveryCodes.get("alice")![0]! }));
    });

    it("leads a role holder without TOTP to its enrolment, and refuses a contractor with Access denied", async () => {
      expect(titleOf((await login("carol")).page)).toBe("Set up an authenticator");
      const denied = (await login("dave")).page;
      expect(denied.status).toBe(200);
      expect(titleOf(denied)).toBe("Sign in");
      expect(denied.text).toContain("Access denied.");
    });

    it("asks the username first when the realm's flow identifies by a username step (identity-first)", async () => {
      const idFirst = await api.post(`/admin/realms/${realm}/authentication/flows`, {
        alias: "identity first", steps: [{ type: "username", requirement: "REQUIRED" }, { type: "password", requirement: "REQUIRED" }, ROLE_OTP],
      });
      expect(idFirst.status).toBe(201);
      expect((await api.put(`/admin/realms/${realm}`, { browserFlow: "identity first" })).status).toBe(200);
      try {
        const b = new BrowserSession(server.url);
        const first = await b.get(authUrl());
        expect(first.text).toContain('id="identity-first-next"');
        expect(first.text).not.toContain('id="password"');
        const second = await b.submit(first, { username: "bob" });
        expect(second.text).toContain('id="password"');
        expectCode(await b.submit(second, { username: "bob", password: PW }));
      } finally {
        expect((await api.put(`/admin/realms/${realm}`, { browserFlow: "otp for admins" })).status).toBe(200);
      }
      expect((await b0()).text).toContain('id="password"');
    });

    it("runs a client's override: the built-in flow asks bob's code, a REQUIRED otp enrols dave", async () => {
      const { b, page } = await login("bob", "legacy");
      expect(titleOf(page)).toBe("Authenticator code");
      expectCode(await b.submit(page, { otp: recoveryCodes.get("bob")![0]! }));
      expectCode((await login("dave", "legacy")).page);
      expect(titleOf((await login("dave", "partner")).page)).toBe("Set up an authenticator");
    });
  });
});
