import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { SAML_REASONS, samlInvalid } from "./saml-errors.js";

/** Namespaces of SAML 2.0 core (section 1.2) and XML Signature. */
export const NS = {
  protocol: "urn:oasis:names:tc:SAML:2.0:protocol",
  assertion: "urn:oasis:names:tc:SAML:2.0:assertion",
  dsig: "http://www.w3.org/2000/09/xmldsig#",
  xsi: "http://www.w3.org/2001/XMLSchema-instance",
  xs: "http://www.w3.org/2001/XMLSchema",
} as const;

export const STATUS_SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success";
export const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";
export const ENTITY_FORMAT = "urn:oasis:names:tc:SAML:2.0:nameid-format:entity";

/**
 * Parses a SAML message. DTDs are refused outright (no DOCTYPE, hence no entity declarations, no
 * external entities, no entity expansion), and any parser error is fatal.
 */
export function parseSamlXml(xml: string): Document {
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml)) {
    throw samlInvalid(SAML_REASONS.doctype, "SAML messages must not contain a DOCTYPE");
  }
  const fail = (msg: string) => {
    throw samlInvalid(SAML_REASONS.invalidRequest, `malformed XML: ${String(msg).slice(0, 200)}`);
  };
  const doc = new DOMParser({ errorHandler: { warning: () => undefined, error: fail, fatalError: fail } })
    .parseFromString(xml, "text/xml") as unknown as Document;
  if (!doc || !doc.documentElement) fail("no document element");
  for (let n = doc.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 10 /* DOCUMENT_TYPE_NODE */) throw samlInvalid(SAML_REASONS.doctype, "SAML messages must not contain a DOCTYPE");
  }
  return doc;
}

export function serializeXml(node: Node): string {
  return new XMLSerializer().serializeToString(node as never);
}

/** Element children of `parent` with this namespace and local name. */
export function childrenNs(parent: Element, ns: string, local: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === local) out.push(n as Element);
  }
  return out;
}

/** The single child with this name, or undefined; more than one is malformed. */
export function optionalChild(parent: Element, ns: string, local: string): Element | undefined {
  const found = childrenNs(parent, ns, local);
  if (found.length > 1) throw samlInvalid(SAML_REASONS.invalidRequest, `more than one ${local} element`);
  return found[0];
}

/** Concatenated text content of an element (comments excluded, so no comment truncation). */
export function textOf(el: Element): string {
  let s = "";
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 3 || n.nodeType === 4) s += n.nodeValue ?? "";
    else if (n.nodeType === 1) throw samlInvalid(SAML_REASONS.invalidRequest, `unexpected element inside ${el.localName}`);
  }
  return s.trim();
}

/** An attribute value, or undefined when absent. */
export function attr(el: Element, name: string): string | undefined {
  return el.hasAttribute(name) ? el.getAttribute(name) ?? "" : undefined;
}
