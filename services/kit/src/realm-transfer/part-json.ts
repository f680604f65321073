import { IamError } from "../errors.js";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** A realm part's JSON bytes (RealmTransferService), parsed; anything but an object is a 400. */
export function readPart(json: Uint8Array): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(decoder.decode(json));
  } catch {
    throw IamError.invalid("json", "the part is not JSON");
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw IamError.invalid("json", "the part must be a JSON object");
  return v as Record<string, unknown>;
}

export function writePart(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}
