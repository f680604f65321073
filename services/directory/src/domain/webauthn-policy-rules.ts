import { IamError } from "../../../kit/src/errors.js";
import { checkHostname, checkInt, checkLength } from "../../../kit/src/validation/checks.js";
import {
  ATTESTATION_PREFERENCES, AUTHENTICATOR_ATTACHMENTS, COSE_ALGORITHMS, MAX_CREATE_TIMEOUT, MAX_POLICY_LIST,
  RESIDENT_KEY_OPTIONS, USER_VERIFICATION_OPTIONS, type WebAuthnPolicyFields,
} from "./webauthn-policy.js";

const P = "webAuthnPolicyPasswordless";
/** An AAGUID as Keycloak compares it: the UUID string of the authenticator data's 16 bytes (WebAuthn section 6.5.2). */
const AAGUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks each policy field present (absent fields keep their value). The enumerations are
 * Keycloak's, spelled as its admin console sends them ("not specified", "Yes", "cross-platform").
 */
export function checkWebAuthnPolicy(i: WebAuthnPolicyFields): void {
  if (i.webAuthnPolicyPasswordlessRpEntityName !== undefined) checkLength(`${P}RpEntityName`, i.webAuthnPolicyPasswordlessRpEntityName, 0, 255);
  if (i.webAuthnPolicyPasswordlessSignatureAlgorithms !== undefined) checkAlgorithms(i.webAuthnPolicyPasswordlessSignatureAlgorithms);
  // The rpId is a domain (WebAuthn section 5.1.4.1 "RP ID"): no scheme, port or path.
  if (i.webAuthnPolicyPasswordlessRpId) checkHostname(`${P}RpId`, i.webAuthnPolicyPasswordlessRpId);
  oneOf(`${P}AttestationConveyancePreference`, i.webAuthnPolicyPasswordlessAttestationConveyancePreference, ATTESTATION_PREFERENCES);
  oneOf(`${P}AuthenticatorAttachment`, i.webAuthnPolicyPasswordlessAuthenticatorAttachment, AUTHENTICATOR_ATTACHMENTS);
  oneOf(`${P}RequireResidentKey`, i.webAuthnPolicyPasswordlessRequireResidentKey, RESIDENT_KEY_OPTIONS);
  oneOf(`${P}UserVerificationRequirement`, i.webAuthnPolicyPasswordlessUserVerificationRequirement, USER_VERIFICATION_OPTIONS);
  if (i.webAuthnPolicyPasswordlessCreateTimeout !== undefined) checkInt(`${P}CreateTimeout`, i.webAuthnPolicyPasswordlessCreateTimeout, 0, MAX_CREATE_TIMEOUT);
  if (i.webAuthnPolicyPasswordlessAcceptableAaguids !== undefined) {
    checkList(`${P}AcceptableAaguids`, i.webAuthnPolicyPasswordlessAcceptableAaguids, (v) => AAGUID.test(v), "an AAGUID (a UUID such as 2fc0579f-8113-47ea-b116-bb5a8db9202a)");
  }
  if (i.webAuthnPolicyPasswordlessExtraOrigins !== undefined) {
    checkList(`${P}ExtraOrigins`, i.webAuthnPolicyPasswordlessExtraOrigins, isOrigin, "an origin (scheme://host[:port], or an app origin such as android:apk-key-hash:...)");
  }
}

function checkAlgorithms(list: string[]): void {
  const field = `${P}SignatureAlgorithms`;
  if (list.length === 0) throw IamError.invalid(field, `${field} must name at least one algorithm`);
  checkList(field, list, (v) => Object.hasOwn(COSE_ALGORITHMS, v), `one of ${Object.keys(COSE_ALGORITHMS).join(", ")}`);
}

function oneOf(field: string, value: string | undefined, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value)) {
    throw IamError.invalid(field, `${field} must be one of ${allowed.map((a) => `"${a}"`).join(", ")}`);
  }
}

function checkList(field: string, list: string[], ok: (v: string) => boolean, what: string): void {
  if (list.length > MAX_POLICY_LIST) throw IamError.invalid(field, `${field} holds at most ${MAX_POLICY_LIST} entries`);
  const seen = new Set<string>();
  list.forEach((v, n) => {
    if (!ok(v)) throw IamError.invalid(`${field}[${n}]`, `${field}[${n}] must be ${what}`);
    if (seen.has(v)) throw IamError.invalid(`${field}[${n}]`, `${field}[${n}] repeats "${v}"`);
    seen.add(v);
  });
}

/**
 * What clientDataJSON's `origin` may hold (WebAuthn section 7.1 step 9): a web origin, serialized
 * as the browser does (no path, no trailing slash, lowercase scheme and host), or an application's
 * own origin string (Android's `android:apk-key-hash:<hash>`), which Keycloak's extra origins
 * exist for.
 */
function isOrigin(v: string): boolean {
  if (v.length > 2048) return false;
  if (/^android:apk-key-hash:[A-Za-z0-9_-]+$/.test(v)) return true;
  try {
    const u = new URL(v);
    return (u.protocol === "https:" || u.protocol === "http:") && u.origin === v;
  } catch {
    return false;
  }
}
