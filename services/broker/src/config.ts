import { baseUrl, int, type Env } from "../../kit/src/config.js";
import { gatewayPort, readCommonConfig, type CommonConfig } from "../../kit/src/runtime/common-config.js";
import { readOutboundPolicy, type OutboundPolicy } from "../../kit/src/outbound/address-policy.js";

export interface BrokerConfig {
  common: CommonConfig;
  /** `{base_url}` (TESSERA_PUBLIC_URL, read as the gateway reads it): the callback URL is built from it. */
  publicUrl: string;
  /** Where upstream fetches may go (TESSERA_OUTBOUND_ALLOW_LOOPBACK). */
  outbound: OutboundPolicy;
  /** How long a broker login state waits for the upstream's callback (TESSERA_BROKER_STATE_TTL_SECONDS). */
  stateTtlSeconds: number;
}

export function loadBrokerConfig(env: Env): BrokerConfig {
  return {
    common: readCommonConfig(env),
    publicUrl: baseUrl(env, "TESSERA_PUBLIC_URL", `http://localhost:${gatewayPort(env)}`),
    outbound: readOutboundPolicy(env),
    stateTtlSeconds: int(env, "TESSERA_BROKER_STATE_TTL_SECONDS", 600, 10, 3600),
  };
}
