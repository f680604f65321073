import type { BusHandler } from "./port.js";

/**
 * Event ids a consumer has already processed. The bus delivers at least once (a redelivery after
 * a lost ack, a crash between effect and ack, a duplicate publish outside the dedup window), so a
 * consumer whose effect is not naturally idempotent remembers ids here.
 * One SeenEvents per consumer purpose: two consumers of the same event must not share one.
 */
export interface SeenEvents {
  has(eventId: string): Promise<boolean>;
  /** Records the id; false when it was already recorded (someone processed it meanwhile). */
  mark(eventId: string): Promise<boolean>;
}

/**
 * Wraps a handler so its effect runs once per event id. The id is recorded only after the
 * handler resolves: a handler that throws is retried by the bus and must then run again.
 * (The window left, a crash after the effect and before `mark`, is the usual at-least-once gap;
 * handlers that need exactly-once write the mark in the same store transaction as their effect.)
 */
export function idempotent(seen: SeenEvents, handler: BusHandler): BusHandler {
  return async (message) => {
    if (await seen.has(message.id)) return;
    await handler(message);
    await seen.mark(message.id);
  };
}
