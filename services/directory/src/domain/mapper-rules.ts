import { IamError } from "../../../kit/src/errors.js";
import { requireString } from "../../../kit/src/validation/checks.js";

import {
  ADDRESS_MEMBERS, BOOLEAN_MAPPER_KEYS, JSON_TYPES, MAPPER_TYPES, RESERVED_CLAIMS, TOKEN_FLAGS, USER_PROPERTIES, tokenFlagDefaults,
} from "../../../kit/src/validation/mapper-types.js";
import type { PluginRegistry } from "../../../kit/src/plugins/plugin-registry.js";

export { ADDRESS_MEMBERS, MAPPER_TYPES, USER_PROPERTIES };

const BOOLEAN_KEYS: ReadonlySet<string> = new Set(BOOLEAN_MAPPER_KEYS);

/** A built-in type, or `plugin:<id>` of a loaded plugin that provides a protocol mapper. */
export function checkMapperType(value: string | undefined, plugins?: PluginRegistry): string {
  const t = requireString("mapperType", value, 1, 255);
  if (!MAPPER_TYPES[t] && !plugins?.mapper(t)) {
    throw IamError.invalid("mapperType", `mapperType must be one of ${[...Object.keys(MAPPER_TYPES), ...(plugins?.mapperTypes() ?? [])].join(", ")}`);
  }
  return t;
}

/**
 * A plugin mapper's settings: the token switches, `claim.name` (its default is the plugin's) and
 * the keys the plugin declares.
 */
function pluginMapperSpec(mapperType: string, plugins: PluginRegistry | undefined): { keys: string[]; required: string[] } | undefined {
  const mapper = plugins?.mapper(mapperType);
  return mapper && { keys: [...TOKEN_FLAGS, "claim.name", ...(mapper.configKeys ?? [])], required: [...(mapper.requiredConfigKeys ?? [])] };
}

/** Validates a mapper's config for its type; every problem names the key as `config.<key>`. */
export function checkMapperConfig(mapperType: string, config: Record<string, string>, plugins?: PluginRegistry): Record<string, string> {
  const spec = MAPPER_TYPES[mapperType] ?? pluginMapperSpec(mapperType, plugins);
  if (!spec) throw IamError.invalid("mapperType", `unknown mapperType ${mapperType}`);
  for (const [key, value] of Object.entries(config)) {
    const field = `config.${key}`;
    if (!spec.keys.includes(key)) throw IamError.invalid(field, `${field} is not a setting of ${mapperType}`);
    if (value.length > 2048) throw IamError.invalid(field, `${field} must be at most 2048 characters`);
    if (BOOLEAN_KEYS.has(key) && value !== "true" && value !== "false") throw IamError.invalid(field, `${field} must be "true" or "false"`);
  }
  for (const key of spec.required) {
    if (!config[key]) throw IamError.invalid(`config.${key}`, `config.${key} is required for ${mapperType}`);
  }
  const claim = config["claim.name"];
  if (claim !== undefined) checkClaimName(claim);
  const jsonType = config["jsonType.label"];
  if (jsonType !== undefined && !JSON_TYPES.includes(jsonType)) {
    throw IamError.invalid("config.jsonType.label", `config.jsonType.label must be one of ${JSON_TYPES.join(", ")}`);
  }
  if (mapperType === "oidc-usermodel-property-mapper" && !USER_PROPERTIES.includes(config["user.attribute"] as string)) {
    throw IamError.invalid("config.user.attribute", `config.user.attribute must be one of ${USER_PROPERTIES.join(", ")}`);
  }
  if (mapperType === "oidc-hardcoded-claim-mapper" && jsonType === "JSON") {
    try {
      JSON.parse(config["claim.value"] as string);
    } catch {
      throw IamError.invalid("config.claim.value", "config.claim.value must be valid JSON when jsonType.label is JSON");
    }
  }
  if (mapperType === "oidc-audience-mapper") {
    const n = ["included.client.audience", "included.custom.audience"].filter((k) => config[k]).length;
    if (n !== 1) {
      throw IamError.invalid("config.included.client.audience", "exactly one of config.included.client.audience and config.included.custom.audience is required");
    }
  }
  return config;
}

/**
 * The config with Keycloak's defaults for the token switches an admin left out
 * (tokenFlagDefaults). Stored explicitly, so a mapper's reach never changes with a later default.
 */
export function withTokenFlagDefaults(mapperType: string, config: Record<string, string>): Record<string, string> {
  const defaults = tokenFlagDefaults(mapperType);
  const out = { ...config };
  for (const flag of TOKEN_FLAGS) if (out[flag] === undefined) out[flag] = defaults[flag]!;
  return out;
}

/** `a.b.c` nests (a backslash escapes a dot); no empty segment; reserved protocol claims refused. */
export function checkClaimName(name: string): void {
  const segments = splitClaimName(name);
  if (!name || segments.some((s) => s === "")) throw IamError.invalid("config.claim.name", "config.claim.name must be a claim name like \"a\" or \"a.b\"");
  if (RESERVED_CLAIMS.has(segments[0] as string)) throw IamError.invalid("config.claim.name", `config.claim.name must not be the protocol claim "${segments[0]}"`);
}

export function splitClaimName(name: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < name.length; i++) {
    const ch = name[i] as string;
    if (ch === "\\" && name[i + 1] === ".") {
      cur += ".";
      i++;
    } else if (ch === ".") {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out;
}
