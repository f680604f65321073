import type { Doc } from "../../../kit/src/store/port.js";
import type { PublicJwk, SigningAlg } from "./signing-alg.js";

/** active: signs and is published; passive: published, not signing; retired: neither. */
export type KeyStatus = "active" | "passive" | "retired";

/**
 * A stored signing key (collection `signing_keys`). `_id` is the kid, the RFC 7638 thumbprint.
 * `slot` enforces one active key per realm and algorithm through a unique index: it is
 * `<realmId>:<alg>:active` while active and the kid afterwards (unique fields must be present).
 */
export interface SigningKeyFields {
  /** The kid. */
  _id: string;
  realmId: string;
  realmName: string;
  alg: SigningAlg;
  status: KeyStatus;
  /**
   * Created on first use for a client's ID or access token algorithm: it signs that client's tokens
   * but does not select the realm's algorithm (only the realm's own keys and rotation do).
   */
  clientOnly?: boolean;
  slot: string;
  publicJwk: PublicJwk;
  /** PKCS8 PEM sealed with SecretBox, associated data `signing-key:<kid>`. */
  privateKeySealed: string;
  createdAt: number;
  rotatedAt?: number;
  /** When the last token this key could have signed expires (set on rotation). */
  notAfter?: number;
}

export type SigningKeyRecord = SigningKeyFields & Doc;

export function activeSlot(realmId: string, alg: SigningAlg): string {
  return `${realmId}:${alg}:active`;
}

export function sealAad(kid: string): string {
  return `signing-key:${kid}`;
}
