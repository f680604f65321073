import { IamError } from "../../../kit/src/errors.js";
import type { ServiceProviderRecord } from "../domain/service-provider.js";
import type { ServiceProviderRepository } from "../store/service-provider-repository.js";
import { SAML_REASONS, samlDenied, samlInvalid } from "./saml-errors.js";
import { decodePostMessage, decodeRedirectMessage, parseRawQuery, type RawParam } from "./saml-decode.js";
import { checkProtocolSchema } from "./schema-check.js";
import { verifyRedirectSignature } from "./redirect-signature.js";
import { hasXmlSignature, verifyPostSignature } from "./post-signature.js";
import { NS, optionalChild, parseSamlXml, textOf } from "./saml-xml.js";
import { requiresSignedRequests } from "../domain/service-provider.js";

export type Binding = "REDIRECT" | "POST";

export interface InboundInput {
  realmId: string;
  binding: Binding;
  /** Which parameter carries the message (bindings 3.4.4, 3.5.4). */
  param: "SAMLRequest" | "SAMLResponse";
  message: string;
  relayState: string;
  sigAlg: string;
  signature: string;
  rawQuery: string;
}

export interface InboundMessage {
  /** The root element, taken from the signed octets when the message was signed. */
  root: Element;
  sp: ServiceProviderRecord;
  relayState: string;
  signed: boolean;
}

/** Max RelayState length (bindings 3.4.3 and 3.5.3: at most 80 bytes; some SPs send more). */
const MAX_RELAY_STATE = 1024;

/**
 * Everything an inbound protocol message from an SP goes through, whatever it is: decoding per
 * binding, safe parsing (no DTD), protocol schema validation, the Issuer (core 3.2.1) as a
 * registered enabled SP of the realm, and its signature against that SP's certificate.
 * When the SP registered a certificate and did not turn `requireSignedRequests` off, unsigned
 * messages are refused (metadata 2.4.4 WantAuthnRequestsSigned semantics).
 */
export async function readInbound(input: InboundInput, sps: ServiceProviderRepository, expectedRoot: string): Promise<InboundMessage> {
  let params: Map<string, RawParam> | undefined;
  let message = input.message;
  let relayState = input.relayState;
  if (input.binding === "REDIRECT" && input.rawQuery) {
    params = parseRawQuery(input.rawQuery);
    message = params.get(input.param)?.value ?? "";
    relayState = params.get("RelayState")?.value ?? "";
  } else if (input.binding === "REDIRECT" && (input.signature || input.sigAlg)) {
    throw samlInvalid(SAML_REASONS.invalidSignature, "a signed Redirect-binding message needs the raw query");
  }
  if (!message) throw samlInvalid(SAML_REASONS.invalidRequest, `${input.param} is required`);
  if (relayState.length > MAX_RELAY_STATE) throw samlInvalid(SAML_REASONS.invalidRequest, "RelayState is too long");

  const xml = input.binding === "REDIRECT" ? decodeRedirectMessage(message) : decodePostMessage(message);
  const doc = parseSamlXml(xml);
  const root = doc.documentElement;
  if (root.namespaceURI !== NS.protocol || root.localName !== expectedRoot) {
    // field "messageType": the gateway's one protocol endpoint tells an AuthnRequest from a
    // LogoutRequest by this (bindings 3.4/3.5 carry both under the same SAMLRequest parameter).
    throw new IamError({ code: "invalidArgument", reason: SAML_REASONS.invalidRequest, message: `expected a samlp:${expectedRoot}`, field: "messageType" });
  }
  await checkProtocolSchema(xml);

  // The Issuer only selects which certificate verifies; it is re-read from the signed root below.
  const claimedIssuer = issuerOf(root);
  const sp = await sps.findByEntityId(input.realmId, claimedIssuer);
  if (!sp || !sp.enabled) throw samlInvalid(SAML_REASONS.unknownSp, "the request's Issuer is not a registered service provider of this realm");

  const redirectSigned = input.binding === "REDIRECT" && !!params?.has("Signature");
  const postSigned = input.binding === "POST" && hasXmlSignature(doc);
  let trusted: Element = root;
  if (sp.certificate) {
    if (redirectSigned) verifyRedirectSignature(input.param, params!, sp.certificate);
    else if (postSigned) trusted = verifyPostSignature(xml, doc, sp.certificate);
    else if (requiresSignedRequests(sp)) {
      throw samlDenied(SAML_REASONS.signatureRequired, "this service provider must sign its requests");
    }
  }
  if (issuerOf(trusted) !== sp.entityId) throw samlDenied(SAML_REASONS.invalidSignature, "the signed Issuer differs");
  return { root: trusted, sp, relayState, signed: !!sp.certificate && (redirectSigned || postSigned) };
}

function issuerOf(root: Element): string {
  const issuer = optionalChild(root, NS.assertion, "Issuer");
  if (!issuer) throw samlInvalid(SAML_REASONS.unknownSp, "the request has no Issuer");
  const format = issuer.getAttribute("Format");
  if (format && format !== "urn:oasis:names:tc:SAML:2.0:nameid-format:entity") {
    throw samlInvalid(SAML_REASONS.unknownSp, "the Issuer must be an entity identifier (core 3.2.1)");
  }
  return textOf(issuer);
}
