import { createPublicKey, sign, verify } from "node:crypto";
import { SAML_REASONS, samlDenied, samlInvalid } from "./saml-errors.js";
import type { RawParam } from "./saml-decode.js";

export const RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
export const SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
export const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
export const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";

/**
 * HTTP-Redirect binding signatures (SAML 2.0 bindings 3.4.4.1): the signature covers the octets
 * `SAMLRequest=<v>&RelayState=<v>&SigAlg=<v>` (SAMLResponse for responses; RelayState only when
 * present) with each value exactly as it appeared URL-encoded in the query. Only RSA-SHA256 is
 * accepted; SHA-1 based algorithms are refused.
 */
export function verifyRedirectSignature(
  messageParam: "SAMLRequest" | "SAMLResponse",
  params: Map<string, RawParam>,
  certificatePem: string,
): void {
  const sigAlg = params.get("SigAlg");
  const signature = params.get("Signature");
  const message = params.get(messageParam);
  if (!sigAlg || !signature || !message) throw samlInvalid(SAML_REASONS.invalidSignature, "SigAlg and Signature are both required");
  if (sigAlg.value !== RSA_SHA256) {
    throw samlInvalid(SAML_REASONS.unsupportedAlgorithm, `SigAlg ${sigAlg.value.slice(0, 100)} is not accepted (RSA-SHA256 required)`);
  }
  const relay = params.get("RelayState");
  const octets = (pick: (p: RawParam) => string) =>
    `${messageParam}=${pick(message)}${relay ? `&RelayState=${pick(relay)}` : ""}&SigAlg=${pick(sigAlg)}`;
  // The octets as received first (3.4.4.1). Browsers re-encode some characters an SP left raw
  // (WHATWG URL percent-encodes ' in queries), so the same values encoded as encodeURIComponent
  // does are tried too: both spell exactly the decoded values that are then used.
  const candidates = [octets((p) => p.raw), octets((p) => encodeURIComponent(p.value))];
  let ok = false;
  for (const candidate of new Set(candidates)) {
    try {
      ok = verify("sha256", Buffer.from(candidate, "utf8"), createPublicKey(certificatePem), Buffer.from(signature.value, "base64"));
    } catch {
      ok = false;
    }
    if (ok) break;
  }
  if (!ok) throw samlDenied(SAML_REASONS.invalidSignature, "the request signature does not verify against the SP certificate");
}

/**
 * Builds a signed Redirect-binding query for an outbound message (bindings 3.4.4.1), signed
 * RSA-SHA256 with the IdP's key. `encoded` is base64 of the DEFLATEd XML.
 */
export function signedRedirectQuery(
  messageParam: "SAMLRequest" | "SAMLResponse",
  encoded: string,
  relayState: string,
  privateKeyPem: string,
): string {
  const signed = `${messageParam}=${encodeURIComponent(encoded)}`
    + (relayState ? `&RelayState=${encodeURIComponent(relayState)}` : "")
    + `&SigAlg=${encodeURIComponent(RSA_SHA256)}`;
  const signature = sign("sha256", Buffer.from(signed, "utf8"), privateKeyPem).toString("base64");
  return `${signed}&Signature=${encodeURIComponent(signature)}`;
}

/** Appends a query to a URL that may already carry one (bindings 3.4.4). */
export function withQuery(url: string, query: string): string {
  return `${url}${url.includes("?") ? "&" : "?"}${query}`;
}
