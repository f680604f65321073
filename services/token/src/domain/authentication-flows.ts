import { toJson } from "@bufbuild/protobuf";
import { ListValueSchema } from "@bufbuild/protobuf/wkt";
import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { AuthenticationFlowService } from "../../../../gen/iam/directory/v1/authentication_flow_pb.js";
import { BROWSER_FLOW, DIRECT_GRANT_FLOW, isBuiltinFlow, type FlowStep } from "../../../kit/src/authentication-flows/flow-model.js";
import { conditionKey, conditionsOf, planFlow, type FlowPlan, type Identification } from "../../../kit/src/authentication-flows/flow-plan.js";

export type FlowUsage = "browser" | "direct";

/** What the flow's choice reads of the realm and the client. */
export interface FlowBindings {
  realm: { name: string; browserFlow?: string; directGrantFlow?: string };
  client?: { clientId: string; browserFlowOverride?: string; directGrantFlowOverride?: string } | null;
}

export interface UserFacts {
  userId: string;
  identifiedBy: Identification;
  otpConfigured: boolean;
  passkeyConfigured: boolean;
}

/**
 * Runs a realm's authentication flows for the token service (docs/authentication-flows.md): the
 * client's override, else the realm's flow, decides the steps after the user is identified. A
 * built-in flow answers null, and the caller keeps today's fixed sequence unchanged; a custom
 * flow is read from the directory at each login (no cache: an admin's change applies to the next
 * login), and its conditions are asked of the directory in one call.
 */
export class AuthenticationFlows {
  private readonly client: Client<typeof AuthenticationFlowService>;

  constructor(transport: Transport) {
    this.client = createClient(AuthenticationFlowService, transport);
  }

  /** Mails the user a sign-in code (email-otp); the address, or "" when the user has none. */
  async sendLoginCode(realm: string, userId: string, code: string, minutes: number): Promise<string> {
    return (await this.client.sendLoginCode({ realm, userId, code, minutes })).email;
  }

  /** The alias in force for this login. */
  static aliasOf(b: FlowBindings, usage: FlowUsage): string {
    if (usage === "browser") return b.client?.browserFlowOverride || b.realm.browserFlow || BROWSER_FLOW;
    return b.client?.directGrantFlowOverride || b.realm.directGrantFlow || DIRECT_GRANT_FLOW;
  }

  /** The plan of a custom flow for this user, or null for a built-in flow (today's behaviour). */
  async plan(b: FlowBindings, usage: FlowUsage, user: UserFacts): Promise<FlowPlan | null> {
    const alias = AuthenticationFlows.aliasOf(b, usage);
    if (isBuiltinFlow(alias)) return null;
    const flow = (await this.client.getFlowByAlias({ realm: b.realm.name, alias })).flow;
    const steps = (flow?.steps ? toJson(ListValueSchema, flow.steps) : []) as unknown as FlowStep[];
    const conditions = conditionsOf(steps);
    const answers = new Map<string, boolean>();
    if (conditions.length > 0) {
      const res = await this.client.evaluateConditions({
        realm: b.realm.name, userId: user.userId, clientId: b.client?.clientId ?? "",
        conditions: conditions.map((c) => ({ type: c.type, config: c.config ?? {} })),
      });
      conditions.forEach((c, i) => answers.set(conditionKey(c), res.holds[i] ?? false));
    }
    return planFlow(steps, {
      identifiedBy: user.identifiedBy, otpConfigured: user.otpConfigured, passkeyConfigured: user.passkeyConfigured,
      holds: (c) => answers.get(conditionKey(c)) ?? false,
    });
  }
}
