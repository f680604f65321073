import { generateKeyPairSync, X509Certificate } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import { opensslCertificate, pemBody } from "../../../../test/support/openssl-cert.js";
import { parseSpCertificate } from "./sp-certificate.js";
import { selfSignedCertificate } from "./self-signed-cert.js";

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof IamError) return `${e.field}: ${e.message}`;
    throw e;
  }
  return "accepted";
}

describe("SP certificate parsing (spec 2.11 certificate)", () => {
  const now = Date.now();
  const rsa = opensslCertificate({ cn: "sp.example.test" });

  it("parses an openssl RSA certificate with its subject, expiry and fingerprint", () => {
    const info = parseSpCertificate("certificate", rsa, now);
    const x = new X509Certificate(rsa);
    expect(info).toEqual({ subject: "CN=sp.example.test", notAfter: Date.parse(x.validTo), fingerprintSha256: x.fingerprint256 });
    expect(info.fingerprintSha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it("accepts the base64 body without BEGIN/END lines, and surrounding whitespace", () => {
    expect(parseSpCertificate("certificate", pemBody(rsa), now)).toEqual(parseSpCertificate("certificate", rsa, now));
    expect(parseSpCertificate("certificate", `\n  ${rsa}\n\n`, now).subject).toBe("CN=sp.example.test");
  });

  it("accepts an EC certificate", () => {
    expect(parseSpCertificate("certificate", opensslCertificate({ cn: "ec.example.test", key: "ec" }), now).subject).toBe("CN=ec.example.test");
  });

  it("refuses a key that is neither RSA nor EC", () => {
    expect(messageOf(() => parseSpCertificate("certificate", opensslCertificate({ cn: "ed", key: "ed25519" }), now)))
      .toBe("certificate: certificate must carry an RSA or EC public key");
  });

  it("refuses an expired certificate", () => {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const old = selfSignedCertificate({ commonName: "old", publicKey, privateKey, notBefore: Date.parse("2020-01-01"), notAfter: Date.parse("2021-01-01") });
    expect(messageOf(() => parseSpCertificate("certificate", old, now))).toBe("certificate: certificate has expired");
  });

  it.each([
    ["garbage", "certificate: certificate is not a valid X.509 certificate"],
    ["-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----", "certificate: certificate is not a valid X.509 certificate"],
    ["-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----", "certificate: certificate must be a PEM certificate"],
    ["<x/>", "certificate: certificate must be a PEM certificate"],
    ["===", "certificate: certificate must be a PEM certificate"],
  ])("refuses %j", (value, message) => {
    expect(messageOf(() => parseSpCertificate("certificate", value, now))).toBe(message);
  });
});
