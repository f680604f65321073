import { baseUrl, int, type Env } from "../../kit/src/config.js";
import { gatewayPort, readCommonConfig, type CommonConfig } from "../../kit/src/runtime/common-config.js";

export interface TokenConfig {
  common: CommonConfig;
  /** Active signing keys older than this many days are rotated (TESSERA_KEY_ROTATION_DAYS, default 30). */
  keyRotationDays: number;
  /** How often the rotation schedule is checked (TESSERA_KEY_CHECK_INTERVAL_SECONDS, default 600; 0 = never). */
  keyCheckIntervalSeconds: number;
  /** `{base_url}` (TESSERA_PUBLIC_URL, as the gateway reads it): the issuer of back-channel logout tokens sent without a request. */
  publicUrl: string;
}

export function loadTokenConfig(env: Env): TokenConfig {
  return {
    common: readCommonConfig(env),
    keyRotationDays: int(env, "TESSERA_KEY_ROTATION_DAYS", 30, 1, 3650),
    keyCheckIntervalSeconds: int(env, "TESSERA_KEY_CHECK_INTERVAL_SECONDS", 600, 0, 86_400),
    publicUrl: baseUrl(env, "TESSERA_PUBLIC_URL", `http://localhost:${gatewayPort(env)}`),
  };
}
