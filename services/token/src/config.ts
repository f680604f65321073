import type { Env } from "../../kit/src/config.js";
import { readCommonConfig, type CommonConfig } from "../../kit/src/runtime/common-config.js";

export interface TokenConfig {
  common: CommonConfig;
}

export function loadTokenConfig(env: Env): TokenConfig {
  return { common: readCommonConfig(env) };
}
