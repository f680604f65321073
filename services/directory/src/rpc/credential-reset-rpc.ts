import type { ServiceImpl } from "@connectrpc/connect";
import { CredentialResetService, ResetAccountOutcome, ResetKeyOutcome } from "../../../../gen/iam/directory/v1/credential_reset_pb.js";
import type { CredentialReset } from "../domain/credential-reset.js";
import type { ExecuteActions } from "../domain/execute-actions.js";

/** Thin handlers: check -> domain -> convert. */
export function credentialResetRpc(reset: CredentialReset, actions: ExecuteActions): ServiceImpl<typeof CredentialResetService> {
  return {
    async findResetAccount(req) {
      const r = await reset.findAccount(req.realm, req.identifier.slice(0, 320));
      return { outcome: ResetAccountOutcome[r.outcome], userId: r.userId, username: r.username };
    },
    async sendResetCredentialsEmail(req) {
      return { email: await reset.sendLink(req.realm, req.userId) };
    },
    async checkResetKey(req) {
      const r = await reset.check(req.realm, req.key);
      return { outcome: ResetKeyOutcome[r.outcome], userId: r.userId, username: r.username };
    },
    async resetPasswordWithKey(req) {
      const r = await reset.reset(req.realm, req.key, req.password);
      return { outcome: ResetKeyOutcome[r.outcome], userId: r.userId, username: r.username };
    },
    async consumeActionsKey(req) {
      const r = await actions.consume(req.realm, req.key.slice(0, 4096));
      return { ...r, outcome: ResetKeyOutcome[r.outcome] };
    },
  };
}
