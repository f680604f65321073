import { execFileSync } from "node:child_process";
import { generateKeyPairSync, X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { oid, time, unsignedInteger } from "./der.js";
import { selfSignedCertificate } from "./self-signed-cert.js";

describe("self-signed IdP certificate (RFC 5280)", () => {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const notBefore = Date.parse("2026-01-02T03:04:05Z");
  const notAfter = Date.parse("2036-01-02T03:04:05Z");
  const pem = selfSignedCertificate({ commonName: "acme_realm", publicKey, privateKey, notBefore, notAfter });

  it("is a self-signed v3 certificate for CN=<realm> that Node reads and verifies", () => {
    const x = new X509Certificate(pem);
    expect(x.subject).toBe("CN=acme_realm");
    expect(x.issuer).toBe("CN=acme_realm");
    expect(Date.parse(x.validFrom)).toBe(notBefore);
    expect(Date.parse(x.validTo)).toBe(notAfter);
    expect(x.verify(publicKey)).toBe(true);
    expect(x.checkIssued(x)).toBe(true);
    expect(x.publicKey.export({ type: "spki", format: "pem" })).toBe(publicKey.export({ type: "spki", format: "pem" }));
  });

  it("is accepted by openssl as a sha256WithRSAEncryption self-signed certificate", () => {
    const dir = mkdtempSync(join(tmpdir(), "tessera-der-"));
    try {
      writeFileSync(join(dir, "c.pem"), pem);
      expect(execFileSync("openssl", ["verify", "-CAfile", join(dir, "c.pem"), join(dir, "c.pem")]).toString()).toContain(": OK");
      const text = execFileSync("openssl", ["x509", "-in", join(dir, "c.pem"), "-noout", "-text"]).toString();
      expect(text).toContain("Version: 3 (0x2)");
      expect(text).toContain("Signature Algorithm: sha256WithRSAEncryption");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("encodes DER primitives per X.690", () => {
    expect(oid("1.2.840.113549.1.1.11").toString("hex")).toBe("06092a864886f70d01010b");
    expect(unsignedInteger(Buffer.from([0x80])).toString("hex")).toBe("02020080");
    expect(unsignedInteger(Buffer.from([0, 0, 5])).toString("hex")).toBe("020105");
    expect(time(Date.parse("2049-12-31T23:59:59Z")).toString("ascii").slice(2)).toBe("491231235959Z");
    expect(time(Date.parse("2050-01-01T00:00:00Z"))[0]).toBe(0x18);
    expect(time(Date.parse("2050-01-01T00:00:00Z")).toString("ascii").slice(2)).toBe("20500101000000Z");
  });
});
