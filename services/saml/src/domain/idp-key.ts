import { jsonTimestamp } from "../../../kit/src/json-timestamp.js";
/** A realm's SAML IdP signing key (DESIGN 3: per-realm SAML signing key + certificate). */
export type IdpKeyStatus = "ACTIVE" | "PASSIVE";

export interface IdpKeyRecord {
  [key: string]: unknown;
  _id: string;
  realmId: string;
  realm: string;
  /**
   * Uniqueness slot: the realm id while ACTIVE (a unique index makes "one active key per realm"
   * hold under concurrent first use), "passive:<id>" once rotated out.
   */
  slot: string;
  status: IdpKeyStatus;
  algorithm: "RSA-SHA256";
  /** PEM of the self-signed certificate (public). */
  certificate: string;
  /** PKCS#8 PEM of the private key, sealed with the SecretBox (aad bound to realm and key id). */
  privateKeySealed: string;
  subject: string;
  notBefore: number;
  notAfter: number;
  fingerprintSha256: string;
  createdAt: number;
  /** PASSIVE keys: when they stop being published and are dropped. */
  retiresAt?: number;
}

export function idpKeyView(k: IdpKeyRecord): Record<string, unknown> {
  return {
    id: k._id,
    status: k.status,
    algorithm: k.algorithm,
    certificate: k.certificate,
    subject: k.subject,
    notBefore: jsonTimestamp(k.notBefore),
    notAfter: jsonTimestamp(k.notAfter),
    fingerprintSha256: k.fingerprintSha256,
    createdAt: jsonTimestamp(k.createdAt),
    ...(k.retiresAt !== undefined ? { retiresAt: jsonTimestamp(k.retiresAt) } : {}),
  };
}

export function privateKeyAad(k: Pick<IdpKeyRecord, "_id" | "realmId">): string {
  return `saml-key:${k.realmId}:${k._id}:privateKey`;
}
