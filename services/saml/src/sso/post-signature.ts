import { SignedXml } from "xml-crypto";
import { SAML_REASONS, samlDenied, samlInvalid } from "./saml-errors.js";
import { NS, childrenNs, parseSamlXml } from "./saml-xml.js";
import { ENVELOPED, EXC_C14N, RSA_SHA256, SHA256 } from "./redirect-signature.js";

const ALLOWED_TRANSFORMS = new Set([ENVELOPED, EXC_C14N]);

/** Whether the message root carries an enveloped signature (SAML 2.0 core 5.4). */
export function hasXmlSignature(doc: Document): boolean {
  return doc.getElementsByTagNameNS(NS.dsig, "Signature").length > 0;
}

/**
 * Verifies the enveloped XML signature of a POSTed protocol message (SAML 2.0 core 5.4,
 * bindings 3.5.5.2) against the SP's registered certificate only (KeyInfo is ignored), and
 * returns the message as signed: the root element re-parsed from the canonical octets the
 * signature covers, so no value is ever read from unsigned parts of the document.
 *
 * Against signature wrapping (XSW): the document must hold exactly one ds:Signature, as a
 * direct child of the root; its SignedInfo must hold exactly one Reference, to `#<root ID>`;
 * the ID must occur once in the document; transforms are limited to enveloped-signature and
 * exclusive c14n (core 5.4.4), and only RSA-SHA256 / SHA-256 are accepted.
 */
export function verifyPostSignature(xml: string, doc: Document, certificatePem: string): Element {
  const root = doc.documentElement;
  const id = root.getAttribute("ID") ?? "";
  if (!id) throw samlInvalid(SAML_REASONS.invalidRequest, "the message has no ID");
  const signatures = doc.getElementsByTagNameNS(NS.dsig, "Signature");
  if (signatures.length !== 1 || signatures.item(0)?.parentNode !== root) {
    throw wrapped("exactly one Signature, child of the message root, is required");
  }
  const signature = signatures.item(0) as Element;
  if (countIds(root, id) !== 1) throw wrapped("the signed ID occurs more than once");
  const signedInfo = childrenNs(signature, NS.dsig, "SignedInfo")[0];
  if (!signedInfo) throw wrapped("Signature has no SignedInfo");
  const method = childrenNs(signedInfo, NS.dsig, "SignatureMethod")[0]?.getAttribute("Algorithm");
  if (method !== RSA_SHA256) throw samlInvalid(SAML_REASONS.unsupportedAlgorithm, "SignatureMethod must be RSA-SHA256");
  const references = childrenNs(signedInfo, NS.dsig, "Reference");
  if (references.length !== 1 || references[0]!.getAttribute("URI") !== `#${id}`) {
    throw wrapped("the signature must reference the message root, once");
  }
  const reference = references[0]!;
  if (childrenNs(reference, NS.dsig, "DigestMethod")[0]?.getAttribute("Algorithm") !== SHA256) {
    throw samlInvalid(SAML_REASONS.unsupportedAlgorithm, "DigestMethod must be SHA-256");
  }
  for (const transforms of childrenNs(reference, NS.dsig, "Transforms")) {
    for (const t of childrenNs(transforms, NS.dsig, "Transform")) {
      if (!ALLOWED_TRANSFORMS.has(t.getAttribute("Algorithm") ?? "")) throw wrapped("transform not allowed");
    }
  }

  const verifier = new SignedXml({ publicCert: certificatePem, getCertFromKeyInfo: () => null });
  let valid = false;
  try {
    verifier.loadSignature(signature);
    valid = verifier.checkSignature(xml);
  } catch {
    valid = false;
  }
  if (!valid) throw samlDenied(SAML_REASONS.invalidSignature, "the message signature does not verify against the SP certificate");
  const signed = verifier.getSignedReferences();
  if (signed.length !== 1) throw wrapped("unexpected signed references");
  const trusted = parseSamlXml(signed[0]!).documentElement;
  if (trusted.namespaceURI !== root.namespaceURI || trusted.localName !== root.localName || trusted.getAttribute("ID") !== id) {
    throw wrapped("the signed element is not the message root");
  }
  return trusted;
}

function countIds(el: Element, id: string): number {
  let n = 0;
  const all = el.ownerDocument.getElementsByTagName("*");
  for (let i = 0; i < all.length; i++) {
    const e = all.item(i)!;
    for (const name of ["ID", "Id", "id"]) if (e.getAttribute(name) === id) n++;
  }
  return n;
}

function wrapped(message: string) {
  return samlDenied(SAML_REASONS.invalidSignature, message);
}
