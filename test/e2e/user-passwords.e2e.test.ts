import { adminApi, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Passwords: the realm's policy on creation and reset (spec 2.1, 2.2, 4.2, 8) and the history rule.
describe.each(targets())("user passwords ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await target.start("user-passwords");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  async function realm(extra: Record<string, unknown> = {}): Promise<string> {
    const name = uniqueName("pw");
    const res = await api.post("/admin/realms", { name, ...extra });
    expect(res.status).toBe(201);
    return name;
  }

  const users = (r: string) => `/admin/realms/${r}/users`;

  describe("password policy", () => {
    const policy = {
      passwordMinLength: 10, passwordRequireUppercase: true, passwordRequireLowercase: true,
      passwordRequireDigits: true, passwordRequireSpecialChars: true,
    };

    it("names every failed rule in one 400", async () => {
      const r = await realm(policy);
      const res = await api.post(users(r), { username: "dave", password: "abc" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: "invalid_password", field: "password",
        message: "password does not meet the password policy: at least 10 characters, an uppercase letter, a digit, a special character",
      });
      const upper = await api.post(users(r), { username: "dave", password: "ABCDEFGHIJ" });
      expect(upper.body.message).toBe("password does not meet the password policy: a lowercase letter, a digit, a special character");
    });

    it.each([
      ["Abcdefgh1!", 201],
      ["abcdefgh1!", 400],
      ["ABCDEFGH1!", 400],
      ["Abcdefghi!", 400],
      ["Abcdefghi1", 400],
      ["Abcdefg1!", 400],
    ])("password %s -> %i", async (password, status) => {
      const r = await realm(policy);
      const res = await api.post(users(r), { username: "erin", password });
      expect(res.status).toBe(status);
      if (status === 400) expect(res.body.field).toBe("password");
    });

    it("refuses a password equal to the username or the email", async () => {
      const r = await realm();
      const byName = await api.post(users(r), { username: "frank-the-user", password: "Frank-The-User" });
      expect(byName.body).toEqual({
        error: "invalid_password", field: "password", message: "password does not meet the password policy: not equal to the username",
      });
      const byMail = await api.post(users(r), { username: "frank", email: "frank@example.test", password: "frank@example.test" });
      expect(byMail.body.message).toBe("password does not meet the password policy: not equal to the email");
    });

    it("uses spec 8's minimum of 8 even when the realm asks for less", async () => {
      const r = await realm({ passwordMinLength: 4 });
      expect((await api.post(users(r), { username: "gina", password: "1234567" })).status).toBe(400);
    });
  });

  describe("reset-password", () => {
    it("sets a password (204), enforces the policy, and marks a temporary one", async () => {
      const r = await realm({ passwordRequireDigits: true });
      const u = (await api.post(users(r), { username: "paul" })).body;
      const path = `${users(r)}/${u.id}/reset-password`;
      const weak = await api.put(path, { password: "no-digits-here" });
      expect([weak.status, weak.body]).toEqual([400, {
        error: "invalid_password", field: "password", message: "password does not meet the password policy: a digit",
      }]);
      const missing = await api.put(path, {});
      expect([missing.status, missing.body]).toEqual([400, { error: "invalid_request", message: "password is required", field: "password" }]);
      const unknown = await api.put(path, { password: "x", userId: "y" });
      expect([unknown.status, unknown.body.field]).toEqual([400, "userId"]);
      const ok = await api.put(path, { password: "digits-123", temporary: true });
      expect([ok.status, ok.text]).toEqual([204, ""]);
      expect((await api.get(`${users(r)}/${u.id}`)).body.requirePasswordReset).toBe(true);
      expect((await api.put(path, { password: "digits-456" })).status).toBe(204);
      expect((await api.get(`${users(r)}/${u.id}`)).body.requirePasswordReset).toBe(false);
    });

    it("refuses the last N passwords and accepts an older one", async () => {
      const r = await realm({ passwordHistoryCount: 2 });
      const u = (await api.post(users(r), { username: "quinn", password: "first-pass-1" })).body;
      const path = `${users(r)}/${u.id}/reset-password`;
      const same = await api.put(path, { password: "first-pass-1" });
      expect([same.status, same.body]).toEqual([400, {
        error: "invalid_password", field: "password", message: "password must not be one of the last 2 passwords",
      }]);
      expect((await api.put(path, { password: "second-pass-2" })).status).toBe(204);
      expect((await api.put(path, { password: "first-pass-1" })).status).toBe(400);
      expect((await api.put(path, { password: "second-pass-2" })).status).toBe(400);
      expect((await api.put(path, { password: "third-pass-3" })).status).toBe(204);
      // first-pass-1 is now three passwords back: allowed again.
      expect((await api.put(path, { password: "first-pass-1" })).status).toBe(204);
    });

    it("has no history rule when passwordHistoryCount is 0", async () => {
      const r = await realm();
      const u = (await api.post(users(r), { username: "rita", password: "same-pass-1" })).body;
      expect((await api.put(`${users(r)}/${u.id}/reset-password`, { password: "same-pass-1" })).status).toBe(204);
    });
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
