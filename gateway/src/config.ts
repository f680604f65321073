import proxyAddr from "proxy-addr";
import { baseUrl, bool, ConfigError, str, type Env } from "../../services/kit/src/config.js";
import { gatewayPort, readCommonConfig, type CommonConfig } from "../../services/kit/src/runtime/common-config.js";

export interface GatewayConfig {
  common: CommonConfig;
  port: number;
  /** `{base_url}` of the spec; issuers and links are built from it. */
  publicUrl: string;
  /** Admin API key as given by the operator (embedded mode generates one when unset). */
  adminApiKey: string | undefined;
  /** Listen address; loopback by default in embedded mode is not assumed: containers need 0.0.0.0. */
  host: string;
  /**
   * express "trust proxy": which proxies may set X-Forwarded-For (client IPs for throttling and
   * events). false by default; "true", a hop count, or a list of addresses/CIDRs behind an ingress.
   */
  trustProxy: boolean | number | string;
  /**
   * Embedded mode only, a testing aid: freeze every message crossing the in-memory RPC hop so code
   * that mutates a message it does not own throws (TESSERA_FREEZE_RPC_MESSAGES, default false).
   */
  freezeRpcMessages: boolean;
}

export function loadGatewayConfig(env: Env): GatewayConfig {
  const port = gatewayPort(env);
  const common = readCommonConfig(env);
  return {
    common,
    port,
    publicUrl: baseUrl(env, "TESSERA_PUBLIC_URL", `http://localhost:${port}`),
    adminApiKey: common.adminApiKey,
    host: str(env, "TESSERA_HOST", "0.0.0.0"),
    trustProxy: trustProxy(str(env, "TESSERA_TRUST_PROXY", "false")),
    freezeRpcMessages: bool(env, "TESSERA_FREEZE_RPC_MESSAGES", false),
  };
}

/**
 * TESSERA_TRUST_PROXY as express reads "trust proxy", checked here: express compiles a list only
 * when the app is built, and proxy-addr's TypeError would then stop the process with a trace.
 */
function trustProxy(v: string): boolean | number | string {
  if (v === "true") return true;
  if (v === "false") return false;
  if (/^\d+$/.test(v)) return Number(v);
  try {
    // express splits a string on commas the same way (compileTrust).
    proxyAddr.compile(v.split(",").map((s) => s.trim()));
  } catch {
    throw new ConfigError("TESSERA_TRUST_PROXY",
      `must be true, false, a hop count, or a comma-separated list of IP addresses, CIDRs, loopback, linklocal or uniquelocal, got "${v}"`);
  }
  return v;
}
