import type { AuthenticatorTransport, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { COSE_ALGORITHMS, NOT_SPECIFIED, type ResolvedWebAuthnPolicy } from "./webauthn-policy.js";

/** Where a ceremony runs, as the caller (the hosted pages) sees it: the public URL's host and origin. */
export interface RelyingParty {
  rpId: string;
  origin: string;
  rpName: string;
}

/** The relying party a realm's policy makes of the caller's: its id, name and every accepted origin. */
export interface CeremonySite {
  rpId: string;
  rpName: string;
  origins: string[];
}

/**
 * Keycloak's reading of the policy (WebAuthnRegister.requiredActionChallenge): an empty rpId is
 * the host of the server's base URL, the origin is the base URL's and the extra origins are
 * accepted beside it (processAction's allOrigins); an empty rp name is the realm's.
 */
export function ceremonySite(policy: ResolvedWebAuthnPolicy, rp: RelyingParty, realmName: string): CeremonySite {
  return {
    rpId: policy.webAuthnPolicyPasswordlessRpId || rp.rpId,
    rpName: policy.webAuthnPolicyPasswordlessRpEntityName || rp.rpName || realmName,
    origins: [rp.origin, ...policy.webAuthnPolicyPasswordlessExtraOrigins.filter((o) => o !== rp.origin)],
  };
}

export function coseAlgorithms(policy: ResolvedWebAuthnPolicy): number[] {
  return policy.webAuthnPolicyPasswordlessSignatureAlgorithms.map((n) => COSE_ALGORITHMS[n]).filter((n): n is number => n !== undefined);
}

/** The ceremony's timeout in milliseconds, undefined when the policy leaves it to the browser (0). */
export function timeoutMs(policy: ResolvedWebAuthnPolicy): number | undefined {
  const s = policy.webAuthnPolicyPasswordlessCreateTimeout;
  return s > 0 ? s * 1000 : undefined;
}

/** WebAuthn section 7.1 step 15 / 7.2 step 17: the UV flag is checked only when the policy requires it. */
export function requiresUserVerification(policy: ResolvedWebAuthnPolicy): boolean {
  return policy.webAuthnPolicyPasswordlessUserVerificationRequirement === "required";
}

/**
 * The policy's registration options, written over what the library produced
 * (PublicKeyCredentialCreationOptions, WebAuthn section 5.4): "not specified" leaves an option
 * out, so the browser's default applies, as Keycloak's webauthn-register page does.
 */
export function applyRegistrationPolicy(
  options: PublicKeyCredentialCreationOptionsJSON, policy: ResolvedWebAuthnPolicy,
): PublicKeyCredentialCreationOptionsJSON {
  const out: PublicKeyCredentialCreationOptionsJSON = { ...options };
  const selection: Record<string, unknown> = {};
  const attachment = policy.webAuthnPolicyPasswordlessAuthenticatorAttachment;
  if (attachment !== NOT_SPECIFIED) selection.authenticatorAttachment = attachment;
  // Keycloak's "Yes"/"No" is requireResidentKey (section 5.4.4); residentKey, its Level 2
  // successor, says the same so that newer browsers read it.
  const residentKey = policy.webAuthnPolicyPasswordlessRequireResidentKey;
  if (residentKey === "Yes") Object.assign(selection, { residentKey: "required", requireResidentKey: true });
  if (residentKey === "No") Object.assign(selection, { residentKey: "discouraged", requireResidentKey: false });
  const uv = policy.webAuthnPolicyPasswordlessUserVerificationRequirement;
  if (uv !== NOT_SPECIFIED) selection.userVerification = uv;
  out.authenticatorSelection = selection;
  const attestation = policy.webAuthnPolicyPasswordlessAttestationConveyancePreference;
  if (attestation === NOT_SPECIFIED) delete out.attestation;
  else out.attestation = attestation as PublicKeyCredentialCreationOptionsJSON["attestation"];
  const timeout = timeoutMs(policy);
  if (timeout === undefined) delete out.timeout;
  else out.timeout = timeout;
  return out;
}

/** The request options (section 5.5): user verification and timeout from the policy, as for registration. */
export function applyAuthenticationPolicy(
  options: PublicKeyCredentialRequestOptionsJSON, policy: ResolvedWebAuthnPolicy,
): PublicKeyCredentialRequestOptionsJSON {
  const out = { ...options };
  const uv = policy.webAuthnPolicyPasswordlessUserVerificationRequirement;
  if (uv === NOT_SPECIFIED) delete out.userVerification;
  else out.userVerification = uv as PublicKeyCredentialRequestOptionsJSON["userVerification"];
  const timeout = timeoutMs(policy);
  if (timeout === undefined) delete out.timeout;
  else out.timeout = timeout;
  return out;
}

/** What a verified attestation tells of the authenticator. */
export interface AttestedAuthenticator {
  fmt: string;
  aaguid: string;
  /** Whether the attestation statement carries a certificate chain (x5c): absent, it is self attestation. */
  hasCertificate: boolean;
  /** The attachment the client reported (RegistrationResponseJSON.authenticatorAttachment), if any. */
  attachment: string | undefined;
}

/**
 * The policy's checks past the signature, algorithm, origin, rpId and flags (which
 * verifyRegistrationResponse does), as Keycloak's WebAuthnRegister does them; the reason a
 * registration is refused, or null.
 *
 * - Attestation "indirect" or "direct": a "none" statement is refused (Keycloak registers its
 *   NoneAttestationStatementVerifier only for "not specified" and "none").
 * - Acceptable AAGUIDs: only a real attestation proves the model, so "none" and self attestation
 *   are refused (Keycloak: "Acceptable AAGUIDs require an attestation format other than 'none'",
 *   self attestation disabled), then the AAGUID must be listed.
 * - Authenticator attachment: best effort, the client reports it (Keycloak's PolicyVerifier).
 */
export function policyRefusal(policy: ResolvedWebAuthnPolicy, a: AttestedAuthenticator): string | null {
  const attestation = policy.webAuthnPolicyPasswordlessAttestationConveyancePreference;
  if ((attestation === "indirect" || attestation === "direct") && a.fmt === "none") {
    return `the policy asks for ${attestation} attestation; the authenticator gave none`;
  }
  const aaguids = policy.webAuthnPolicyPasswordlessAcceptableAaguids.map((x) => x.toLowerCase());
  if (aaguids.length) {
    if (a.fmt === "none" || !a.hasCertificate) return "acceptable AAGUIDs need an attestation with a certificate";
    if (!aaguids.includes(a.aaguid.toLowerCase())) return `authenticator model ${a.aaguid} is not acceptable`;
  }
  const attachment = policy.webAuthnPolicyPasswordlessAuthenticatorAttachment;
  if (attachment !== NOT_SPECIFIED && a.attachment !== attachment) {
    return `the policy asks for a ${attachment} authenticator; the client reported ${a.attachment ?? "none"}`;
  }
  return null;
}

/** Credentials to exclude (section 5.4 excludeCredentials): the user's own, when the policy avoids registering one twice. */
export function excludedCredentials<K extends { credentialId: string; transports: string[] }>(
  policy: ResolvedWebAuthnPolicy, existing: K[], transportsOf: (t: string[]) => AuthenticatorTransport[],
): Array<{ id: string; transports: AuthenticatorTransport[] }> {
  if (!policy.webAuthnPolicyPasswordlessAvoidSameAuthenticatorRegister) return [];
  return existing.map((k) => ({ id: k.credentialId, transports: transportsOf(k.transports) }));
}
