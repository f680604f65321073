import { IamError } from "../../../kit/src/errors.js";
import { checkLength, requireString } from "../../../kit/src/validation/checks.js";
import { urlProblem, type OutboundPolicy } from "../../../kit/src/outbound/address-policy.js";
import { PRESETS, PROVIDER_TYPES, type IdentityProviderInput, type IdentityProviderRecord, type ProviderType } from "./identity-provider.js";

/** An alias is a slug: it appears in the broker's paths (spec 4.19) and in Keycloak exports. */
const ALIAS = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const URL_FIELDS = ["authorizationUrl", "tokenUrl", "userinfoUrl", "jwksUrl"] as const;

export function checkProviderType(value: string | undefined): ProviderType {
  const v = requireString("providerType", value, 1, 64);
  if (!(PROVIDER_TYPES as readonly string[]).includes(v)) {
    throw IamError.invalid("providerType", `providerType must be one of ${PROVIDER_TYPES.join(", ")}`);
  }
  return v as ProviderType;
}

/** The fields of a create: required ones present, every value well-formed. */
export function checkCreateInput(input: IdentityProviderInput, policy: OutboundPolicy): void {
  const alias = requireString("alias", input.alias, 1, 100);
  if (!ALIAS.test(alias)) throw IamError.invalid("alias", "alias must be a slug: letters, digits, '.', '_' and '-', starting with a letter or digit");
  const type = checkProviderType(input.providerType);
  requireString("clientId", input.clientId, 1, 255);
  requireString("clientSecret", input.clientSecret, 1, 2048);
  const preset = PRESETS[type];
  if (!input.authorizationUrl && !preset.authorizationUrl) throw IamError.invalid("authorizationUrl", "authorizationUrl is required");
  if (!input.tokenUrl && !preset.tokenUrl) throw IamError.invalid("tokenUrl", "tokenUrl is required");
  checkCommon(input, policy);
}

/** The fields of a partial update. */
export function checkUpdateInput(current: IdentityProviderRecord, input: IdentityProviderInput, policy: OutboundPolicy): void {
  if (input.alias !== undefined && input.alias !== current.alias) throw IamError.invalid("alias", "alias cannot be changed");
  if (input.providerType !== undefined && checkProviderType(input.providerType) !== current.providerType) {
    throw IamError.invalid("providerType", "providerType cannot be changed");
  }
  if (input.clientId !== undefined) requireString("clientId", input.clientId, 1, 255);
  if (input.clientSecret !== undefined) requireString("clientSecret", input.clientSecret, 1, 2048);
  for (const f of ["authorizationUrl", "tokenUrl"] as const) {
    if (input[f] === "") throw IamError.invalid(f, `${f} is required`);
  }
  checkCommon(input, policy);
}

function checkCommon(input: IdentityProviderInput, policy: OutboundPolicy): void {
  if (input.displayName !== undefined) checkLength("displayName", input.displayName, 0, 255);
  if (input.defaultScopes !== undefined) {
    checkLength("defaultScopes", input.defaultScopes, 0, 1024);
    if (/[^\x21\x23-\x5B\x5D-\x7E ]/.test(input.defaultScopes)) throw IamError.invalid("defaultScopes", "defaultScopes must be space-separated scope tokens (RFC 6749 section 3.3)");
  }
  for (const f of URL_FIELDS) {
    const v = input[f];
    if (v) checkUrl(f, v, policy);
  }
  if (input.issuer) {
    checkLength("issuer", input.issuer, 1, 2048);
    // The issuer's discovery document is fetched from it (OIDC Discovery 1.0 section 4).
    checkUrl("issuer", input.issuer, policy);
  }
}

/** Every URL Tessera fetches or sends the browser to: https, or loopback http when the operator allows it. */
export function checkUrl(field: string, value: string, policy: OutboundPolicy): void {
  checkLength(field, value, 1, 2048);
  const problem = urlProblem(value, policy);
  if (problem) throw IamError.invalid(field, `${field} ${problem}`);
}

/**
 * An OIDC provider's ID tokens are verified against its keys (OIDC Core 3.1.3.7): from `jwksUrl`,
 * or the `jwks_uri` of the issuer's discovery document.
 */
export function checkVerifiable(p: Pick<IdentityProviderRecord, "providerType" | "jwksUrl" | "issuer">): void {
  if (PRESETS[p.providerType].oidc && !p.jwksUrl && !p.issuer) {
    throw IamError.invalid("jwksUrl", "an OpenID Connect provider needs jwksUrl or issuer to verify its ID tokens");
  }
}
