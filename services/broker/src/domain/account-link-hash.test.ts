import { createHash } from "node:crypto";
import { accountLinkHash, accountLinkHashMatches } from "./account-link-hash.js";

describe("account link hash (Keycloak's client-initiated account linking)", () => {
  it("is base64url(SHA-256(nonce + session + client + alias)) without padding", () => {
    // The value Keycloak's own Java sample computes for these inputs (MessageDigest SHA-256 + Base64Url.encode).
    const expected = createHash("sha256").update("n-1s-2account-consolecorp").digest("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect(accountLinkHash("n-1", "s-2", "account-console", "corp")).toBe(expected);
    expect(accountLinkHash("n-1", "s-2", "account-console", "corp")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("hashes UTF-8 bytes", () => {
    expect(accountLinkHash("ü", "", "", "")).toBe(createHash("sha256").update(Buffer.from("c3bc", "hex")).digest("base64url"));
  });

  it("matches only the same four values, with or without padding", () => {
    const h = accountLinkHash("nonce", "sid", "account-console", "corp");
    expect(accountLinkHashMatches(h, "nonce", "sid", "account-console", "corp")).toBe(true);
    expect(accountLinkHashMatches(`${h}=`, "nonce", "sid", "account-console", "corp")).toBe(true);
    expect(accountLinkHashMatches(h, "nonce", "other-sid", "account-console", "corp")).toBe(false);
    expect(accountLinkHashMatches(h, "nonce", "sid", "rp", "corp")).toBe(false);
    expect(accountLinkHashMatches(h, "nonce", "sid", "account-console", "corp2")).toBe(false);
    expect(accountLinkHashMatches(h, "nonce2", "sid", "account-console", "corp")).toBe(false);
    expect(accountLinkHashMatches("", "nonce", "sid", "account-console", "corp")).toBe(false);
  });
});
