import { randomBytes } from "node:crypto";
import { DOMImplementation } from "@xmldom/xmldom";
import { BEARER, ENTITY_FORMAT, NS, STATUS_SUCCESS, serializeXml } from "./saml-xml.js";
import { samlInstant } from "./message-checks.js";
import { signElement, type SigningKey } from "./xml-signer.js";

/** Lifetime of the assertion (Conditions/SubjectConfirmationData NotOnOrAfter). */
export const ASSERTION_LIFETIME_MS = 5 * 60_000;
/** NotBefore is set slightly in the past for SP clock skew. */
export const NOT_BEFORE_SKEW_MS = 30_000;
const PASSWORD_PROTECTED = "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport";
const BASIC_NAME_FORMAT = "urn:oasis:names:tc:SAML:2.0:attrname-format:basic";

export interface ResponseInput {
  idpEntityId: string;
  acsUrl: string;
  inResponseTo: string;
  spEntityId: string;
  nameId: string;
  nameIdFormat: string;
  sessionIndex: string;
  authInstant: number;
  now: number;
  /** Attribute name -> values (multi-valued attributes carry several AttributeValue). */
  attributes: Array<[name: string, values: string[]]>;
  signAssertion: boolean;
  signResponse: boolean;
  key: SigningKey;
}

export function newSamlId(): string {
  return `_${randomBytes(20).toString("hex")}`;
}

/**
 * A successful Response (SAML 2.0 core 3.3.3) carrying one bearer Assertion (core 2.3.3; profiles
 * 4.1.4.2 Web Browser SSO). Built as a DOM, so every value is escaped by the serializer; signed
 * assertion first, then the response (core 5.4), with the realm's active IdP key.
 */
export function buildSsoResponse(input: ResponseInput): string {
  const doc = new DOMImplementation().createDocument(NS.protocol, "samlp:Response", null);
  const response = doc.documentElement!;
  const el = (ns: string, qname: string, attrs: Record<string, string> = {}, text?: string): Element => {
    const e = doc.createElementNS(ns, qname);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.appendChild(doc.createTextNode(text));
    return e as unknown as Element;
  };
  const add = (parent: Element, child: Element): Element => {
    parent.appendChild(child);
    return child;
  };
  const issuer = () => el(NS.assertion, "saml:Issuer", { Format: ENTITY_FORMAT }, input.idpEntityId);

  const responseId = newSamlId();
  const assertionId = newSamlId();
  const now = samlInstant(input.now);
  const expires = samlInstant(input.now + ASSERTION_LIFETIME_MS);
  response.setAttributeNS("http://www.w3.org/2000/xmlns/", "xmlns:saml", NS.assertion);
  for (const [k, v] of Object.entries({ ID: responseId, Version: "2.0", IssueInstant: now, Destination: input.acsUrl, InResponseTo: input.inResponseTo })) {
    response.setAttribute(k, v);
  }
  const root = response as unknown as Element;
  add(root, issuer());
  add(add(root, el(NS.protocol, "samlp:Status")), el(NS.protocol, "samlp:StatusCode", { Value: STATUS_SUCCESS }));

  const assertion = add(root, el(NS.assertion, "saml:Assertion", { ID: assertionId, Version: "2.0", IssueInstant: now }));
  add(assertion, issuer());
  const subject = add(assertion, el(NS.assertion, "saml:Subject"));
  add(subject, el(NS.assertion, "saml:NameID", { Format: input.nameIdFormat }, input.nameId));
  const confirmation = add(subject, el(NS.assertion, "saml:SubjectConfirmation", { Method: BEARER }));
  add(confirmation, el(NS.assertion, "saml:SubjectConfirmationData", {
    NotOnOrAfter: expires, Recipient: input.acsUrl, InResponseTo: input.inResponseTo,
  }));
  const conditions = add(assertion, el(NS.assertion, "saml:Conditions", {
    NotBefore: samlInstant(input.now - NOT_BEFORE_SKEW_MS), NotOnOrAfter: expires,
  }));
  add(add(conditions, el(NS.assertion, "saml:AudienceRestriction")), el(NS.assertion, "saml:Audience", {}, input.spEntityId));
  const authn = add(assertion, el(NS.assertion, "saml:AuthnStatement", {
    AuthnInstant: samlInstant(input.authInstant), SessionIndex: input.sessionIndex,
  }));
  add(add(authn, el(NS.assertion, "saml:AuthnContext")), el(NS.assertion, "saml:AuthnContextClassRef", {}, PASSWORD_PROTECTED));
  const attributes = input.attributes.filter(([, values]) => values.length > 0);
  if (attributes.length) {
    const statement = add(assertion, el(NS.assertion, "saml:AttributeStatement"));
    for (const [name, values] of attributes) {
      const attribute = add(statement, el(NS.assertion, "saml:Attribute", { Name: name, NameFormat: BASIC_NAME_FORMAT }));
      for (const v of values) add(attribute, el(NS.assertion, "saml:AttributeValue", {}, v));
    }
  }

  let xml = serializeXml(doc as unknown as Node);
  if (input.signAssertion) xml = signElement(xml, assertionId, input.key);
  if (input.signResponse) xml = signElement(xml, responseId, input.key);
  return xml;
}
