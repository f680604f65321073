import { baseUrl, int, oneOf, type Env } from "../../kit/src/config.js";
import { gatewayPort, readCommonConfig, type CommonConfig } from "../../kit/src/runtime/common-config.js";

export interface SamlConfig {
  common: CommonConfig;
  /**
   * `{base_url}` (TESSERA_PUBLIC_URL, read as the gateway reads it): the IdP entityID of a realm is
   * `{base_url}/realms/<realm>`, and assertions are issued under it.
   */
  publicUrl: string;
  /** RSA modulus length of new signing keys (TESSERA_SAML_KEY_BITS: 2048 or 3072). */
  keyBits: number;
  /** How long a rotated-out signing key stays in the metadata (TESSERA_SAML_KEY_GRACE_SECONDS). */
  keyGraceSeconds: number;
}

export function loadSamlConfig(env: Env): SamlConfig {
  return {
    common: readCommonConfig(env),
    publicUrl: baseUrl(env, "TESSERA_PUBLIC_URL", `http://localhost:${gatewayPort(env)}`),
    keyBits: Number(oneOf(env, "TESSERA_SAML_KEY_BITS", ["2048", "3072"] as const, "2048")),
    keyGraceSeconds: int(env, "TESSERA_SAML_KEY_GRACE_SECONDS", 30 * 24 * 3600, 0, 10 * 365 * 24 * 3600),
  };
}
