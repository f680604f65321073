import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * TOTP (RFC 6238) over HOTP (RFC 4226), as authenticator apps expect it: HMAC-SHA-1, 6 digits,
 * 30-second steps from the Unix epoch (T0 = 0). Written on node:crypto rather than otplib v13 so
 * verification reports which time step matched (replay protection, RFC 6238 section 5.2) and
 * reads the injected clock; otplib serves as an independent oracle in the tests.
 */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_S = 30;
/** Accepted clock drift: one step either side (RFC 6238 section 5.2 recommends at most one). */
export const TOTP_WINDOW = 1;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 section 6 base32, unpadded (as otpauth:// URIs carry it). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/=+$/, "").replace(/\s+/g, "");
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const i = BASE32.indexOf(ch);
    if (i < 0) throw new Error("invalid base32");
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A fresh 160-bit secret (RFC 4226 section 4 recommends 160 bits), base32. */
export function generateTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The time step of an instant (RFC 6238 section 4.2: T = floor((now - T0) / X)). */
export function timeStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_S);
}

/** HOTP value for one counter (RFC 4226 section 5.3, dynamic truncation). */
export function hotp(secretBase32: string, counter: number): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", base32Decode(secretBase32)).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const bin = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(bin % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, "0");
}

export function totpAt(secretBase32: string, nowMs: number): string {
  return hotp(secretBase32, timeStep(nowMs));
}

/**
 * The step whose code equals `code` within the window around `nowMs`, or null. Every candidate is
 * compared in constant time, and all of them are computed, so timing does not reveal which matched.
 */
export function matchTotpStep(secretBase32: string, code: string, nowMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = timeStep(nowMs);
  let found: number | null = null;
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    if (timingSafeEqual(Buffer.from(hotp(secretBase32, step)), Buffer.from(code)) && found === null) found = step;
  }
  return found;
}

/** Key URI for authenticator apps (Google Authenticator "Key Uri Format"). */
export function otpauthUri(issuer: string, account: string, secretBase32: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const q = new URLSearchParams({
    secret: secretBase32, issuer, algorithm: "SHA1", digits: String(TOTP_DIGITS), period: String(TOTP_PERIOD_S),
  });
  return `otpauth://totp/${label}?${q.toString()}`;
}
