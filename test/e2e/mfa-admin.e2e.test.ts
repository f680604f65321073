import { adminApi, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// MFA administration over HTTP (spec 3, 4.13, DESIGN 7). Enrolment happens on the login pages of
// another branch; TOTP itself is covered in-process (services/directory/src/otp.test.ts).
describe.each(targets())("mfa admin ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  beforeAll(async () => {
    server = await target.start("mfa-admin");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  async function realmWithUser(): Promise<{ realm: string; userId: string }> {
    const realm = uniqueName("mfa");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const user = await api.post(`/admin/realms/${realm}/users`, { username: "mfa-user" });
    return { realm, userId: user.body.id };
  }

  it("reports MFA status and resets it with DELETE (204)", async () => {
    const { realm, userId } = await realmWithUser();
    const status = await api.get(`/admin/realms/${realm}/users/${userId}/mfa/status`);
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ enabled: false });
    const reset = await api.del(`/admin/realms/${realm}/users/${userId}/mfa`);
    expect(reset.status).toBe(204);
    expect(reset.text).toBe("");
    expect((await api.get(`/admin/realms/${realm}/users/${userId}/mfa/status`)).body).toEqual({ enabled: false });
  });

  it("answers 404 for an unknown user or realm and 405 for other methods", async () => {
    const { realm, userId } = await realmWithUser();
    const unknown = "00000000-0000-4000-8000-000000000000";
    const s = await api.get(`/admin/realms/${realm}/users/${unknown}/mfa/status`);
    expect(s.status).toBe(404);
    expect(s.body.error).toBe("user_not_found");
    expect((await api.del(`/admin/realms/${realm}/users/${unknown}/mfa`)).status).toBe(404);
    expect((await api.get(`/admin/realms/no-such-realm/users/${userId}/mfa/status`)).status).toBe(404);
    const wrong = await api.post(`/admin/realms/${realm}/users/${userId}/mfa`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("DELETE");
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
