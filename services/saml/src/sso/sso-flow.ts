import { randomBytes } from "node:crypto";
import type { Clock } from "../../../kit/src/store/port.js";
import type { ServiceProviderRepository } from "../store/service-provider-repository.js";
import type { IdpKeys } from "../domain/idp-keys.js";
import { idpEntityId } from "../domain/idp-metadata.js";
import { SAML_REASONS, samlInvalid } from "./saml-errors.js";
import { readInbound, type Binding } from "./inbound-message.js";
import { checkRequestHeader } from "./message-checks.js";
import { NS, attr, optionalChild } from "./saml-xml.js";
import { PENDING_TTL_MS, SESSION_TTL_MS, type SsoStore } from "./sso-store.js";
import type { DirectoryReader } from "./user-profile.js";
import { nameIdFor } from "./name-id.js";
import { assertionAttributes } from "./assertion-attributes.js";
import { buildSsoResponse } from "./response-builder.js";
import { encodePostMessage } from "./saml-decode.js";
import { buildStatusResponse, isAllowedFailureStatus } from "./status-response.js";

export interface BeginSsoInput {
  realm: string;
  binding: Binding;
  samlRequest: string;
  relayState: string;
  sigAlg: string;
  signature: string;
  rawQuery: string;
}

export interface BeginSsoResult {
  pendingId: string;
  spName: string;
  spEntityId: string;
  forceAuthn: boolean;
  isPassive: boolean;
}

export interface CompleteSsoInput {
  realm: string;
  pendingId: string;
  userId: string;
  sessionIndex: string;
  /** Epoch ms; 0 means now. */
  authTime: number;
}

export interface CompleteSsoResult {
  acsUrl: string;
  samlResponse: string;
  relayState: string;
}

/** SAML 2.0 Web Browser SSO at the IdP (profiles 4.1): AuthnRequest in, Response out. */
export class SsoFlow {
  constructor(
    private readonly sps: ServiceProviderRepository,
    private readonly store: SsoStore,
    private readonly keys: IdpKeys,
    private readonly directory: DirectoryReader,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  /** Validates an AuthnRequest (core 3.4.1) and parks it until the user is authenticated. */
  async begin(input: BeginSsoInput): Promise<BeginSsoResult> {
    const realm = await this.directory.realm(input.realm);
    const msg = await readInbound({ ...input, realmId: realm.id, param: "SAMLRequest", message: input.samlRequest }, this.sps, "AuthnRequest");
    const now = this.clock.now();
    const root = msg.root;
    const { id } = checkRequestHeader(root, now, `${idpEntityId(this.publicUrl, realm.name)}/protocol/saml`);
    // The response goes to the registered ACS only (profiles 4.1.4.1): a different one is refused,
    // and so is an AssertionConsumerServiceIndex (Tessera registers exactly one ACS per SP).
    const acs = attr(root, "AssertionConsumerServiceURL");
    if (acs !== undefined && acs !== msg.sp.acsUrl) {
      throw samlInvalid(SAML_REASONS.acsMismatch, "AssertionConsumerServiceURL is not the service provider's registered ACS URL");
    }
    const binding = attr(root, "ProtocolBinding");
    if (binding !== undefined && binding !== "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST") {
      throw samlInvalid(SAML_REASONS.invalidRequest, "only the HTTP-POST binding is supported for responses");
    }
    const policy = optionalChild(root, NS.protocol, "NameIDPolicy");
    if (!(await this.store.markRequestSeen(realm.id, msg.sp._id, id, now))) {
      throw samlInvalid(SAML_REASONS.replayed, "this request ID was already used");
    }
    const forceAuthn = attr(root, "ForceAuthn") === "true" || attr(root, "ForceAuthn") === "1";
    const isPassive = attr(root, "IsPassive") === "true" || attr(root, "IsPassive") === "1";
    const pendingId = randomBytes(24).toString("base64url");
    await this.store.savePending({
      _id: pendingId, realmId: realm.id, realm: realm.name, spId: msg.sp._id, requestId: id, acsUrl: msg.sp.acsUrl,
      relayState: msg.relayState, nameIdPolicyFormat: policy?.getAttribute("Format") ?? "", forceAuthn,
      createdAt: now, expiresAt: now + PENDING_TTL_MS,
    });
    return { pendingId, spName: msg.sp.name, spEntityId: msg.sp.entityId, forceAuthn, isPassive };
  }

  /** Consumes the parked request and issues the Response for the authenticated user. */
  async complete(input: CompleteSsoInput): Promise<CompleteSsoResult> {
    const realm = await this.directory.realm(input.realm);
    const pending = await this.store.consumePending(realm.id, input.pendingId);
    if (!pending) throw samlInvalid(SAML_REASONS.pendingNotFound, "the SAML request is unknown, expired or already answered");
    const sp = await this.sps.findById(realm.id, pending.spId);
    if (!sp || !sp.enabled) throw samlInvalid(SAML_REASONS.unknownSp, "the service provider is no longer registered");
    if (!input.sessionIndex) throw samlInvalid(SAML_REASONS.invalidRequest, "session_index is required");
    const user = await this.directory.user(realm.name, input.userId);
    if (!user.enabled) throw samlInvalid("user_disabled", "the user is disabled");
    const now = this.clock.now();
    const key = await this.keys.active({ id: realm.id, name: realm.name, adminEventsEnabled: false });
    const privateKeyPem = this.keys.privateKeyPem(key);
    const nameId = nameIdFor({ format: sp.nameIdFormat, user, spEntityId: sp.entityId, realmId: realm.id, realmSecret: privateKeyPem });
    const xml = buildSsoResponse({
      idpEntityId: idpEntityId(this.publicUrl, realm.name),
      acsUrl: sp.acsUrl,
      inResponseTo: pending.requestId,
      spEntityId: sp.entityId,
      nameId,
      nameIdFormat: sp.nameIdFormat,
      sessionIndex: input.sessionIndex,
      authInstant: input.authTime || now,
      now,
      attributes: await assertionAttributes(sp, user, realm.name, this.directory),
      signAssertion: sp.signAssertions,
      signResponse: sp.signResponses,
      key: { privateKeyPem, certificatePem: key.certificate },
    });
    await this.store.saveSession({
      _id: `${realm.id}:${input.sessionIndex}:${sp._id}`, realmId: realm.id, userId: user.id, sessionIndex: input.sessionIndex,
      spId: sp._id, spEntityId: sp.entityId, nameId, nameIdFormat: sp.nameIdFormat, createdAt: now, expiresAt: now + SESSION_TTL_MS,
    });
    return { acsUrl: sp.acsUrl, samlResponse: encodePostMessage(xml), relayState: pending.relayState };
  }

  /**
   * Consumes the parked request and answers it with an error Response (core 3.2.2.2), e.g.
   * NoPassive when IsPassive was asked and the user has no session (core 3.4.1).
   */
  async fail(realmName: string, pendingId: string, statusCode: string, statusMessage: string): Promise<CompleteSsoResult> {
    if (!isAllowedFailureStatus(statusCode)) throw samlInvalid(SAML_REASONS.invalidRequest, "status_code is not an allowed failure status");
    const realm = await this.directory.realm(realmName);
    const pending = await this.store.consumePending(realm.id, pendingId);
    if (!pending) throw samlInvalid(SAML_REASONS.pendingNotFound, "the SAML request is unknown, expired or already answered");
    const sp = await this.sps.findById(realm.id, pending.spId);
    if (!sp || !sp.enabled) throw samlInvalid(SAML_REASONS.unknownSp, "the service provider is no longer registered");
    const key = await this.keys.active({ id: realm.id, name: realm.name, adminEventsEnabled: false });
    const xml = buildStatusResponse({
      idpEntityId: idpEntityId(this.publicUrl, realm.name), acsUrl: sp.acsUrl, inResponseTo: pending.requestId,
      now: this.clock.now(), statusCode, statusMessage, sign: true,
      key: { privateKeyPem: this.keys.privateKeyPem(key), certificatePem: key.certificate },
    });
    return { acsUrl: sp.acsUrl, samlResponse: encodePostMessage(xml), relayState: pending.relayState };
  }
}
