import { X509Certificate } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { CertificateInfo } from "./service-provider.js";

const PEM = /^-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----$/;
const BARE_BASE64 = /^[A-Za-z0-9+/=\s]+$/;

/**
 * Parses an SP signing certificate (spec 2.11 "certificate", PEM). Accepted: a PEM block, or its
 * base64 body alone (as in a metadata <ds:X509Certificate>, SAML 2.0 metadata section 2.4.1.1).
 * It must be an X.509 certificate carrying an RSA or EC public key and must not be expired at `now`.
 */
export function parseSpCertificate(field: string, value: string, now: number): CertificateInfo {
  const der = toDer(field, value.trim());
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(der);
  } catch {
    throw IamError.invalid(field, `${field} is not a valid X.509 certificate`);
  }
  const keyType = cert.publicKey.asymmetricKeyType;
  if (keyType !== "rsa" && keyType !== "ec") {
    throw IamError.invalid(field, `${field} must carry an RSA or EC public key`);
  }
  const notAfter = Date.parse(cert.validTo);
  if (!Number.isFinite(notAfter) || notAfter <= now) {
    throw IamError.invalid(field, `${field} has expired`);
  }
  return { subject: cert.subject.split("\n").join(", "), notAfter, fingerprintSha256: cert.fingerprint256 };
}

function toDer(field: string, value: string): Buffer {
  const m = PEM.exec(value);
  const body = m ? m[1] : BARE_BASE64.test(value) ? value : undefined;
  if (body === undefined) throw IamError.invalid(field, `${field} must be a PEM certificate`);
  const der = Buffer.from(body.replace(/\s+/g, ""), "base64");
  if (der.length === 0) throw IamError.invalid(field, `${field} must be a PEM certificate`);
  return der;
}
