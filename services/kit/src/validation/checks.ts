import { IamError } from "../errors.js";

/**
 * Small input checks shared by every service's domain code. Each throws IamError invalidArgument
 * naming the field, which the gateway renders as a 400 with `field`.
 */
export function requireString(field: string, value: string | undefined, min = 1, max = 255): string {
  if (value === undefined || value === null) throw IamError.invalid(field, `${field} is required`);
  return checkLength(field, value, min, max);
}

export function checkLength(field: string, value: string, min: number, max: number): string {
  if (value.length < min) throw IamError.invalid(field, `${field} must be at least ${min} characters`);
  if (value.length > max) throw IamError.invalid(field, `${field} must be at most ${max} characters`);
  return value;
}

export function checkInt(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw IamError.invalid(field, `${field} must be an integer between ${min} and ${max}`);
  }
  return value;
}

// A pragmatic address check (RFC 5321 lengths, one @, a dotted domain); the real proof is delivery.
const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function checkEmail(field: string, value: string): string {
  if (value.length > 254 || !EMAIL.test(value)) throw IamError.invalid(field, `${field} must be a valid email address`);
  return value;
}

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export function checkHostname(field: string, value: string): string {
  if (!HOSTNAME.test(value)) throw IamError.invalid(field, `${field} must be a hostname`);
  return value;
}

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export function checkColour(field: string, value: string): string {
  if (!HEX_COLOUR.test(value)) throw IamError.invalid(field, `${field} must be a hex colour like #1a73e8`);
  return value;
}

/** A lowercase slug: realm names, client ids. */
export const SLUG = /^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/;
