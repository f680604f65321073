import { adminApi, http, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// The device authorization grant's endpoints (RFC 8628 sections 3.1-3.5): the device authorization
// endpoint and the token endpoint's polling. The verification page: oidc-device-verification.e2e.test.ts.
describe.each(targets())("OIDC device authorization ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let secret: string;
  const issuer = () => `${server.url}/realms/${realm}`;
  const endpoint = (p: string) => `${issuer()}/protocol/openid-connect/${p}`;
  const basic = (id: string, s: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(s)}`).toString("base64")}`;

  beforeAll(async () => {
    server = await target.start("oidc-device");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("oidc-device");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const svc = await api.post(`/admin/realms/${realm}/clients`, { clientId: "svc", grantTypes: ["client_credentials"] });
    expect(svc.status).toBe(201);
    secret = svc.body.secret;
    expect((await api.post(`/admin/realms/${realm}/clients`, {
      clientId: "tv", clientType: "PUBLIC", grantTypes: ["urn:ietf:params:oauth:grant-type:device_code"],
    })).status).toBe(201);
  }, 90_000);
  afterAll(async () => server?.stop());

  const post = (p: string, form: Record<string, string>, headers: Record<string, string> = {}) => http("POST", endpoint(p), { form, headers });

  it("device authorization (RFC 8628): codes for clients listing the grant, unauthorized_client otherwise", async () => {
    const res = await post("auth/device", { client_id: "tv", scope: "openid" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      device_code: expect.any(String), user_code: expect.stringMatching(/^[B-Z]{4}-[B-Z]{4}$/),
      verification_uri: `${issuer()}/device`, verification_uri_complete: `${issuer()}/device?user_code=${res.body.user_code}`,
      expires_in: 600, interval: 5,
    });
    const poll = await post("token", { grant_type: "urn:ietf:params:oauth:grant-type:device_code", client_id: "tv", device_code: res.body.device_code });
    expect(poll.status).toBe(400);
    expect(poll.body.error).toBe("authorization_pending");
    const fast = await post("token", { grant_type: "urn:ietf:params:oauth:grant-type:device_code", client_id: "tv", device_code: res.body.device_code });
    expect(fast.body.error).toBe("slow_down");
    const refused = await post("auth/device", {}, { authorization: basic("svc", secret) });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("unauthorized_client");
  });

  it("answers a made-up device code with invalid_grant, never expired_token (RFC 8628 section 3.5)", async () => {
    for (const deviceCode of [`${"A".repeat(43)}.1`, `${"A".repeat(43)}.1.${"A".repeat(22)}`]) {
      const res = await post("token", { grant_type: "urn:ietf:params:oauth:grant-type:device_code", client_id: "tv", device_code: deviceCode });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "invalid_grant", error_description: "invalid device code" });
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("refuses a scope the client does not have up front: 400 invalid_scope, no code (RFC 8628 section 3.2)", async () => {
    const res = await post("auth/device", { client_id: "tv", scope: "openid bogus" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "invalid_scope", error_description: "Invalid scopes: bogus." });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    // A default and an optional client scope of the client are fine, and so is no scope at all.
    for (const scope of ["openid profile phone", undefined]) {
      const ok = await post("auth/device", { client_id: "tv", ...(scope ? { scope } : {}) });
      expect(ok.status).toBe(200);
      expect(ok.body.user_code).toMatch(/^[B-Z]{4}-[B-Z]{4}$/);
    }
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
