import { baseUrl, int, type Env } from "../../kit/src/config.js";
import { readOutboundPolicy, type OutboundPolicy } from "../../kit/src/outbound/address-policy.js";
import { gatewayPort, readCommonConfig, type CommonConfig } from "../../kit/src/runtime/common-config.js";

export interface TokenConfig {
  common: CommonConfig;
  /** Active signing keys older than this many days are rotated (TESSERA_KEY_ROTATION_DAYS, default 30). */
  keyRotationDays: number;
  /** How often the rotation schedule is checked (TESSERA_KEY_CHECK_INTERVAL_SECONDS, default 600; 0 = never). */
  keyCheckIntervalSeconds: number;
  /** `{base_url}` (TESSERA_PUBLIC_URL, as the gateway reads it): the issuer of back-channel logout tokens sent without a request. */
  publicUrl: string;
  /**
   * Failed user-code lookups on the device verification page allowed per realm and client IP
   * within the window, before that IP is refused with 429 until the window moves on (RFC 8628
   * section 5.1; TESSERA_DEVICE_USER_CODE_FAILURES, default 10; always on: at least 1).
   */
  userCodeFailures: number;
  /** The window of that bound (TESSERA_DEVICE_USER_CODE_WINDOW_SECONDS, default 60). */
  userCodeFailureWindowSeconds: number;
  /** Where client jwks_uris may be fetched (TESSERA_OUTBOUND_ALLOW_LOOPBACK). */
  outbound: OutboundPolicy;
}

export function loadTokenConfig(env: Env): TokenConfig {
  return {
    common: readCommonConfig(env),
    keyRotationDays: int(env, "TESSERA_KEY_ROTATION_DAYS", 30, 1, 3650),
    keyCheckIntervalSeconds: int(env, "TESSERA_KEY_CHECK_INTERVAL_SECONDS", 600, 0, 86_400),
    publicUrl: baseUrl(env, "TESSERA_PUBLIC_URL", `http://localhost:${gatewayPort(env)}`),
    userCodeFailures: int(env, "TESSERA_DEVICE_USER_CODE_FAILURES", 10, 1, 1000),
    userCodeFailureWindowSeconds: int(env, "TESSERA_DEVICE_USER_CODE_WINDOW_SECONDS", 60, 1, 86_400),
    outbound: readOutboundPolicy(env),
  };
}
