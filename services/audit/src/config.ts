import type { Env } from "../../kit/src/config.js";
import { readCommonConfig, type CommonConfig } from "../../kit/src/runtime/common-config.js";

export interface AuditConfig {
  common: CommonConfig;
}

export function loadAuditConfig(env: Env): AuditConfig {
  return { common: readCommonConfig(env) };
}
