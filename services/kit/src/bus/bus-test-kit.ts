import { randomBytes } from "node:crypto";
import { pino, type Logger } from "pino";
import type { BusHandler, BusMessage } from "./port.js";

/** Small helpers for bus tests (contract and adapter-specific). Not used by production code. */

/** Polls `predicate` (a store read may be one) until it holds; fails naming `what` after the timeout. */
export async function waitUntil(what: string, predicate: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A lowercase token unique to this test, so subjects and durables never meet another test's. */
export function uniqueToken(): string {
  return `t${randomBytes(5).toString("hex")}`;
}

export const text = (s: string): Uint8Array => new TextEncoder().encode(s);
export const untext = (b: Uint8Array): string => new TextDecoder().decode(b);

/** A handler that records what it got, in order. */
export function recorder(): { handler: BusHandler; got: BusMessage[]; bodies: () => string[] } {
  const got: BusMessage[] = [];
  return {
    got,
    handler: async (m) => {
      got.push(m);
    },
    bodies: () => got.map((m) => untext(m.payload)),
  };
}

/** A pino logger that keeps its records, to assert on what an adapter logs. */
export function captureLogger(): { logger: Logger; records: Array<Record<string, unknown>> } {
  const records: Array<Record<string, unknown>> = [];
  const logger = pino({ level: "debug" }, {
    write(line: string) {
      records.push(JSON.parse(line) as Record<string, unknown>);
    },
  });
  return { logger, records };
}
