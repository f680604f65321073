import { int, type Env } from "../../kit/src/config.js";
import { readCommonConfig, type CommonConfig } from "../../kit/src/runtime/common-config.js";

export interface TokenConfig {
  common: CommonConfig;
  /** Active signing keys older than this many days are rotated (TESSERA_KEY_ROTATION_DAYS, default 30). */
  keyRotationDays: number;
  /** How often the rotation schedule is checked (TESSERA_KEY_CHECK_INTERVAL_SECONDS, default 600; 0 = never). */
  keyCheckIntervalSeconds: number;
}

export function loadTokenConfig(env: Env): TokenConfig {
  return {
    common: readCommonConfig(env),
    keyRotationDays: int(env, "TESSERA_KEY_ROTATION_DAYS", 30, 1, 3650),
    keyCheckIntervalSeconds: int(env, "TESSERA_KEY_CHECK_INTERVAL_SECONDS", 600, 0, 86_400),
  };
}
