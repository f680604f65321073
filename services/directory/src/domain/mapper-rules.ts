import { IamError } from "../../../kit/src/errors.js";
import { requireString } from "../../../kit/src/validation/checks.js";

/** Flags choosing which tokens a mapper writes to (Keycloak's config keys). */
const TOKEN_FLAGS = ["id.token.claim", "access.token.claim", "userinfo.token.claim", "introspection.token.claim"];
const CLAIM = ["claim.name", "jsonType.label"];

/** The address mapper's settings: `user.attribute.<member>` names the attribute for that member. */
export const ADDRESS_MEMBERS = ["formatted", "street", "locality", "region", "postal_code", "country"] as const;
const ADDRESS_KEYS = ADDRESS_MEMBERS.map((m) => `user.attribute.${m}`);

/** Mapper types and the config keys each accepts; `required` keys must be present and non-empty. */
export const MAPPER_TYPES: Record<string, { keys: string[]; required: string[] }> = {
  "oidc-usermodel-attribute-mapper": { keys: [...TOKEN_FLAGS, ...CLAIM, "user.attribute", "multivalued", "aggregate.attrs"], required: ["claim.name", "user.attribute"] },
  "oidc-usermodel-property-mapper": { keys: [...TOKEN_FLAGS, ...CLAIM, "user.attribute"], required: ["claim.name", "user.attribute"] },
  "oidc-hardcoded-claim-mapper": { keys: [...TOKEN_FLAGS, ...CLAIM, "claim.value"], required: ["claim.name", "claim.value"] },
  "oidc-group-membership-mapper": { keys: [...TOKEN_FLAGS, "claim.name", "full.path"], required: ["claim.name"] },
  "oidc-usermodel-realm-role-mapper": { keys: [...TOKEN_FLAGS, ...CLAIM, "multivalued"], required: ["claim.name"] },
  "oidc-usermodel-client-role-mapper": { keys: [...TOKEN_FLAGS, ...CLAIM, "multivalued", "usermodel.clientRoleMapping.clientId"], required: ["claim.name"] },
  "oidc-audience-mapper": { keys: [...TOKEN_FLAGS, "included.client.audience", "included.custom.audience"], required: [] },
  // Built-in mappers of the default scopes (Keycloak's), also accepted from admins.
  "oidc-full-name-mapper": { keys: TOKEN_FLAGS, required: [] },
  "oidc-audience-resolve-mapper": { keys: TOKEN_FLAGS, required: [] },
  "oidc-allowed-origins-mapper": { keys: TOKEN_FLAGS, required: [] },
  "oidc-acr-mapper": { keys: TOKEN_FLAGS, required: [] },
  "oidc-sub-mapper": { keys: TOKEN_FLAGS, required: [] },
  // The "address" scope's mapper (OIDC Core 5.1.1): which user attribute feeds each member.
  "oidc-address-mapper": { keys: [...TOKEN_FLAGS, ...ADDRESS_KEYS], required: [] },
};

export const USER_PROPERTIES = ["username", "email", "firstName", "lastName", "emailVerified"];
const JSON_TYPES = ["String", "long", "int", "boolean", "JSON"];
const BOOLEAN_KEYS = new Set([...TOKEN_FLAGS, "multivalued", "full.path", "aggregate.attrs"]);
/** Claims the token service owns; a mapper must not overwrite them. */
const RESERVED_CLAIMS = new Set(["iss", "exp", "iat", "nbf", "jti", "typ", "azp", "sid", "nonce", "auth_time", "session_state", "scope"]);

export function checkMapperType(value: string | undefined): string {
  const t = requireString("mapperType", value, 1, 255);
  if (!MAPPER_TYPES[t]) throw IamError.invalid("mapperType", `mapperType must be one of ${Object.keys(MAPPER_TYPES).join(", ")}`);
  return t;
}

/** Validates a mapper's config for its type; every problem names the key as `config.<key>`. */
export function checkMapperConfig(mapperType: string, config: Record<string, string>): Record<string, string> {
  const spec = MAPPER_TYPES[mapperType];
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
