import type { ServiceImpl } from "@connectrpc/connect";
import { BrokerLoginService, type BrokerOutcome } from "../../../../gen/iam/broker/v1/broker_login_pb.js";
import { create } from "@bufbuild/protobuf";
import { BrokerOutcomeSchema } from "../../../../gen/iam/broker/v1/broker_login_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { BrokerLogin, BrokerResult, BrowserCall } from "../login/broker-login.js";
import type { AccountLinkFlow } from "../login/account-link-flow.js";

/** Thin handlers: check -> domain -> convert. */
export function loginRpc(login: BrokerLogin, linking: AccountLinkFlow): ServiceImpl<typeof BrokerLoginService> {
  return {
    async listLoginProviders(req) {
      const list = await login.loginProviders(required(req.realm, "realm"));
      return { providers: list.map((p) => ({ alias: p.alias, displayName: p.displayName })) };
    },
    async startLogin(req) {
      const r = await login.start(call(req), req.transactionId, req.csrfToken, req.loginHint);
      if ("redirect" in r) return { outcome: { case: "redirect", value: r.redirect } };
      if (r.kind !== "error") throw new Error("a login start answers a redirect or an error");
      return { outcome: { case: "error", value: { error: r.error, description: r.description, status: r.status } } };
    },
    async handleCallback(req) {
      return { outcome: toOutcome(await login.callback(call(req), { state: req.state, code: req.code, error: req.error, iss: req.iss, ssoCookie: req.ssoCookie })) };
    },
    async confirmLink(req) {
      return { outcome: toOutcome(await login.confirmLink(call(req), req.pending, req.password)) };
    },
    async createAccountLink(req) {
      return linking.linkUri({
        realm: required(req.realm, "realm"), alias: required(req.alias, "alias"), userId: required(req.userId, "user_id"),
        sessionId: req.sessionId, clientId: required(req.clientId, "client_id"), redirectUri: req.redirectUri,
      });
    },
    async startAccountLink(req) {
      const r = await linking.start({ ...call(req), clientId: req.clientId, redirectUri: req.redirectUri, nonce: req.nonce, hash: req.hash, ssoCookie: req.ssoCookie });
      if (r.kind === "redirect") return { outcome: { case: "redirect", value: r.location } };
      if (r.kind !== "error") throw new Error("an account link start answers a redirect or an error");
      return { outcome: { case: "error", value: { error: r.error, description: r.description, status: r.status } } };
    },
  };
}

function call(req: { realm: string; alias: string; browserId: string; ipAddress: string }): BrowserCall {
  return { realm: required(req.realm, "realm"), alias: required(req.alias, "alias"), browserId: req.browserId, ipAddress: req.ipAddress };
}

function required(v: string, field: string): string {
  if (!v) throw IamError.invalid(field, `${field} is required`);
  return v;
}

function toOutcome(r: BrokerResult): BrokerOutcome {
  switch (r.kind) {
    case "authenticated":
      return create(BrokerOutcomeSchema, { outcome: { case: "authenticated", value: { userId: r.userId, transactionId: r.transactionId, csrfToken: r.csrfToken, alias: r.alias } } });
    case "confirm_link":
      return create(BrokerOutcomeSchema, { outcome: { case: "confirmLink", value: { pending: r.pending, username: r.username, providerDisplayName: r.providerDisplayName, message: r.message } } });
    case "error":
      return create(BrokerOutcomeSchema, { outcome: { case: "error", value: { error: r.error, description: r.description, status: r.status } } });
    case "redirect":
      return create(BrokerOutcomeSchema, { outcome: { case: "redirect", value: r.location } });
  }
}
