/** Defaults shared by both bus adapters, so embedded and cluster mode retry and retain alike. */

/** Port default (SubscribeOptions.retryDelayMs). */
export const DEFAULT_RETRY_DELAY_MS = 1000;
/** Port default (SubscribeOptions.maxDeliveries). */
export const DEFAULT_MAX_DELIVERIES = 20;
/**
 * How long events are retained: long enough for a consumer that is down for a weekend to catch
 * up, and the horizon processed-event ids must be remembered for (see idempotent.ts).
 */
export const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
