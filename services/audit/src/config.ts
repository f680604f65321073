import { int, type Env } from "../../kit/src/config.js";
import { readCommonConfig, type CommonConfig } from "../../kit/src/runtime/common-config.js";
import { readOutboundPolicy } from "../../kit/src/outbound/address-policy.js";
import { DEFAULT_RETRY } from "./domain/retry-schedule.js";
import type { DispatchSettings } from "./delivery/dispatcher.js";

export interface AuditConfig {
  common: CommonConfig;
  /** Webhook delivery (docs/webhooks.md); where webhooks may point is TESSERA_OUTBOUND_ALLOW_LOOPBACK's. */
  webhooks: DispatchSettings;
}

export function loadAuditConfig(env: Env): AuditConfig {
  return {
    common: readCommonConfig(env),
    webhooks: {
      retry: {
        baseMs: int(env, "TESSERA_WEBHOOK_RETRY_BASE_MS", DEFAULT_RETRY.baseMs, 10, 600_000),
        maxMs: int(env, "TESSERA_WEBHOOK_RETRY_MAX_MS", DEFAULT_RETRY.maxMs, 10, 86_400_000),
        windowMs: int(env, "TESSERA_WEBHOOK_RETRY_WINDOW_SECONDS", DEFAULT_RETRY.windowMs / 1000, 60, 7 * 86_400) * 1000,
      },
      timeoutMs: int(env, "TESSERA_WEBHOOK_TIMEOUT_MS", 10_000, 100, 60_000),
      queueSize: int(env, "TESSERA_WEBHOOK_QUEUE_SIZE", 100, 1, 10_000),
      concurrency: 4,
      pollMs: int(env, "TESSERA_WEBHOOK_POLL_MS", 1_000, 50, 60_000),
      outbound: readOutboundPolicy(env),
    },
  };
}
