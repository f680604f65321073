import { generate } from "otplib";
import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { BrowserSession } from "./support/browser-session.js";
import { OidcRp } from "./support/oidc-rp.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

/**
 * New recovery codes through the account API (POST /realms/{realm}/account/totp/recovery-codes)
 * without enrolling TOTP again: the current password required, the earlier codes dead, the new
 * ones accepted once as the second factor of a password grant, and the login event recorded.
 */
for (const target of targets()) describe(`account recovery codes (${target.mode})`, () => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  const realm = uniqueName("acct-rc");
  const PASSWORD = "Ivy-Secret-123";
  let ivyId = "";

  beforeAll(async () => {
    server = await target.start("account-recovery-codes");
    api = adminApi(server.url, server.apiKey);
    expect((await api.post("/admin/realms", { name: realm, eventsEnabled: true })).status).toBe(201);
    const ivy = await api.post(`/admin/realms/${realm}/users`, { username: "ivy", email: "ivy@example.com", emailVerified: true, password: PASSWORD });
    expect(ivy.status).toBe(201);
    ivyId = ivy.body.id;
    expect((await api.post(`/admin/realms/${realm}/clients`, { clientId: "cli", clientType: "PUBLIC", grantTypes: ["password"] })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  async function accessToken(): Promise<string> {
    const consoleUrl = `${server.url}/realms/${realm}/account/`;
    const { rp, start, login, redeem } = new OidcRp(() => ({ serverUrl: server.url, realm }), consoleUrl, PASSWORD).calls();
    const b = new BrowserSession(server.url);
    const config = await rp("account-console");
    const s = await start(config, { scope: "openid" });
    return (await redeem(config, s, await login(b, await b.get(s.url.href), "ivy", PASSWORD))).access_token;
  }
  const call = (token: string | undefined, body?: unknown) =>
    http("POST", `${server.url}/realms/${realm}/account/totp/recovery-codes`, { ...(body !== undefined ? { body } : {}), headers: token ? { Authorization: `Bearer ${token}` } : {} });
  /** A password grant whose second factor is `otp` (a TOTP or a recovery code). */
  const grant = (otp: string) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
    form: { grant_type: "password", client_id: "cli", username: "ivy", password: PASSWORD, otp },
  });

  it("refuses without a token, without TOTP, with a wrong or missing password and an unknown field; then replaces every code", async () => {
    const token = await accessToken();
    const none = await call(undefined, { currentPassword: PASSWORD });
    expect(none.status).toBe(401);
    expect(none.body.error).toBe("unauthorized");
    const noTotp = await call(token, { currentPassword: PASSWORD });
    expect([noTotp.status, noTotp.body.error]).toEqual([400, "otp_not_configured"]);

    // TOTP through the account API: the first set of codes.
    const begun = await http("POST", `${server.url}/realms/${realm}/account/totp`, { headers: { Authorization: `Bearer ${token}` } });
    expect(begun.status).toBe(200);
    const confirmed = await http("POST", `${server.url}/realms/${realm}/account/totp/confirm`, {
      headers: { Authorization: `Bearer ${token}` }, body: { code: await generate({ secret: begun.body.secret, epoch: Math.floor(Date.now() / 1000) }) },
    });
    expect(confirmed.status).toBe(200);
    const first = confirmed.body.recoveryCodes as string[];
    expect(first).toHaveLength(10);

    const wrong = await call(token, { currentPassword: "Not-The-Password-1" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: "invalid_current_password", message: "the current password is not correct", field: "currentPassword" });
    const missing = await call(token, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: "invalid_request", field: "currentPassword" });
    const unknown = await call(token, { currentPassword: PASSWORD, count: 20 });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: "unknown_field", field: "count" });
    // None of the refusals touched the codes.
    expect((await grant(first[0]!)).status).toBe(200);

    const renewed = await call(token, { currentPassword: PASSWORD });
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get("cache-control")).toBe("no-store");
    const codes = renewed.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(new Set(codes).size).toBe(10);
    expect(codes.filter((c) => first.includes(c))).toEqual([]);

    // The earlier codes are dead; a new one works once.
    const old = await grant(first[1]!);
    expect([old.status, old.body.error]).toEqual([400, "invalid_grant"]);
    expect((await grant(codes[0]!)).status).toBe(200);
    const again = await grant(codes[0]!);
    expect([again.status, again.body.error]).toEqual([400, "invalid_grant"]);
    expect((await api.get(`/admin/realms/${realm}/users/${ivyId}/mfa/status`)).body).toEqual({ enabled: true });

    const events = await eventually(async () => (await api.get(`/admin/realms/${realm}/events?type=UPDATE_CREDENTIAL`)).body as any[], (e) => e.length === 1);
    expect(events[0]).toMatchObject({ type: "UPDATE_CREDENTIAL", userId: ivyId, clientId: "account-console", details: { credential_type: "recovery-authn-codes" } });
    // The codes are never in an event.
    expect(JSON.stringify(events)).not.toContain(codes[1]!);
  }, 60_000);

  afterAll(() => expectResponsesDocumented(recorded));
});
