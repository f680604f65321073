import { SAML_REASONS, samlInvalid } from "./saml-errors.js";
import { attr } from "./saml-xml.js";

/** Allowed distance between IssueInstant and the IdP's clock. */
export const MAX_SKEW_MS = 5 * 60_000;

/** Checks common to every request (core 3.2.1): Version, ID, IssueInstant window, Destination. */
export function checkRequestHeader(root: Element, now: number, expectedDestination: string): { id: string; issueInstant: number } {
  if (root.getAttribute("Version") !== "2.0") throw samlInvalid(SAML_REASONS.invalidRequest, "Version must be 2.0");
  const id = root.getAttribute("ID") ?? "";
  if (!id || id.length > 256) throw samlInvalid(SAML_REASONS.invalidRequest, "the request ID is missing or too long");
  const instant = Date.parse(root.getAttribute("IssueInstant") ?? "");
  if (!Number.isFinite(instant)) throw samlInvalid(SAML_REASONS.invalidRequest, "IssueInstant is not a dateTime");
  if (Math.abs(now - instant) > MAX_SKEW_MS) throw samlInvalid(SAML_REASONS.stale, "IssueInstant is outside the allowed window");
  // Destination is required for signed messages over HTTP bindings (bindings 3.4.5.2, 3.5.5.2)
  // and must match wherever it is present.
  const destination = attr(root, "Destination");
  if (destination !== undefined && destination !== expectedDestination) {
    throw samlInvalid(SAML_REASONS.destinationMismatch, "Destination is not this realm's SAML endpoint");
  }
  return { id, issueInstant: instant };
}

/** An xs:dateTime in UTC with milliseconds (core 1.3.3). */
export function samlInstant(ms: number): string {
  return new Date(ms).toISOString();
}
