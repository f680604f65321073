import { inflateRawSync, deflateRawSync } from "node:zlib";
import { SAML_REASONS, samlInvalid } from "./saml-errors.js";

/** Cap on inflated (Redirect) and decoded (POST) messages. */
export const MAX_MESSAGE_BYTES = 256 * 1024;
/** Cap on the base64 text received (a POSTed 256 KiB message is ~342 KiB of base64). */
const MAX_ENCODED_CHARS = 512 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function base64Bytes(encoded: string): Buffer {
  if (encoded.length > MAX_ENCODED_CHARS) throw samlInvalid(SAML_REASONS.oversized, "oversized SAML message");
  const compact = encoded.replace(/[\r\n\t ]/g, "");
  if (compact.length === 0 || !BASE64.test(compact)) throw samlInvalid(SAML_REASONS.invalidRequest, "SAML message is not base64");
  return Buffer.from(compact, "base64");
}

/**
 * HTTP-Redirect binding (SAML 2.0 bindings 3.4.4.1): base64 of the DEFLATE (RFC 1951, raw)
 * encoding. Inflation stops at MAX_MESSAGE_BYTES, so a deflate bomb costs nothing.
 */
export function decodeRedirectMessage(encoded: string): string {
  const raw = base64Bytes(encoded);
  let xml: Buffer;
  try {
    xml = inflateRawSync(raw, { maxOutputLength: MAX_MESSAGE_BYTES });
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" || e instanceof RangeError) {
      throw samlInvalid(SAML_REASONS.oversized, "oversized deflate payload");
    }
    throw samlInvalid(SAML_REASONS.invalidRequest, "SAML message is not DEFLATE-encoded");
  }
  return utf8(xml);
}

/** HTTP-POST binding (SAML 2.0 bindings 3.5.4): base64 of the XML. */
export function decodePostMessage(encoded: string): string {
  const xml = base64Bytes(encoded);
  if (xml.length > MAX_MESSAGE_BYTES) throw samlInvalid(SAML_REASONS.oversized, "oversized SAML message");
  return utf8(xml);
}

export function encodeRedirectMessage(xml: string): string {
  return deflateRawSync(Buffer.from(xml, "utf8")).toString("base64");
}

export function encodePostMessage(xml: string): string {
  return Buffer.from(xml, "utf8").toString("base64");
}

function utf8(b: Buffer): string {
  const s = new TextDecoder("utf-8", { fatal: false }).decode(b);
  if (s.includes("\uFFFD")) throw samlInvalid(SAML_REASONS.invalidRequest, "SAML message is not UTF-8");
  return s;
}

/** One query parameter as it appeared on the wire (raw, still URL-encoded) and decoded. */
export interface RawParam {
  raw: string;
  value: string;
}

/**
 * Splits a raw query string keeping each parameter's original octets: the Redirect binding signs
 * them exactly as sent (bindings 3.4.4.1), not a re-encoding. A repeated SAML parameter is refused.
 */
export function parseRawQuery(rawQuery: string): Map<string, RawParam> {
  const out = new Map<string, RawParam>();
  const q = rawQuery.startsWith("?") ? rawQuery.slice(1) : rawQuery;
  for (const part of q.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const raw = eq < 0 ? "" : part.slice(eq + 1);
    const name = decodeComponent(rawName);
    if (out.has(name)) throw samlInvalid(SAML_REASONS.invalidRequest, `repeated query parameter ${name}`);
    out.set(name, { raw, value: decodeComponent(raw) });
  }
  return out;
}

function decodeComponent(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    throw samlInvalid(SAML_REASONS.invalidRequest, "malformed query string");
  }
}
