import { IamError } from "../../../kit/src/errors.js";

/**
 * The reasons a SAML protocol failure carries. The gateway renders each as an HTML error page
 * (DESIGN 4, "Errors"); none of them ever leads to a POST to an unregistered URL.
 */
export const SAML_REASONS = {
  /** Not base64, not XML, not schema-valid, wrong root element, missing ID... */
  invalidRequest: "invalid_saml_request",
  /** The DEFLATEd payload inflates past the cap, or the message is too long. */
  oversized: "oversized_saml_request",
  /** A DOCTYPE (DTD, entity declarations) in the message. */
  doctype: "saml_doctype_forbidden",
  /** The Issuer is not a registered (enabled) SP of the realm. */
  unknownSp: "unknown_service_provider",
  /** AssertionConsumerServiceURL differs from the SP's registered acsUrl. */
  acsMismatch: "acs_mismatch",
  /** Destination differs from this realm's SAML endpoint. */
  destinationMismatch: "destination_mismatch",
  /** IssueInstant outside the allowed window. */
  stale: "saml_request_expired",
  /** The request ID was already used. */
  replayed: "saml_request_replayed",
  /** The SP has a certificate and requires signed requests, and this one is unsigned. */
  signatureRequired: "saml_signature_required",
  /** The signature does not verify, or is not bound to the message (wrapping). */
  invalidSignature: "invalid_saml_signature",
  /** SigAlg / SignatureMethod / DigestMethod other than RSA-SHA256 / SHA-256. */
  unsupportedAlgorithm: "unsupported_signature_algorithm",
  /** CompleteSso: the pending request is unknown, expired or already used. */
  pendingNotFound: "saml_pending_not_found",
  /** The user of CompleteSso has no value for the SP's NameID format (e.g. no email). */
  nameIdUnavailable: "saml_name_id_unavailable",
  /** The SP has no single logout URL. */
  noSloUrl: "saml_slo_not_supported",
} as const;

export function samlInvalid(reason: string, message: string): IamError {
  return new IamError({ code: "invalidArgument", reason, message });
}

export function samlDenied(reason: string, message: string): IamError {
  return new IamError({ code: "permissionDenied", reason, message });
}
