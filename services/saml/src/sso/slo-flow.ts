import type { Clock } from "../../../kit/src/store/port.js";
import type { ServiceProviderRepository } from "../store/service-provider-repository.js";
import type { IdpKeys } from "../domain/idp-keys.js";
import { idpEntityId } from "../domain/idp-metadata.js";
import { SAML_REASONS, samlInvalid } from "./saml-errors.js";
import { readInbound, type Binding } from "./inbound-message.js";
import { checkRequestHeader } from "./message-checks.js";
import { NS, STATUS_SUCCESS, childrenNs, optionalChild, textOf } from "./saml-xml.js";
import type { SsoStore } from "./sso-store.js";
import type { DirectoryReader } from "./user-profile.js";
import { buildLogoutRequest, buildLogoutResponse, outbound, type Outbound } from "./logout-messages.js";
import type { SigningKey } from "./xml-signer.js";

export interface BeginSloInput {
  realm: string;
  binding: Binding;
  samlRequest: string;
  samlResponse: string;
  relayState: string;
  sigAlg: string;
  signature: string;
  rawQuery: string;
}

export interface BeginSloResult {
  sessionIndex: string;
  userId: string;
  /** The SP that sent the message. */
  spEntityId: string;
  logoutResponse?: Outbound;
  wasResponse: boolean;
  success: boolean;
  signed: boolean;
}

/** SAML 2.0 Single Logout at the IdP (profiles 4.4; core 3.7). */
export class SloFlow {
  constructor(
    private readonly sps: ServiceProviderRepository,
    private readonly store: SsoStore,
    private readonly keys: IdpKeys,
    private readonly directory: DirectoryReader,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  /**
   * A LogoutRequest from an SP, validated like an AuthnRequest (issuer, signature, freshness,
   * Destination, replay): finds that SP's session and answers with a signed LogoutResponse over
   * the same binding. It ends nothing: the gateway ends the SSO session (with its LOGOUT event,
   * in the token service's outbox) and then drops the session's SAML records (buildLogoutRequests).
   * Dropping this SP's record first, as before, meant a crash before the SSO session ended left
   * the SP's retry nothing to find: a LogoutResponse of Success, and the SSO session alive. A
   * LogoutResponse from an SP (to an IdP-initiated request) is validated the same way and its
   * status reported.
   */
  async begin(input: BeginSloInput): Promise<BeginSloResult> {
    if (!!input.samlRequest === !!input.samlResponse && !input.rawQuery) {
      throw samlInvalid(SAML_REASONS.invalidRequest, "exactly one of SAMLRequest and SAMLResponse is required");
    }
    const realm = await this.directory.realm(input.realm);
    const isResponse = input.rawQuery ? /(^|&)SAMLResponse=/.test(input.rawQuery) : !!input.samlResponse;
    const idpId = idpEntityId(this.publicUrl, realm.name);
    const now = this.clock.now();
    const msg = await readInbound({
      ...input, realmId: realm.id, param: isResponse ? "SAMLResponse" : "SAMLRequest",
      message: isResponse ? input.samlResponse : input.samlRequest,
    }, this.sps, isResponse ? "LogoutResponse" : "LogoutRequest");
    const { id } = checkRequestHeader(msg.root, now, `${idpId}/protocol/saml`);
    if (!(await this.store.markRequestSeen(realm.id, msg.sp._id, id, now))) {
      throw samlInvalid(SAML_REASONS.replayed, "this message ID was already used");
    }
    if (isResponse) {
      const status = optionalChild(msg.root, NS.protocol, "Status");
      const code = status && optionalChild(status, NS.protocol, "StatusCode")?.getAttribute("Value");
      return { sessionIndex: "", userId: "", spEntityId: msg.sp.entityId, wasResponse: true, success: code === STATUS_SUCCESS, signed: msg.signed };
    }

    const notOnOrAfter = msg.root.getAttribute("NotOnOrAfter");
    if (notOnOrAfter && Date.parse(notOnOrAfter) <= now) throw samlInvalid(SAML_REASONS.stale, "the LogoutRequest has expired");
    const nameIdEl = optionalChild(msg.root, NS.assertion, "NameID");
    if (!nameIdEl) throw samlInvalid(SAML_REASONS.invalidRequest, "the LogoutRequest has no NameID");
    const nameId = textOf(nameIdEl);
    const indexes = childrenNs(msg.root, NS.protocol, "SessionIndex").map(textOf);
    const sessions = (await this.store.findSession(realm.id, msg.sp._id, nameId))
      .filter((s) => indexes.length === 0 || indexes.includes(s.sessionIndex));
    const session = sessions[0];

    let logoutResponse: Outbound | undefined;
    if (msg.sp.sloUrl) {
      const [xml, responseId] = buildLogoutResponse({ idpEntityId: idpId, destination: msg.sp.sloUrl, inResponseTo: id, now });
      logoutResponse = outbound(input.binding, "SAMLResponse", xml, responseId, msg.sp.sloUrl, msg.relayState, await this.key(realm), msg.sp._id);
    }
    return {
      sessionIndex: session?.sessionIndex ?? "", userId: session?.userId ?? "", spEntityId: msg.sp.entityId, wasResponse: false, success: true, signed: msg.signed,
      ...(logoutResponse ? { logoutResponse } : {}),
    };
  }

  /**
   * Signed LogoutRequests (HTTP-Redirect) for every other SP of the SSO session `sessionIndex`
   * that has a single logout URL (profiles 4.4.3.3, IdP propagation). The SAML session records
   * are dropped: the gateway ends the SSO session itself.
   */
  async buildLogoutRequests(realmName: string, sessionIndex: string, exceptSpId: string): Promise<Outbound[]> {
    if (!sessionIndex) throw samlInvalid(SAML_REASONS.invalidRequest, "session_index is required");
    const realm = await this.directory.realm(realmName);
    const sessions = await this.store.sessionsOf(realm.id, sessionIndex);
    const out: Outbound[] = [];
    const now = this.clock.now();
    let key: SigningKey | undefined;
    for (const s of sessions) {
      await this.store.deleteSession(s._id);
      if (s.spId === exceptSpId) continue;
      const sp = await this.sps.findById(realm.id, s.spId);
      if (!sp?.sloUrl || !sp.enabled) continue;
      key ??= await this.key(realm);
      const [xml, id] = buildLogoutRequest({
        idpEntityId: idpEntityId(this.publicUrl, realm.name), destination: sp.sloUrl, nameId: s.nameId,
        nameIdFormat: s.nameIdFormat, sessionIndex: s.sessionIndex, now,
      });
      out.push(outbound("REDIRECT", "SAMLRequest", xml, id, sp.sloUrl, "", key, sp._id));
    }
    return out;
  }

  private async key(realm: { id: string; name: string }): Promise<SigningKey> {
    const k = await this.keys.active({ id: realm.id, name: realm.name, adminEventsEnabled: false });
    return { privateKeyPem: this.keys.privateKeyPem(k), certificatePem: k.certificate };
  }
}
