import type { Env } from "../../kit/src/config.js";
import { readCommonConfig, type CommonConfig } from "../../kit/src/runtime/common-config.js";

export interface SamlConfig {
  common: CommonConfig;
}

export function loadSamlConfig(env: Env): SamlConfig {
  return { common: readCommonConfig(env) };
}
