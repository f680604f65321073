import type { Env } from "../../kit/src/config.js";
import { readCommonConfig, type CommonConfig } from "../../kit/src/runtime/common-config.js";

export interface FederationConfig {
  common: CommonConfig;
}

export function loadFederationConfig(env: Env): FederationConfig {
  return { common: readCommonConfig(env) };
}
