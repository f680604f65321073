import type { Logger } from "pino";
import type { BusMessage, WatchHandler, WatchOptions } from "./port.js";

/**
 * Hands one message to a watcher (Bus.watch). A handler that throws may not have dropped what
 * it should have, so the watcher hears of it as a gap, the same as a missed message.
 */
export function deliverWatched(options: WatchOptions, handler: WatchHandler, message: BusMessage, logger: Logger): void {
  try {
    handler(message);
  } catch (err) {
    logger.warn({ err, subject: message.subject, eventId: message.id }, "bus watcher failed; reporting a gap");
    reportGap(options, logger);
  }
}

/** Runs a watcher's onGap; its own failure is logged, never thrown into the adapter. */
export function reportGap(options: WatchOptions, logger: Logger): void {
  try {
    options.onGap();
  } catch (err) {
    logger.error({ err, subject: options.subject }, "bus watcher's onGap failed");
  }
}
