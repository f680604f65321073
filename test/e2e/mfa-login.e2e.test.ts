import { generate } from "otplib";
import { adminApi, http, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession, titleOf, type PageResponse } from "./support/browser-session.js";

// TOTP MFA through the login pages and the password grant (spec 1.6, 2.1 mfaRequired, 4.13; RFC
// 6238). Codes are computed with otplib from the secret the enrolment page shows.
describe.each(targets())("mfa login ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let secret: string;
  let userId: string;
  let clientSecret: string;
  let enrolledAt: number;
  let recovery: string[] = [];
  const CB = "http://localhost:3994/cb";
  const PW = "Mfa-Pass-123";

  beforeAll(async () => {
    server = await target.start("mfa-login");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("mfalogin");
    expect((await api.post("/admin/realms", { name: realm, mfaRequired: true, eventsEnabled: true, bruteForceEnabled: true, maxLoginFailures: 3 })).status).toBe(201);
    const c = await api.post(`/admin/realms/${realm}/clients`, { clientId: "web", redirectUris: [CB], grantTypes: ["authorization_code", "password", "refresh_token"] });
    expect(c.status).toBe(201);
    clientSecret = c.body.secret;
    const u = await api.post(`/admin/realms/${realm}/users`, { username: "hank", password: PW });
    expect(u.status).toBe(201);
    userId = u.body.id;
  }, 90_000);
  afterAll(async () => server?.stop());

  const authUrl = () => `${server.url}/realms/${realm}/protocol/openid-connect/auth?${new URLSearchParams({
    client_id: "web", redirect_uri: CB, response_type: "code", scope: "openid", state: "st",
  })}`;
  const codeAt = (epochMs: number) => generate({ secret, epoch: Math.floor(epochMs / 1000) });
  const passwordLogin = async () => {
    const b = new BrowserSession(server.url);
    return { b, page: await b.submit(await b.get(authUrl()), { username: "hank", password: PW }) };
  };
  const grant = (extra: Record<string, string>) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
    form: { grant_type: "password", client_id: "web", client_secret: clientSecret, username: "hank", password: PW, ...extra },
  });

  it("enrols TOTP on the login pages (secret, QR, recovery codes shown once)", async () => {
    const { b, page } = await passwordLogin();
    expect(titleOf(page)).toBe("Set up an authenticator");
    expect(page.text).toMatch(/<img class="qr" src="data:image\/png;base64,/);
    secret = /<span class="secret" id="otp-secret">([A-Z2-7]+)<\/span>/.exec(page.text)![1]!;
    expect(secret.length).toBeGreaterThanOrEqual(16);
    const wrong = await b.submit(page, { otp: "000000" === (await codeAt(Date.now())) ? "111111" : "000000" });
    expect(wrong.text).toContain("Invalid authenticator code.");
    enrolledAt = Date.now();
    const codes = await b.submit(wrong, { otp: await codeAt(enrolledAt) });
    expect(titleOf(codes)).toBe("Recovery codes");
    recovery = [...codes.text.matchAll(/<li><code>([a-z2-7-]+)<\/code><\/li>/g)].map((m) => m[1]!);
    expect(recovery.length).toBeGreaterThanOrEqual(5);
    const done = await b.submit(codes, {});
    expect(done.status).toBe(302);
    expect(new URL(done.location).searchParams.get("code")).toBeTruthy();
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/mfa/status`)).body).toEqual({ enabled: true });
    const ev = await eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=UPDATE_TOTP`)).body as any[], (e) => e.length === 1);
    expect(ev[0]).toMatchObject({ userId, clientId: "web" });
  });

  it("asks for the code at later logins: a replayed code is refused, a recovery code works once", async () => {
    const { b, page } = await passwordLogin();
    expect(titleOf(page)).toBe("Authenticator code");
    const replay = await b.submit(page, { otp: await codeAt(enrolledAt) });
    expect(replay.status).toBe(200);
    expect(replay.text).toContain("Invalid authenticator code.");
    const ok = await b.submit(replay, { otp: recovery[0]! });
    expect(ok.status).toBe(302);
    const second = await passwordLogin();
    const reused = await second.b.submit(second.page, { otp: recovery[0]! });
    expect(reused.text).toContain("Invalid authenticator code.");
    const errors = await eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=LOGIN_ERROR`)).body as any[], (e) => e.length === 2);
    expect(errors.map((e) => e.error)).toEqual(["invalid_user_totp", "invalid_user_totp"]);
  });

  it("steps up the password grant with otp: missing and wrong are invalid_grant and counted, right issues tokens", async () => {
    // Failures so far: the reused recovery code (1); the replay was followed by a success (reset).
    const missing = await grant({});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("invalid_grant");
    const good = await codeAt(enrolledAt + 30_000);
    const wrong = await grant({ otp: String((Number(good) + 1) % 1_000_000).padStart(6, "0") });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_grant");
    const locked = (await api.get(`/admin/realms/${realm}/brute-force/locked-users`)).body as any[];
    expect(locked.map((l) => [l.userId, l.failureCount])).toEqual([[userId, 3]]);
    expect((await api.post(`/admin/realms/${realm}/brute-force/users/${userId}/unlock`)).status).toBe(204);
    const tokens = await grant({ totp: good });
    expect(tokens.status).toBe(200);
    expect(tokens.body.access_token).toBeTruthy();
  });

  it("no longer asks for a code after an admin MFA reset", async () => {
    expect((await api.put(`/admin/realms/${realm}`, { mfaRequired: false })).status).toBe(200);
    expect((await api.del(`/admin/realms/${realm}/users/${userId}/mfa`)).status).toBe(204);
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/mfa/status`)).body).toEqual({ enabled: false });
    const { page } = await passwordLogin();
    expect(page.status).toBe(302);
    expect(new URL(page.location).searchParams.get("code")).toBeTruthy();
    expect((await grant({})).status).toBe(200);
  });
});
