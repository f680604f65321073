import { toJson } from "@bufbuild/protobuf";
import { ListValueSchema } from "@bufbuild/protobuf/wkt";
import { isBuiltinFlow, SUBFLOW, type FlowStep } from "../../../services/kit/src/authentication-flows/flow-model.js";
import { FlowStep as PageStep, type FlowPage } from "../../../gen/iam/token/v1/authorization_pb.js";
import { currentContext } from "../../../services/kit/src/context.js";
import type { RpcClients } from "../rpc-clients.js";
import type { LoginOptions } from "./login-options.js";

/**
 * Whether the realm's browser flow identifies the user by a `username` step (identity-first,
 * docs/authentication-flows.md): its first enabled identifying step, at the top level or in a
 * top-level sub-flow. Then the login page asks for the username alone, and the password on the
 * next page. A client's override is not consulted here (the combined form satisfies a
 * username-then-password flow as well). When the directory does not answer, the usual page.
 */
export async function flowAsksUsernameFirst(rpc: RpcClients, realm: string, alias: string | undefined): Promise<boolean> {
  return (await firstStepOf(rpc, realm, alias))?.type === "username";
}

/**
 * The identity provider an `idp-redirector` step sends the login page to (Keycloak's Identity
 * Provider Redirector, as kc_idp_hint): when it is the flow's first enabled identifying step.
 */
export async function flowRedirectsTo(rpc: RpcClients, realm: string, alias: string | undefined): Promise<string> {
  const first = await firstStepOf(rpc, realm, alias);
  return first?.type === "idp-redirector" ? first.config?.alias ?? "" : "";
}

async function firstStepOf(rpc: RpcClients, realm: string, alias: string | undefined): Promise<FlowStep | undefined> {
  // The realm's alias comes from its cached look (realm-looks.ts): a built-in flow costs no call.
  if (!alias || isBuiltinFlow(alias)) return undefined;
  try {
    const flow = (await rpc.authenticationFlows.getFlowByAlias({ realm, alias })).flow;
    const steps = (flow?.steps ? toJson(ListValueSchema, flow.steps) : []) as unknown as FlowStep[];
    return firstIdentifying(steps);
  } catch (err) {
    currentContext()?.logger.warn({ err, realm }, "login page shown without the flow's first step");
    return undefined;
  }
}

const IDENTIFYING = new Set(["username-password", "username", "passkey", "idp-redirector"]);

function firstIdentifying(steps: FlowStep[]): FlowStep | undefined {
  for (const s of steps) {
    if (s.requirement === "DISABLED") continue;
    if (IDENTIFYING.has(s.type)) return s;
    if (s.type === SUBFLOW && s.requirement !== "CONDITIONAL") {
      const inner = firstIdentifying(s.steps ?? []);
      if (inner) return inner;
    }
  }
  return undefined;
}

/**
 * Where the login page goes instead of rendering: the identity provider's broker login, continuing
 * this transaction (as the provider's button would), for the provider the authorization request
 * named in `kc_idp_hint` when the realm has it enabled (an unknown or disabled one shows the page,
 * as Keycloak does), else when the realm's browser flow starts with an `idp-redirector` step. Not
 * after a message (a failed brokered login comes back to the page with one), so the browser is
 * never sent round in a loop. "" to render the page.
 */
export async function idpRedirectOf(rpc: RpcClients, options: LoginOptions, realm: string, browserFlow: string | undefined, page: FlowPage, action: string): Promise<string> {
  if (page.step !== PageStep.LOGIN || page.message || page.userCode || !page.transactionId) return "";
  if (!action.endsWith("/protocol/openid-connect/auth") && !action.endsWith("/protocol/saml")) return "";
  // login_hint prefills the username and may come with kc_idp_hint; the redirector step only
  // applies to a page that asks who the user is.
  const idp = (page.idpHint && (await hintedProvider(options, realm, page.idpHint)))
    || (page.username ? "" : await flowRedirectsTo(rpc, realm, browserFlow));
  if (!idp) return "";
  // The client's login_hint (the page's prefilled username) goes on to the provider.
  const q = new URLSearchParams({ tx: page.transactionId, csrf: page.csrfToken, ...(page.username ? { login_hint: page.username } : {}) }).toString();
  return `/realms/${encodeURIComponent(realm)}/broker/${encodeURIComponent(idp)}/login?${q}`;
}

/** The hinted alias when it is one of the realm's enabled providers; "" otherwise, or when the broker does not answer. */
async function hintedProvider(options: LoginOptions, realm: string, alias: string): Promise<string> {
  try {
    const providers = await options.providers(realm);
    return providers.some((p) => p.alias === alias) ? alias : "";
  } catch (err) {
    currentContext()?.logger.warn({ err, realm }, "kc_idp_hint not followed: the broker did not answer");
    return "";
  }
}
