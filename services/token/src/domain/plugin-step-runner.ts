import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { UserService } from "../../../../gen/iam/directory/v1/user_pb.js";
import type { PluginStepCall } from "../../../kit/src/authentication-flows/flow-plan.js";
import type { StepInput, StepResult } from "../../../kit/src/plugins/plugin-api.js";
import { STEP_FAILED, type PluginRegistry } from "../../../kit/src/plugins/plugin-registry.js";

/** A plugin's error text as a login event and the page carry it: one line, bounded. */
export const PLUGIN_ERROR_MAX = 200;

/** Who runs a plugin step, and for which login. */
export interface PluginStepRun {
  realm: string;
  clientId: string;
  userId: string;
  /** The step page's submitted fields; empty on the step's first call. */
  form: Record<string, string>;
}

/**
 * Runs a flow's plugin authenticator step (docs/plugins.md, "Authenticator steps") in the token
 * service: the user as the directory holds them now (id, username, email, attributes; the login
 * transaction keeps none of these), the step's config and the submitted fields. The registry
 * applies the timeout and isolation: a throwing, hanging or malformed plugin is a failure.
 */
export class PluginStepRunner {
  private readonly users: Client<typeof UserService>;

  constructor(transport: Transport, private readonly plugins: PluginRegistry) {
    this.users = createClient(UserService, transport);
  }

  async run(step: PluginStepCall, run: PluginStepRun): Promise<StepResult> {
    if (!this.plugins.authenticator(step.type)) return STEP_FAILED;
    const { user } = await this.users.getUser({ realm: run.realm, userId: run.userId });
    if (!user) return STEP_FAILED;
    const input: StepInput = {
      realm: { name: run.realm },
      client: { clientId: run.clientId },
      user: { id: user.id, username: user.username, email: user.email, attributes: stringLists(user.attributes) },
      form: run.form,
      config: step.config,
    };
    const result = await this.plugins.runAuthenticator(step.type, input);
    return result.outcome === "failure" ? { outcome: "failure", error: oneLine(result.error) } : result;
  }
}

function stringLists(attributes: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (typeof attributes !== "object" || attributes === null) return out;
  for (const [k, v] of Object.entries(attributes)) {
    if (Array.isArray(v)) out[k] = v.filter((x): x is string => typeof x === "string");
  }
  return out;
}

/** Control characters dropped and the length bounded: the text lands in events and on the page. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return (clean || "authentication step failed").slice(0, PLUGIN_ERROR_MAX);
}
