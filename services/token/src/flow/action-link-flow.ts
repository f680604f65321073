import type { Client } from "@connectrpc/connect";
import { ResetKeyOutcome, type CredentialResetService } from "../../../../gen/iam/directory/v1/credential_reset_pb.js";
import type { FlowKit, StepContext } from "./flow-kit.js";
import type { FlowRealm } from "./flow-realms.js";
import { errorReply, realmNotFound, staleTransaction, type FlowReply } from "./flow-reply.js";
import type { LoginTransactionRecord } from "./login-transaction.js";

/** Keycloak's accountUpdatedMessage. */
export const ACCOUNT_UPDATED_MESSAGE = "Your account has been updated.";
const INVALID_LINK = (): FlowReply => errorReply("invalid_link", "This link is invalid or has expired. Please ask your administrator for a new one.", 400);
const USED_LINK = (): FlowReply => errorReply("link_already_used", "This link was already used. Please ask your administrator for a new one.", 400);

type Next = (tx: LoginTransactionRecord) => Promise<FlowReply>;

/**
 * The link of Keycloak's execute-actions-email (its ExecuteActionsActionToken): holding it is the
 * proof, so it starts an "actions" transaction for its user, bound to this browser, that runs the
 * listed required actions on the login pages (LoginSteps.next) and ends on "Your account has been
 * updated" with a way back to the redirect_uri the administrator named. It makes no SSO session:
 * Keycloak's token logs the user in for the actions only. The directory consumes the key once.
 * Events: EXECUTE_ACTION_TOKEN(_ERROR) for the link, then each action's (UPDATE_PASSWORD,
 * UPDATE_TOTP, VERIFY_EMAIL) and EXECUTE_ACTIONS once they are done, Keycloak's names.
 */
export class ActionLinkFlow {
  constructor(private readonly kit: FlowKit, private readonly directory: Client<typeof CredentialResetService>, private readonly next: (realm: FlowRealm, tx: LoginTransactionRecord, ctx: StepContext) => Promise<FlowReply>) {}

  async open(ctx: StepContext, key: string): Promise<FlowReply> {
    const realm = await this.kit.d.realms.get(ctx.realm);
    if (!realm) return realmNotFound();
    if (!ctx.browserId) return staleTransaction();
    const res = await this.directory.consumeActionsKey({ realm: realm.name, key });
    if (res.outcome !== ResetKeyOutcome.VALID) {
      const used = res.outcome === ResetKeyOutcome.ALREADY_USED;
      await this.kit.d.events.record(realm, ctx, null, {
        type: "EXECUTE_ACTION_TOKEN_ERROR", ...(res.userId ? { userId: res.userId } : {}), error: used ? "expired_code" : "invalid_code",
      });
      return used ? USED_LINK() : INVALID_LINK();
    }
    const tx = await this.kit.newTransaction(realm, ctx, {
      kind: "actions", step: "otp", clientId: res.clientId, clientName: "", scope: "", userId: res.userId, username: res.username,
      pendingActions: [...res.actions], ...(res.redirectUri ? { actionsRedirectUri: res.redirectUri } : {}),
    });
    await this.kit.d.events.record(realm, ctx, tx, {
      type: "EXECUTE_ACTION_TOKEN", details: { required_actions: res.actions.join(","), ...(res.redirectUri ? { redirect_uri: res.redirectUri } : {}) },
    });
    return this.next(realm, tx, ctx);
  }
}

/**
 * The steps of an actions transaction that show no form: VERIFY_EMAIL (the directory marked the
 * address verified when the key was consumed, since the mail reached it) and the end.
 */
export async function actionLinkStep(kit: FlowKit, realm: FlowRealm, tx: LoginTransactionRecord, ctx: StepContext, action: string | undefined, next: Next): Promise<FlowReply | null> {
  if (action === "VERIFY_EMAIL") {
    const moved = await kit.d.txs.advance(tx, { pendingActions: (tx.pendingActions ?? []).filter((a) => a !== "VERIFY_EMAIL") });
    if (!moved) return staleTransaction();
    await kit.d.events.record(realm, ctx, tx, { type: "VERIFY_EMAIL" });
    return next(moved);
  }
  if (action !== undefined) return null;
  if (!(await kit.d.txs.finish(tx))) return staleTransaction();
  await kit.d.events.record(realm, ctx, tx, { type: "EXECUTE_ACTIONS" });
  return { outcome: { kind: "page", page: { step: "account_updated", message: ACCOUNT_UPDATED_MESSAGE, ...(tx.actionsRedirectUri ? { backUri: tx.actionsRedirectUri } : {}) } } };
}
