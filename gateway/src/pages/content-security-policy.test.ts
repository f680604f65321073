import { formActionSource, pageCsp } from "./content-security-policy.js";

/** The hosted pages' CSP, above all its form-action (CSP3 section 6.3.1; it also governs the redirect after a POST). */
describe("pageCsp", () => {
  const policy = (formAction: string) => `default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;

  it("admits only the page itself without a flow target", () => {
    expect(pageCsp()).toBe(policy("'self'"));
  });

  it("admits an http(s) redirect origin", () => {
    expect(pageCsp({ formAction: "https://app.example.com" })).toBe(policy("'self' https://app.example.com"));
    expect(pageCsp({ formAction: "http://127.0.0.1:3998" })).toBe(policy("'self' http://127.0.0.1:3998"));
  });

  it("admits a native app's private-use scheme as that exact scheme source (RFC 8252 section 7.1)", () => {
    expect(pageCsp({ formAction: "com.example.app:" })).toBe(policy("'self' com.example.app:"));
    expect(pageCsp({ formAction: "Com.Example-App+v2.x:" })).toBe(policy("'self' com.example-app+v2.x:"));
  });

  it.each([
    // CSP syntax smuggled in: another directive, another source, a keyword.
    "com.example.app:; script-src 'unsafe-inline'",
    "com.example.app: https:",
    "com.example.app:,x",
    "'unsafe-inline'",
    "*",
    "com.example.app",
    "com.example.app:/cb",
    "1app:",
    "",
    "https://app.example.com; script-src *",
    "https://app.example.com 'unsafe-eval'",
    // Scheme sources that would admit every site, or script.
    "https:", "HTTP:", "wss:", "javascript:", "data:", "blob:", "file:",
    "null",
  ])("admits nothing more for the hostile or broad value %j", (value) => {
    expect(formActionSource(value)).toBe("");
    expect(pageCsp({ formAction: value })).toBe(policy("'self'"));
  });

  it("keeps the script nonce and frame origins", () => {
    expect(pageCsp({ formAction: "com.example.app:", scriptNonce: "abcdefghijklmnopqrstuvwx", frameOrigins: ["https://sp.example.com", "javascript:x"] }))
      .toBe("default-src 'none'; script-src 'nonce-abcdefghijklmnopqrstuvwx'; frame-src https://sp.example.com; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; form-action 'self' com.example.app:; frame-ancestors 'none'; base-uri 'none'");
  });
});

describe("pageCsp script hashes", () => {
  it("admits the show-password toggle by its SHA-256, beside a nonce", async () => {
    const { PASSWORD_TOGGLE_SCRIPT, PASSWORD_TOGGLE_SOURCE } = await import("./password-toggle.js");
    const { createHash } = await import("node:crypto");
    expect(PASSWORD_TOGGLE_SOURCE).toBe(`'sha256-${createHash("sha256").update(PASSWORD_TOGGLE_SCRIPT).digest("base64")}'`);
    expect(pageCsp({ scriptHashes: [PASSWORD_TOGGLE_SOURCE] })).toBe(`default-src 'none'; script-src ${PASSWORD_TOGGLE_SOURCE}; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`);
    expect(pageCsp({ scriptNonce: "abcdefghijklmnopqrstuvwx", scriptHashes: [PASSWORD_TOGGLE_SOURCE] })).toContain(`script-src 'nonce-abcdefghijklmnopqrstuvwx' ${PASSWORD_TOGGLE_SOURCE};`);
  });

  it("drops anything that is not one whole sha256 hash source", () => {
    for (const bad of ["'unsafe-inline'", "'sha256-abc='", "'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='; script-src *", "*"]) {
      expect(pageCsp({ scriptHashes: [bad] })).not.toContain("script-src");
    }
  });
});
