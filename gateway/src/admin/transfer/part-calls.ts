import { Code, ConnectError } from "@connectrpc/connect";

export const encoder = new TextEncoder();
export const decoder = new TextDecoder();

/** The JSON of a part, as bytes for RealmTransferService. */
export function partBytes(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

export function parsePart<T = unknown>(bytes: Uint8Array): T {
  return JSON.parse(decoder.decode(bytes)) as T;
}

/**
 * Runs a part owner's call, or answers undefined when the owner does not serve the realm transfer
 * contract yet (Unimplemented; over HTTP a Connect router's unknown service is the same code).
 */
export async function unlessUnimplemented<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof ConnectError && e.code === Code.Unimplemented) return undefined;
    throw e;
  }
}
