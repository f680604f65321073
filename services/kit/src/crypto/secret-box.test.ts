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

  it("rejects a master key of the wrong size", () => {
    expect(() => new SecretBox("c2hvcnQ")).toThrow("32 bytes");
  });
});
