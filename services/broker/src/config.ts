import type { Env } from "../../kit/src/config.js";
import { readCommonConfig, type CommonConfig } from "../../kit/src/runtime/common-config.js";

export interface BrokerConfig {
  common: CommonConfig;
}

export function loadBrokerConfig(env: Env): BrokerConfig {
  return { common: readCommonConfig(env) };
}
