import { randomInt } from "node:crypto";

/** RFC 8628 section 6.1: consonants only (no vowels: no words), no look-alikes. */
const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
const USER_CODE_LENGTH = 8;

/**
 * The user code of a device authorization (RFC 8628 sections 3.2 and 6.1): 8 letters, stored
 * normalised ("WDJBMJHT") and shown as "WDJB-MJHT" wherever the user reads it, on the device and on
 * the verification pages alike, since the user compares the two.
 */
export function newUserCode(): string {
  return Array.from({ length: USER_CODE_LENGTH }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join("");
}

/** A stored (normalised) user code as the device shows it: XXXX-XXXX. */
export function displayUserCode(code: string): string {
  return code.length === USER_CODE_LENGTH ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}

/** Normalises a typed user code (RFC 8628 section 6.1): case and dashes/spaces do not matter. */
export function normaliseUserCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, "").slice(0, 32);
}
