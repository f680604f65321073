/**
 * Keycloak's WebAuthn Passwordless Policy (RealmRepresentation `webAuthnPolicyPasswordless*`,
 * the admin console's "Webauthn Passwordless Policy" form), read by every passkey ceremony of the
 * realm. Tessera has one WebAuthn credential type (the passkey), so this policy governs both the
 * username-less sign-in and the passkey asked for after a password.
 */
export interface WebAuthnPolicyFields {
  webAuthnPolicyPasswordlessRpEntityName?: string;
  webAuthnPolicyPasswordlessSignatureAlgorithms?: string[];
  webAuthnPolicyPasswordlessRpId?: string;
  webAuthnPolicyPasswordlessAttestationConveyancePreference?: string;
  webAuthnPolicyPasswordlessAuthenticatorAttachment?: string;
  webAuthnPolicyPasswordlessRequireResidentKey?: string;
  webAuthnPolicyPasswordlessUserVerificationRequirement?: string;
  webAuthnPolicyPasswordlessCreateTimeout?: number;
  webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister?: boolean;
  webAuthnPolicyPasswordlessAcceptableAaguids?: string[];
  webAuthnPolicyPasswordlessExtraOrigins?: string[];
}

export type WebAuthnPolicyField = keyof WebAuthnPolicyFields;
export type ResolvedWebAuthnPolicy = Required<WebAuthnPolicyFields>;

/** Keycloak's value for "leave the option out" (Constants.DEFAULT_WEBAUTHN_POLICY_NOT_SPECIFIED). */
export const NOT_SPECIFIED = "not specified";

/**
 * The algorithm names Keycloak's policy form offers, as COSE algorithm identifiers (IANA COSE
 * Algorithms registry; Keycloak's WebAuthnRegister.convertSignatureAlgorithms maps them alike).
 */
export const COSE_ALGORITHMS: Readonly<Record<string, number>> = {
  ES256: -7, ES384: -35, ES512: -36, RS256: -257, RS384: -258, RS512: -259, RS1: -65535, Ed25519: -8,
};

export const ATTESTATION_PREFERENCES = [NOT_SPECIFIED, "none", "indirect", "direct"] as const;
export const AUTHENTICATOR_ATTACHMENTS = [NOT_SPECIFIED, "platform", "cross-platform"] as const;
export const RESIDENT_KEY_OPTIONS = [NOT_SPECIFIED, "Yes", "No"] as const;
export const USER_VERIFICATION_OPTIONS = [NOT_SPECIFIED, "required", "preferred", "discouraged"] as const;
/** Seconds; the bound of Keycloak's admin console form (webAuthnPolicyCreateTimeout, max 31536). */
export const MAX_CREATE_TIMEOUT = 31_536;
export const MAX_POLICY_LIST = 100;

/**
 * What a realm without these fields gets: the options Tessera's passkeys have always used
 * (a discoverable credential, user verification preferred, attestation "none", EdDSA, ES256 and
 * RS256, a two-minute ceremony, the user's credentials excluded). Keycloak's own defaults differ
 * (rp name "keycloak", ES256 and RS256, user verification "required", attestation "not
 * specified", no timeout, no exclusion); a realm imported from Keycloak brings its values along.
 */
export const WEBAUTHN_POLICY_DEFAULTS: ResolvedWebAuthnPolicy = {
  webAuthnPolicyPasswordlessRpEntityName: "",
  webAuthnPolicyPasswordlessSignatureAlgorithms: ["Ed25519", "ES256", "RS256"],
  webAuthnPolicyPasswordlessRpId: "",
  webAuthnPolicyPasswordlessAttestationConveyancePreference: "none",
  webAuthnPolicyPasswordlessAuthenticatorAttachment: NOT_SPECIFIED,
  webAuthnPolicyPasswordlessRequireResidentKey: "Yes",
  webAuthnPolicyPasswordlessUserVerificationRequirement: "preferred",
  webAuthnPolicyPasswordlessCreateTimeout: 120,
  webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister: true,
  webAuthnPolicyPasswordlessAcceptableAaguids: [],
  webAuthnPolicyPasswordlessExtraOrigins: [],
};

export const WEBAUTHN_POLICY_FIELDS = Object.keys(WEBAUTHN_POLICY_DEFAULTS) as WebAuthnPolicyField[];

/** The realm's policy, each field it never set read as its default (realms stored before it). */
export function webAuthnPolicyOf(realm: WebAuthnPolicyFields): ResolvedWebAuthnPolicy {
  const out = {} as Record<WebAuthnPolicyField, unknown>;
  for (const f of WEBAUTHN_POLICY_FIELDS) {
    const v = realm[f] ?? WEBAUTHN_POLICY_DEFAULTS[f];
    out[f] = Array.isArray(v) ? [...v] : v;
  }
  return out as ResolvedWebAuthnPolicy;
}
