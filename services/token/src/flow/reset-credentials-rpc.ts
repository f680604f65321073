import type { ServiceImpl } from "@connectrpc/connect";
import { ResetCredentialsFlowService } from "../../../../gen/iam/token/v1/reset_credentials_flow_pb.js";
import { contextOf, wrap } from "./flow-rpc.js";
import type { ResetCredentialsFlow } from "./reset-credentials-flow.js";
import type { ActionLinkFlow } from "./action-link-flow.js";

/** Thin handlers: check -> domain -> convert. */
export function resetCredentialsFlowRpc(reset: ResetCredentialsFlow, actionLinks: ActionLinkFlow): ServiceImpl<typeof ResetCredentialsFlowService> {
  return {
    async beginResetCredentials(req) {
      return wrap(await reset.begin(contextOf(req.context)));
    },
    async submitResetCredentials(req) {
      return wrap(await reset.submit(contextOf(req.context), req.username));
    },
    async openResetLink(req) {
      return wrap(await reset.open(contextOf(req.context), req.key.slice(0, 4096)));
    },
    async submitResetPassword(req) {
      return wrap(await reset.submitPassword(contextOf(req.context), req.key.slice(0, 4096), req.newPassword, req.confirmation));
    },
    async returnToLogin(req) {
      return wrap(await reset.backToLogin(contextOf(req.context)));
    },
    async openActionLink(req) {
      return wrap(await actionLinks.open(contextOf(req.context), req.key.slice(0, 4096)));
    },
  };
}
