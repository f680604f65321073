import type { ServiceImpl } from "@connectrpc/connect";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { SamlBinding, SamlSsoService, type SamlOutbound } from "../../../../gen/iam/saml/v1/sso_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { SamlFlows } from "./lazy-flows.js";
import type { Binding } from "./inbound-message.js";
import type { Outbound } from "./logout-messages.js";

/**
 * Thin handlers: check -> domain -> convert. The flows are loaded on first use (lazy-flows.ts),
 * after a request's own checks so that a malformed one is refused as before.
 */
export function ssoRpc(flows: () => Promise<SamlFlows>): ServiceImpl<typeof SamlSsoService> {
  return {
    async beginSso(req) {
      const input = {
        realm: req.realm, binding: binding(req.binding), samlRequest: req.samlRequest, relayState: req.relayState,
        sigAlg: req.sigAlg, signature: req.signature, rawQuery: req.rawQuery,
      };
      const r = await (await flows()).sso.begin(input);
      return { pendingId: r.pendingId, spName: r.spName, spEntityId: r.spEntityId, forceAuthn: r.forceAuthn, isPassive: r.isPassive };
    },
    async completeSso(req) {
      if (!req.pendingId) throw IamError.invalid("pending_id", "pending_id is required");
      if (!req.userId) throw IamError.invalid("user_id", "user_id is required");
      const { sso } = await flows();
      return sso.complete({
        realm: req.realm, pendingId: req.pendingId, userId: req.userId, sessionIndex: req.sessionIndex,
        authTime: req.authTime ? timestampMs(req.authTime) : 0,
      });
    },
    async failSso(req) {
      if (!req.pendingId) throw IamError.invalid("pending_id", "pending_id is required");
      const { sso } = await flows();
      return sso.fail(req.realm, req.pendingId, req.statusCode, req.statusMessage);
    },
    async beginSlo(req) {
      const input = {
        realm: req.realm, binding: binding(req.binding), samlRequest: req.samlRequest, samlResponse: req.samlResponse,
        relayState: req.relayState, sigAlg: req.sigAlg, signature: req.signature, rawQuery: req.rawQuery,
      };
      const r = await (await flows()).slo.begin(input);
      return {
        sessionIndex: r.sessionIndex, userId: r.userId, spEntityId: r.spEntityId, wasResponse: r.wasResponse, success: r.success, signed: r.signed,
        ...(r.logoutResponse ? { logoutResponse: toProto(r.logoutResponse) } : {}),
      };
    },
    async buildLogoutRequests(req) {
      const out = await (await flows()).slo.buildLogoutRequests(req.realm, req.sessionIndex, req.exceptSpId);
      return { logoutRequests: out.map(toProto) };
    },
  };
}

function binding(b: SamlBinding): Binding {
  if (b === SamlBinding.REDIRECT) return "REDIRECT";
  if (b === SamlBinding.POST) return "POST";
  throw IamError.invalid("binding", "binding must be REDIRECT or POST");
}

function toProto(o: Outbound): Omit<SamlOutbound, "$typeName"> {
  return {
    binding: o.binding === "REDIRECT" ? SamlBinding.REDIRECT : SamlBinding.POST, url: o.url, redirectUrl: o.redirectUrl,
    samlField: o.samlField, value: o.value, relayState: o.relayState, spId: o.spId,
  };
}
