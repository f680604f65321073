import { DOMImplementation } from "@xmldom/xmldom";
import { ENTITY_FORMAT, NS, STATUS_SUCCESS, serializeXml } from "./saml-xml.js";
import { samlInstant } from "./message-checks.js";
import { newSamlId } from "./response-builder.js";
import { encodePostMessage, encodeRedirectMessage } from "./saml-decode.js";
import { signedRedirectQuery, withQuery } from "./redirect-signature.js";
import { signElement, type SigningKey } from "./xml-signer.js";
import type { Binding } from "./inbound-message.js";

export interface Outbound {
  binding: Binding;
  url: string;
  redirectUrl: string;
  samlField: "SAMLRequest" | "SAMLResponse";
  value: string;
  relayState: string;
  spId: string;
}

export interface LogoutRequestInput {
  idpEntityId: string;
  destination: string;
  nameId: string;
  nameIdFormat: string;
  sessionIndex: string;
  now: number;
}

export interface LogoutResponseInput {
  idpEntityId: string;
  destination: string;
  inResponseTo: string;
  now: number;
}

/** A LogoutRequest from the IdP (SAML 2.0 core 3.7.1), built as a DOM. Returns [xml, id]. */
export function buildLogoutRequest(input: LogoutRequestInput): [string, string] {
  const id = newSamlId();
  const { doc, root, el } = start("samlp:LogoutRequest", {
    ID: id, Version: "2.0", IssueInstant: samlInstant(input.now), Destination: input.destination,
  });
  root.appendChild(el(NS.assertion, "saml:Issuer", { Format: ENTITY_FORMAT }, input.idpEntityId));
  root.appendChild(el(NS.assertion, "saml:NameID", { Format: input.nameIdFormat }, input.nameId));
  root.appendChild(el(NS.protocol, "samlp:SessionIndex", {}, input.sessionIndex));
  return [serializeXml(doc), id];
}

/** A successful LogoutResponse (core 3.7.2, StatusResponseType 3.2.2). Returns [xml, id]. */
export function buildLogoutResponse(input: LogoutResponseInput): [string, string] {
  const id = newSamlId();
  const { doc, root, el } = start("samlp:LogoutResponse", {
    ID: id, Version: "2.0", IssueInstant: samlInstant(input.now), Destination: input.destination, InResponseTo: input.inResponseTo,
  });
  root.appendChild(el(NS.assertion, "saml:Issuer", { Format: ENTITY_FORMAT }, input.idpEntityId));
  const status = el(NS.protocol, "samlp:Status");
  status.appendChild(el(NS.protocol, "samlp:StatusCode", { Value: STATUS_SUCCESS }));
  root.appendChild(status);
  return [serializeXml(doc), id];
}

/**
 * Packs an IdP message for the SP: HTTP-Redirect with a signed query (bindings 3.4.4.1) or
 * HTTP-POST with an enveloped signature (bindings 3.5.4, core 5.4).
 */
export function outbound(
  binding: Binding, field: "SAMLRequest" | "SAMLResponse", xml: string, id: string, url: string,
  relayState: string, key: SigningKey, spId: string,
): Outbound {
  if (binding === "REDIRECT") {
    const query = signedRedirectQuery(field, encodeRedirectMessage(xml), relayState, key.privateKeyPem);
    return { binding, url, redirectUrl: withQuery(url, query), samlField: field, value: "", relayState, spId };
  }
  const signed = signElement(xml, id, key);
  return { binding, url, redirectUrl: "", samlField: field, value: encodePostMessage(signed), relayState, spId };
}

function start(qname: string, attrs: Record<string, string>) {
  const doc = new DOMImplementation().createDocument(NS.protocol, qname, null) as unknown as Document;
  const root = doc.documentElement;
  root.setAttributeNS("http://www.w3.org/2000/xmlns/", "xmlns:saml", NS.assertion);
  for (const [k, v] of Object.entries(attrs)) root.setAttribute(k, v);
  const el = (ns: string, q: string, a: Record<string, string> = {}, text?: string): Element => {
    const e = doc.createElementNS(ns, q);
    for (const [k, v] of Object.entries(a)) e.setAttribute(k, v);
    if (text !== undefined) e.appendChild(doc.createTextNode(text));
    return e;
  };
  return { doc, root, el };
}
