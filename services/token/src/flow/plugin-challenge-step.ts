import type { StepResult } from "../../../kit/src/plugins/plugin-api.js";
import type { FlowRealm } from "./flow-realms.js";
import type { FlowKit, StepContext } from "./flow-kit.js";
import { errorReply, pageOf, staleTransaction, type FlowReply } from "./flow-reply.js";
import type { LoginTransactionRecord, PluginPage } from "./login-transaction.js";

/** Failed tries of one login's plugin steps before the login must start over (the plugin's own lockout aside). */
export const PLUGIN_STEP_MAX_FAILURES = 5;
export const PLUGIN_STEP_LOCKED_DESCRIPTION = "Too many failed attempts. Please sign in again.";
/** Field values longer than this are cut: a page's fields are short answers, not documents. */
const FIELD_MAX = 1024;

/** Goes on with the login once a step passed (LoginSteps.next). */
export type Continue = (realm: FlowRealm, tx: LoginTransactionRecord, ctx: StepContext) => Promise<FlowReply>;

/**
 * A plugin authenticator step of a browser flow (docs/plugins.md, "Authenticator steps"), run once
 * the user is identified and the other factors are given. The plugin is called with no fields;
 * a challenge is shown as the plugin_challenge page, whose post comes back with the page's fields
 * (only those) and calls it again. Success goes on (no amr value is added: RFC 8176 has none for
 * a method the server does not know). A failure records LOGIN_ERROR with the plugin's error and
 * shows it on the page, which may be tried again up to PLUGIN_STEP_MAX_FAILURES times per login;
 * then the login ends. Plugin failures are not counted by the directory's brute-force detection,
 * which counts password and code failures: a plugin guarding a guessable secret keeps its own count.
 */
export class PluginChallengeStep {
  constructor(private readonly kit: FlowKit, private readonly next: Continue) {}

  /** Whether the transaction still owes a plugin step. */
  static owed(tx: LoginTransactionRecord): boolean {
    return (tx.pluginStepsDone ?? 0) < (tx.pluginSteps?.length ?? 0);
  }

  /** The owed step's first call (no fields). */
  async start(realm: FlowRealm, tx: LoginTransactionRecord, ctx: StepContext): Promise<FlowReply> {
    const moved = tx.step === "plugin_challenge" ? tx : await this.kit.d.txs.advance(tx, { step: "plugin_challenge" }, ["pluginPage"]);
    if (!moved) return staleTransaction();
    return this.call(realm, moved, ctx, {});
  }

  /** The challenge page's post. */
  async submit(ctx: StepContext, fields: Record<string, string>): Promise<FlowReply> {
    const loaded = await this.kit.loadTransaction(ctx, ["plugin_challenge"]);
    if ("outcome" in loaded) return loaded;
    const { realm, tx } = loaded;
    if (!tx.userId || !PluginChallengeStep.owed(tx)) return staleTransaction();
    const form: Record<string, string> = {};
    for (const f of tx.pluginPage?.fields ?? []) form[f.name] = (fields[f.name] ?? "").slice(0, FIELD_MAX);
    return this.call(realm, tx, ctx, form);
  }

  private async call(realm: FlowRealm, tx: LoginTransactionRecord, ctx: StepContext, form: Record<string, string>): Promise<FlowReply> {
    const done = tx.pluginStepsDone ?? 0;
    const step = tx.pluginSteps?.[done];
    if (!step || !tx.userId) return staleTransaction();
    const runner = this.kit.d.pluginSteps;
    // A flow naming a plugin this process did not load was already refused by the plan; fail closed anyway.
    const result: StepResult = runner
      ? await runner.run(step, { realm: realm.name, clientId: tx.clientId, userId: tx.userId, form })
      : { outcome: "failure", error: "authentication step failed" };
    if (result.outcome === "success") {
      const moved = await this.kit.d.txs.advance(tx, { pluginStepsDone: done + 1, pluginFailures: 0, step: "otp" }, ["pluginPage"]);
      if (!moved) return staleTransaction();
      return this.next(realm, moved, ctx);
    }
    if (result.outcome === "challenge") {
      const page: PluginPage = {
        title: result.page.title, message: result.page.message ?? "",
        fields: result.page.fields.map((f) => ({ name: f.name, label: f.label, type: f.type })),
      };
      const moved = await this.kit.d.txs.advance(tx, { pluginPage: page });
      if (!moved) return staleTransaction();
      return this.page(moved, page, page.message);
    }
    await this.kit.d.events.record(realm, ctx, tx, { type: "LOGIN_ERROR", error: result.error, details: { authenticator: step.type } });
    const failures = (tx.pluginFailures ?? 0) + 1;
    if (failures >= PLUGIN_STEP_MAX_FAILURES) {
      if (!(await this.kit.d.txs.finish(tx))) return staleTransaction();
      return errorReply("access_denied", PLUGIN_STEP_LOCKED_DESCRIPTION);
    }
    const moved = await this.kit.d.txs.advance(tx, { pluginFailures: failures });
    if (!moved) return staleTransaction();
    return this.page(moved, moved.pluginPage ?? { title: "", message: "", fields: [] }, result.error);
  }

  private page(tx: LoginTransactionRecord, page: PluginPage, message: string): FlowReply {
    return pageOf(tx, "plugin_challenge", { pluginTitle: page.title, pluginFields: page.fields, message });
  }
}
