import { createHash, randomBytes, sign, X509Certificate, type KeyObject } from "node:crypto";
import {
  bitString, boolean, explicit, nullValue, octetString, oid, sequence, set, smallInteger, time, unsignedInteger, utf8String,
} from "./der.js";

const SHA256_WITH_RSA = "1.2.840.113549.1.1.11";
const COMMON_NAME = "2.5.4.3";
const BASIC_CONSTRAINTS = "2.5.29.19";
const SUBJECT_KEY_ID = "2.5.29.14";

/**
 * A self-signed X.509 v3 certificate (RFC 5280 section 4.1) for an RSA key, signed with
 * sha256WithRSAEncryption: subject = issuer = CN=<commonName>, as SAML IdPs publish in metadata
 * (SAML 2.0 metadata section 2.4.1.1, KeyDescriptor; the certificate only carries the key).
 */
export function selfSignedCertificate(opts: {
  commonName: string; publicKey: KeyObject; privateKey: KeyObject; notBefore: number; notAfter: number;
}): string {
  const algorithm = sequence(oid(SHA256_WITH_RSA), nullValue());
  const name = sequence(set(sequence(oid(COMMON_NAME), utf8String(opts.commonName))));
  const spki = opts.publicKey.export({ type: "spki", format: "der" });
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f; // RFC 5280 section 4.1.2.2: positive, at most 20 octets
  const keyId = createHash("sha1").update(spki).digest();
  const extensions = explicit(3, sequence(
    sequence(oid(BASIC_CONSTRAINTS), boolean(true), octetString(sequence())),
    sequence(oid(SUBJECT_KEY_ID), octetString(octetString(keyId))),
  ));
  const tbs = sequence(
    explicit(0, smallInteger(2)), // v3
    unsignedInteger(serial),
    algorithm,
    name,
    sequence(time(opts.notBefore), time(opts.notAfter)),
    name,
    spki,
    extensions,
  );
  const signature = sign("sha256", tbs, opts.privateKey);
  const der = sequence(tbs, algorithm, bitString(signature));
  const pem = `-----BEGIN CERTIFICATE-----\n${der.toString("base64").match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`;
  // Parse it back: a certificate Node cannot read or verify is never stored.
  const check = new X509Certificate(pem);
  if (!check.verify(opts.publicKey)) throw new Error("self-signed certificate does not verify");
  return pem;
}
