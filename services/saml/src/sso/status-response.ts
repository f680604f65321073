import { DOMImplementation } from "@xmldom/xmldom";
import { ENTITY_FORMAT, NS, serializeXml } from "./saml-xml.js";
import { samlInstant } from "./message-checks.js";
import { newSamlId } from "./response-builder.js";
import { signElement, type SigningKey } from "./xml-signer.js";

/** Status codes an IdP answers a failed AuthnRequest with (core 3.2.2.2). */
export const STATUS_RESPONDER = "urn:oasis:names:tc:SAML:2.0:status:Responder";
export const STATUS_NO_PASSIVE = "urn:oasis:names:tc:SAML:2.0:status:NoPassive";
const ALLOWED_SECOND_LEVEL = new Set([
  STATUS_NO_PASSIVE,
  "urn:oasis:names:tc:SAML:2.0:status:AuthnFailed",
  "urn:oasis:names:tc:SAML:2.0:status:RequestDenied",
]);

export function isAllowedFailureStatus(code: string): boolean {
  return ALLOWED_SECOND_LEVEL.has(code);
}

export interface StatusResponseInput {
  idpEntityId: string;
  acsUrl: string;
  inResponseTo: string;
  now: number;
  /** Second-level StatusCode under Responder. */
  statusCode: string;
  statusMessage: string;
  sign: boolean;
  key: SigningKey;
}

/** An error Response without an Assertion (core 3.3.3, 3.2.2): Responder + second-level code. */
export function buildStatusResponse(input: StatusResponseInput): string {
  const doc = new DOMImplementation().createDocument(NS.protocol, "samlp:Response", null);
  const root = doc.documentElement! as unknown as Element;
  const el = (ns: string, qname: string, attrs: Record<string, string> = {}, text?: string): Element => {
    const e = doc.createElementNS(ns, qname);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.appendChild(doc.createTextNode(text));
    return e as unknown as Element;
  };
  const id = newSamlId();
  root.setAttributeNS("http://www.w3.org/2000/xmlns/", "xmlns:saml", NS.assertion);
  for (const [k, v] of Object.entries({ ID: id, Version: "2.0", IssueInstant: samlInstant(input.now), Destination: input.acsUrl, InResponseTo: input.inResponseTo })) {
    root.setAttribute(k, v);
  }
  root.appendChild(el(NS.assertion, "saml:Issuer", { Format: ENTITY_FORMAT }, input.idpEntityId));
  const status = root.appendChild(el(NS.protocol, "samlp:Status"));
  const top = status.appendChild(el(NS.protocol, "samlp:StatusCode", { Value: STATUS_RESPONDER }));
  top.appendChild(el(NS.protocol, "samlp:StatusCode", { Value: input.statusCode }));
  if (input.statusMessage) status.appendChild(el(NS.protocol, "samlp:StatusMessage", {}, input.statusMessage));
  const xml = serializeXml(doc as unknown as Node);
  return input.sign ? signElement(xml, id, input.key) : xml;
}
