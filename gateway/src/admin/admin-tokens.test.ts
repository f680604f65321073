import { randomBytes } from "node:crypto";
import { ADMIN_REFRESH_IDLE, ADMIN_SESSION_MAX, AdminTokens } from "./admin-tokens.js";

/** The admin refresh token's two limits, on a clock the test moves. */
describe("admin refresh tokens", () => {
  let now = Date.UTC(2026, 0, 1);
  const tokens = new AdminTokens(randomBytes(32).toString("base64url"), "https://iam.example.com/admin", () => now);
  const admin = { sub: "a1", username: "admin", sid: "s1" };

  beforeEach(() => {
    now = Date.UTC(2026, 0, 1);
  });

  it("lives 30 minutes unused", async () => {
    const authTime = now / 1000;
    const { token, expiresIn } = await tokens.signRefresh(admin, authTime, "r1");
    expect(expiresIn).toBe(ADMIN_REFRESH_IDLE);
    expect(tokens.refreshExpiry(authTime)).toBe(now + ADMIN_REFRESH_IDLE * 1000);
    now += (ADMIN_REFRESH_IDLE - 1) * 1000;
    expect(await tokens.verifyRefresh(token)).toEqual({ ...admin, authTime, rid: "r1" });
    now += 1000;
    expect(await tokens.verifyRefresh(token)).toBeNull();
  });

  it("never outlives 10 hours after the sign-in, however often renewed", async () => {
    const authTime = now / 1000;
    now += (ADMIN_SESSION_MAX - 600) * 1000;
    const { token, expiresIn } = await tokens.signRefresh(admin, authTime, "r1");
    expect(expiresIn).toBe(600);
    now += 599_000;
    expect((await tokens.verifyRefresh(token))?.authTime).toBe(authTime);
    now += 1000;
    expect(await tokens.verifyRefresh(token)).toBeNull();
  });

  it("is neither an access token nor accepted from another master key", async () => {
    const { token } = await tokens.signRefresh(admin, now / 1000, "r1");
    expect(await tokens.verify(token)).toBeNull();
    expect(await tokens.verifyRefresh(await tokens.sign(admin))).toBeNull();
    const other = new AdminTokens(randomBytes(32).toString("base64url"), "https://iam.example.com/admin", () => now);
    expect(await other.verifyRefresh(token)).toBeNull();
  });
});
