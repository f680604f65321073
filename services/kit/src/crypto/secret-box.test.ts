import { SecretBox, generateMasterKey } from "./secret-box.js";

describe("SecretBox", () => {
  const box = new SecretBox(generateMasterKey());

  it("round-trips a secret bound to its place", () => {
    const sealed = box.seal("s3cret!", "realm:1:smtpPassword");
    expect(sealed.startsWith("v1:")).toBe(true);
    expect(sealed).not.toContain("s3cret");
    expect(box.open(sealed, "realm:1:smtpPassword")).toBe("s3cret!");
  });

  it("refuses a ciphertext moved to another place", () => {
    const sealed = box.seal("s3cret!", "realm:1:smtpPassword");
    expect(() => box.open(sealed, "realm:2:smtpPassword")).toThrow();
  });

  it("refuses another master key", () => {
    const sealed = box.seal("x", "a");
    expect(() => new SecretBox(generateMasterKey()).open(sealed, "a")).toThrow();
  });

  it("MACs a value for one purpose under the master key (128 bits, base64url)", () => {
    const tag = box.mac("p", "value");
    expect(tag).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(box.mac("p", "value")).toBe(tag);
    expect(box.verifyMac("p", "value", tag)).toBe(true);
    expect(box.verifyMac("p", "value2", tag)).toBe(false);
    expect(box.verifyMac("q", "value", tag)).toBe(false);
    expect(box.verifyMac("p", "value", tag.slice(0, 21))).toBe(false);
    expect(box.verifyMac("p", "value", `${tag.slice(0, 21)}${tag.endsWith("A") ? "B" : "A"}`)).toBe(false);
    expect(new SecretBox(generateMasterKey()).verifyMac("p", "value", tag)).toBe(false);
  });

  it("rejects a master key of the wrong size", () => {
    expect(() => new SecretBox("c2hvcnQ")).toThrow("32 bytes");
  });
});
