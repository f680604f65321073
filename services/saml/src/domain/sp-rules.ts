import { IamError } from "../../../kit/src/errors.js";
import { checkLength, requireString } from "../../../kit/src/validation/checks.js";
import { ALLOWED_NAME_ID_FORMATS, type ServiceProviderInput } from "./service-provider.js";

/**
 * attributeStatements (spec 2.11 "custom attribute mappings") is an object whose keys are SAML
 * attribute names (the Name of a saml:Attribute, SAML 2.0 core section 2.7.3.1; 1..255 characters)
 * and whose values name the source of the value:
 *   "username" | "email" | "firstName" | "lastName"  a property of the user
 *   "roles" | "groups"                               the user's role names / group paths (multi-valued)
 *   "attribute:<name>"                               the user's custom attribute <name>
 * Example: {"mail": "email", "memberOf": "groups", "department": "attribute:dept"}.
 */
export const ATTRIBUTE_SOURCES: readonly string[] = ["username", "email", "firstName", "lastName", "roles", "groups"];
const CUSTOM_ATTRIBUTE = /^attribute:[A-Za-z0-9_.:-]{1,255}$/;
export const MAX_ATTRIBUTE_STATEMENTS = 100;

export function checkAttributeStatements(map: Record<string, string>): Record<string, string> {
  const entries = Object.entries(map);
  if (entries.length > MAX_ATTRIBUTE_STATEMENTS) {
    throw IamError.invalid("attributeStatements", `attributeStatements holds at most ${MAX_ATTRIBUTE_STATEMENTS} mappings`);
  }
  for (const [name, source] of entries) {
    if (name.trim().length === 0 || name.length > 255) {
      throw IamError.invalid("attributeStatements", "attributeStatements keys must be attribute names of 1 to 255 characters");
    }
    if (!ATTRIBUTE_SOURCES.includes(source) && !CUSTOM_ATTRIBUTE.test(source)) {
      const field = `attributeStatements.${name}`;
      throw IamError.invalid(field, `${field} must be one of ${ATTRIBUTE_SOURCES.join(", ")} or attribute:<name>`);
    }
  }
  return map;
}

/**
 * An endpoint of the SP (AssertionConsumerService, SingleLogoutService; SAML 2.0 metadata section
 * 2.2.2): an absolute https URL, or http on a loopback host for development; no fragment, no
 * credentials. Responses are posted there, so javascript:, data: and the like are refused.
 */
export function checkEndpointUrl(field: string, value: string): string {
  checkLength(field, value, 1, 2048);
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw IamError.invalid(field, `${field} must be an absolute URL`);
  }
  const loopback = u.hostname === "localhost" || u.hostname === "127.0.0.1" || u.hostname === "[::1]";
  if (u.protocol !== "https:" && !(u.protocol === "http:" && loopback)) {
    throw IamError.invalid(field, `${field} must be an https URL (http only for localhost)`);
  }
  if (u.hash || value.includes("#")) throw IamError.invalid(field, `${field} must not have a fragment`);
  if (u.username || u.password) throw IamError.invalid(field, `${field} must not carry credentials`);
  return value;
}

export function checkNameIdFormat(value: string): string {
  if (!ALLOWED_NAME_ID_FORMATS.includes(value)) {
    throw IamError.invalid("nameIdFormat", `nameIdFormat must be one of ${ALLOWED_NAME_ID_FORMATS.join(", ")}`);
  }
  return value;
}

/** entityId (SAML 2.0 core section 8.3.6: a URI of at most 1024 characters). */
export function checkEntityId(value: string | undefined): string {
  const v = requireString("entityId", value, 1, 1024);
  if (v.trim() !== v || /\s/.test(v)) throw IamError.invalid("entityId", "entityId must not contain whitespace");
  return v;
}

/** Checks the fields of a register body; the required ones must be present. */
export function checkRegisterInput(input: ServiceProviderInput): void {
  checkEntityId(input.entityId);
  requireString("name", input.name, 1, 255);
  if (input.acsUrl === undefined) throw IamError.invalid("acsUrl", "acsUrl is required");
  checkOptionalFields(input);
}

/** Checks the fields an update carries; absent fields are not checked. */
export function checkUpdateInput(input: ServiceProviderInput): void {
  if (input.entityId !== undefined) checkEntityId(input.entityId);
  if (input.name !== undefined) requireString("name", input.name, 1, 255);
  checkOptionalFields(input);
}

function checkOptionalFields(input: ServiceProviderInput): void {
  if (input.acsUrl !== undefined) checkEndpointUrl("acsUrl", input.acsUrl);
  // On update "" removes the SLO URL; on register "" means none.
  if (input.sloUrl !== undefined && input.sloUrl !== "") checkEndpointUrl("sloUrl", input.sloUrl);
  if (input.nameIdFormat !== undefined) checkNameIdFormat(input.nameIdFormat);
  if (input.attributeStatements !== undefined) checkAttributeStatements(input.attributeStatements);
}
