import { toJson } from "@bufbuild/protobuf";
import { ListValueSchema } from "@bufbuild/protobuf/wkt";
import { isBuiltinFlow, SUBFLOW, type FlowStep } from "../../../services/kit/src/authentication-flows/flow-model.js";
import { currentContext } from "../../../services/kit/src/context.js";
import type { RpcClients } from "../rpc-clients.js";

/**
 * Whether the realm's browser flow identifies the user by a `username` step (identity-first,
 * docs/authentication-flows.md): its first enabled identifying step, at the top level or in a
 * top-level sub-flow. Then the login page asks for the username alone, and the password on the
 * next page. A client's override is not consulted here (the combined form satisfies a
 * username-then-password flow as well). When the directory does not answer, the usual page.
 */
export async function flowAsksUsernameFirst(rpc: RpcClients, realm: string, alias: string | undefined): Promise<boolean> {
  // The realm's alias comes from its cached look (realm-looks.ts): a built-in flow costs no call.
  if (!alias || isBuiltinFlow(alias)) return false;
  try {
    const flow = (await rpc.authenticationFlows.getFlowByAlias({ realm, alias })).flow;
    const steps = (flow?.steps ? toJson(ListValueSchema, flow.steps) : []) as unknown as FlowStep[];
    return firstIdentifying(steps) === "username";
  } catch (err) {
    currentContext()?.logger.warn({ err, realm }, "login page shown without the flow's identity-first step");
    return false;
  }
}

const IDENTIFYING = new Set(["username-password", "username", "passkey"]);

function firstIdentifying(steps: FlowStep[]): string | undefined {
  for (const s of steps) {
    if (s.requirement === "DISABLED") continue;
    if (IDENTIFYING.has(s.type)) return s.type;
    if (s.type === SUBFLOW && s.requirement !== "CONDITIONAL") {
      const inner = firstIdentifying(s.steps ?? []);
      if (inner) return inner;
    }
  }
  return undefined;
}
