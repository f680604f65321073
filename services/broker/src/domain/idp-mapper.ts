import { IamError } from "../../../kit/src/errors.js";
import { unknownTransformers } from "./username-template.js";

/** An identity provider mapper (Keycloak's IdentityProviderMapperModel), as the broker stores it. */
export interface IdpMapperRecord {
  [key: string]: unknown;
  _id: string;
  realmId: string;
  /** The provider's alias: mappers follow the alias, as Keycloak's do. */
  alias: string;
  name: string;
  type: MapperTypeId;
  config: Record<string, string>;
  createdAt: number;
}

/** What create and update receive (the Keycloak representation's fields). */
export interface IdpMapperInput {
  id?: string;
  name?: string;
  identityProviderAlias?: string;
  identityProviderMapper?: string;
  config?: Record<string, string>;
}

/**
 * Keycloak's IdentityProviderMapperSyncMode: INHERIT takes the provider's sync mode; IMPORT runs a
 * mapper only when the first brokered login creates the user; FORCE on every login; LEGACY is the
 * behaviour before sync modes (each mapper's updateBrokeredUserLegacy).
 */
export const SYNC_MODES = ["INHERIT", "IMPORT", "LEGACY", "FORCE"] as const;
export type SyncMode = (typeof SYNC_MODES)[number];

export interface ConfigProperty {
  name: string;
  label: string;
  helpText: string;
  required: boolean;
  defaultValue?: string;
}

export interface MapperType {
  id: string;
  name: string;
  category: string;
  helpText: string;
  properties: ConfigProperty[];
}

const SYNC_PROPERTY: ConfigProperty = {
  name: "syncMode", label: "Sync mode override", required: false, defaultValue: "INHERIT",
  helpText: "INHERIT (the provider's), IMPORT (first login only), LEGACY or FORCE (every login).",
};
const prop = (name: string, label: string, helpText: string, required = true, defaultValue?: string): ConfigProperty =>
  ({ name, label, helpText, required, ...(defaultValue !== undefined ? { defaultValue } : {}) });
const CLAIM_HELP = "Name of the upstream claim; nested claims with '.', e.g. address.locality ('\\.' for a literal dot).";
const ROLE_HELP = "A realm role, or a client role as clientId.role.";

/**
 * The supported types under Keycloak's ids and config keys (HardcodedRoleMapper,
 * HardcodedAttributeMapper, HardcodedGroupMapper, oidc UserAttributeMapper, ClaimToRoleMapper,
 * UsernameTemplateMapper).
 */
export const MAPPER_TYPES = [
  { id: "oidc-hardcoded-role-idp-mapper", name: "Hardcoded Role", category: "Role Importer", helpText: "Grants the role to every brokered user.",
    properties: [prop("role", "Role", ROLE_HELP)] },
  { id: "hardcoded-attribute-idp-mapper", name: "Hardcoded Attribute", category: "Attribute Importer", helpText: "Sets the user attribute to a fixed value.",
    properties: [prop("attribute", "User Attribute", "Name of the user attribute."), prop("attribute.value", "User Attribute Value", "The value.", false)] },
  { id: "oidc-hardcoded-group-idp-mapper", name: "Hardcoded Group", category: "Group Importer", helpText: "Makes every brokered user a member of the group.",
    properties: [prop("group", "Group", "The group's path, e.g. /staff/admins.")] },
  { id: "oidc-user-attribute-idp-mapper", name: "Attribute Importer", category: "Attribute Importer",
    helpText: "Imports the claim into a user attribute, or into email, firstName, lastName or username.",
    properties: [prop("claim", "Claim", CLAIM_HELP), prop("user.attribute", "User Attribute Name", "email, firstName, lastName, username, or an attribute's name.")] },
  { id: "oidc-role-idp-mapper", name: "Claim to Role", category: "Role Importer", helpText: "Grants the role when the claim has the value.",
    properties: [prop("claim", "Claim", CLAIM_HELP), prop("claim.value", "Claim Value", "The value the claim must have, or contain when it is an array.", false), prop("role", "Role", ROLE_HELP)] },
  { id: "oidc-username-idp-mapper", name: "Username Template Importer", category: "Preprocessor",
    helpText: "Formats the username of a user the first brokered login creates: ${ALIAS}, ${UUID}, ${CLAIM.<name>}, with | lowercase, uppercase or localpart.",
    properties: [prop("template", "Template", "e.g. ${ALIAS}.${CLAIM.preferred_username}", true, "${ALIAS}.${CLAIM.preferred_username}")] },
] as const satisfies readonly MapperType[];
export type MapperTypeId = (typeof MAPPER_TYPES)[number]["id"];

export function mapperType(id: string): MapperType | undefined {
  return (MAPPER_TYPES as readonly MapperType[]).find((t) => t.id === id);
}

export function syncModeOf(m: Pick<IdpMapperRecord, "config">): SyncMode {
  return (m.config.syncMode as SyncMode | undefined) ?? "INHERIT";
}

const MAX_NAME = 255;
const ATTRIBUTE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,254}$/;
/** The user's own fields an attribute mapper may name instead of an attribute (any case, as Keycloak). */
const USER_FIELDS = new Set(["email", "firstname", "lastname", "username"]);
const MAX_VALUE = 2048;

/**
 * Checks a create or (full) update body and answers the config to store: the type must be known,
 * its required keys present and non-blank, syncMode one of Keycloak's (INHERIT when absent, as
 * Keycloak's console writes it). Keys the type does not read are refused, so a typo cannot pass
 * as a mapper that does nothing.
 */
export function checkMapperInput(input: IdpMapperInput, at: { alias: string; id?: string }): { name: string; type: MapperTypeId; config: Record<string, string> } {
  const name = input.name?.trim();
  if (!name) throw IamError.invalid("name", "name is required");
  if (name.length > MAX_NAME) throw IamError.invalid("name", `name is at most ${MAX_NAME} characters`);
  if (input.identityProviderAlias !== undefined && input.identityProviderAlias !== at.alias) {
    throw IamError.invalid("identityProviderAlias", "identityProviderAlias must be the path's alias");
  }
  if (input.id !== undefined && at.id !== undefined && input.id !== at.id) throw IamError.invalid("id", "id must be the path's id");
  if (!input.identityProviderMapper) throw IamError.invalid("identityProviderMapper", "identityProviderMapper is required");
  const type = mapperType(input.identityProviderMapper);
  if (!type) {
    throw IamError.invalid("identityProviderMapper", `unknown mapper type "${input.identityProviderMapper}"; supported: ${MAPPER_TYPES.map((t) => t.id).join(", ")}`);
  }
  const config = { ...(input.config ?? {}) };
  const known = new Set([SYNC_PROPERTY.name, ...type.properties.map((p) => p.name)]);
  for (const [k, v] of Object.entries(config)) {
    if (!known.has(k)) throw IamError.invalid(`config.${k}`, `${type.id} has no config key "${k}"`);
    if (v.length > MAX_VALUE) throw IamError.invalid(`config.${k}`, `config.${k} is at most ${MAX_VALUE} characters`);
  }
  for (const p of type.properties) {
    if (p.required && !config[p.name]?.trim()) throw IamError.invalid(`config.${p.name}`, `config.${p.name} is required for ${type.id}`);
  }
  config.syncMode = config.syncMode || "INHERIT";
  if (!(SYNC_MODES as readonly string[]).includes(config.syncMode)) {
    throw IamError.invalid("config.syncMode", `config.syncMode must be one of ${SYNC_MODES.join(", ")}`);
  }
  if (type.id === "oidc-hardcoded-group-idp-mapper" && !config.group?.startsWith("/")) {
    throw IamError.invalid("config.group", "config.group is a group path and starts with /");
  }
  // The directory's rule for attribute names (user-rules.ts): a name it refuses would fail every login.
  const attribute = type.id === "hardcoded-attribute-idp-mapper" ? "attribute" : type.id === "oidc-user-attribute-idp-mapper" ? "user.attribute" : "";
  const attrName = attribute ? config[attribute] ?? "" : "";
  if (attribute && !USER_FIELDS.has(attrName.toLowerCase()) && !ATTRIBUTE_NAME.test(attrName)) {
    throw IamError.invalid(`config.${attribute}`, `config.${attribute} must start with a letter or _ and use letters, digits, _ and -`);
  }
  if (type.id === "oidc-username-idp-mapper") {
    const bad = unknownTransformers(config.template ?? "");
    if (bad.length) throw IamError.invalid("config.template", `unknown template transformer "${bad[0]}"; supported: lowercase, uppercase, localpart`);
  }
  return { name, type: type.id as MapperTypeId, config };
}

/** Keycloak's IdentityProviderMapperRepresentation. */
export function mapperView(m: IdpMapperRecord): { id: string; name: string; identityProviderAlias: string; identityProviderMapper: string; config: Record<string, string> } {
  return { id: m._id, name: m.name, identityProviderAlias: m.alias, identityProviderMapper: m.type, config: { ...m.config } };
}
