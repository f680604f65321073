import { generateKeyPair as generateKeyPairCb, createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { promisify } from "node:util";
import { calculateJwkThumbprint } from "jose";
import { IamError } from "../../../kit/src/errors.js";

const generateKeyPair = promisify(generateKeyPairCb);

/**
 * JWS algorithms a realm can sign with (DESIGN 5: RS256 by default, the others selectable per realm
 * by rotation and per client for its ID and access tokens).
 */
export const SIGNING_ALGS = ["RS256", "PS256", "ES256", "EdDSA"] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];
export const DEFAULT_SIGNING_ALG: SigningAlg = "RS256";

/** A public JWK as published at the JWKS endpoint (RFC 7517 section 4; RFC 7518 section 6; RFC 8037). */
export interface PublicJwk {
  kty: string;
  kid: string;
  use: "sig";
  alg: SigningAlg;
  n?: string;
  e?: string;
  crv?: string;
  x?: string;
  y?: string;
}

export interface GeneratedKey {
  kid: string;
  alg: SigningAlg;
  publicJwk: PublicJwk;
  privateKeyPem: string;
}

export function parseSigningAlg(value: string | undefined, field = "alg"): SigningAlg {
  if (value === undefined || value === "") return DEFAULT_SIGNING_ALG;
  if ((SIGNING_ALGS as readonly string[]).includes(value)) return value as SigningAlg;
  throw IamError.invalid(field, `alg must be one of ${SIGNING_ALGS.join(", ")}`, "invalid_alg");
}

/**
 * A client's stored choice of algorithm, "" (the realm's) for none. The directory validates what it
 * stores; a value this service does not know (a newer replica's) falls back to the realm's.
 */
export function clientSigningAlg(value: string): SigningAlg | "" {
  return (SIGNING_ALGS as readonly string[]).includes(value) ? (value as SigningAlg) : "";
}

/**
 * Generates a key pair off the event loop. RSA is 2048 bits (RFC 7518 sections 3.3 and 3.5 require
 * at least 2048); PS256 gets an RSA key of its own, not RS256's, whose JWK says `alg: PS256` (RFC
 * 7518 section 6.3; RFC 7517 section 4.4 lets a JWK name the one algorithm it is for). ES256 uses
 * P-256 (RFC 7518 section 3.4), EdDSA uses Ed25519 (RFC 8037 section 3.1).
 */
export async function generateSigningKey(alg: SigningAlg): Promise<GeneratedKey> {
  const pair = alg === "RS256" || alg === "PS256"
    ? await generateKeyPair("rsa", { modulusLength: 2048, publicExponent: 0x10001 })
    : alg === "ES256"
      ? await generateKeyPair("ec", { namedCurve: "P-256" })
      : await generateKeyPair("ed25519");
  const raw = pair.publicKey.export({ format: "jwk" }) as Record<string, string>;
  // RFC 7638 section 3: the thumbprint covers the required members only; jose picks them per kty.
  const kid = await calculateJwkThumbprint(raw as never, "sha256");
  const publicJwk = toPublicJwk(raw, kid, alg);
  const privateKeyPem = pair.privateKey.export({ type: "pkcs8", format: "pem" }) as string;
  return { kid, alg, publicJwk, privateKeyPem };
}

function toPublicJwk(raw: Record<string, string>, kid: string, alg: SigningAlg): PublicJwk {
  const jwk: PublicJwk = { kty: raw.kty as string, kid, use: "sig", alg };
  for (const m of ["n", "e", "crv", "x", "y"] as const) if (raw[m]) jwk[m] = raw[m];
  return jwk;
}

export function privateKeyObject(pem: string): KeyObject {
  return createPrivateKey(pem);
}

export function publicKeyObject(jwk: PublicJwk): KeyObject {
  const { kid: _k, use: _u, alg: _a, ...material } = jwk;
  return createPublicKey({ key: material as never, format: "jwk" });
}
