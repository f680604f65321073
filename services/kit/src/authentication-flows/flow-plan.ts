import { PLUGIN_PREFIX, SUBFLOW, type FlowCondition, type FlowStep } from "./flow-model.js";
import { stepType } from "./flow-step-registry.js";

/** How the user was identified before the flow's later steps run (RFC 8176 amr values). */
export type Identification = "pwd" | "hwk" | "fed";

export interface PlanFacts {
  identifiedBy: Identification;
  otpConfigured: boolean;
  passkeyConfigured: boolean;
  /** Whether a condition the directory evaluated holds (conditionsOf lists them). */
  holds: (condition: FlowCondition) => boolean;
}

/** What the rest of the login must do, once the user is identified. */
export interface FlowPlan {
  /** A TOTP (or recovery) code is needed. */
  otp: boolean;
  /** A passkey assertion is needed (a second factor). */
  passkey: boolean;
  /** A one-time code mailed to the user's address is needed (email-otp). */
  emailOtp: boolean;
  /** A `deny` step applies: the login fails. */
  deny: boolean;
  /**
   * The flow asks for a password after another way of identifying (a passkey): neither the login
   * page nor the password grant can ask it there, so the login is refused.
   */
  methodRefused: boolean;
  /** The plugins' authenticator steps owed, in flow order (`plugin:<id>` with the step's config). */
  plugins: PluginStepCall[];
  /** Pending required actions run (false only when the flow holds a DISABLED required-actions step and no enabled one). */
  requiredActions: boolean;
}

/** A plugin authenticator step to run: its type and the config the flow gives it. */
export interface PluginStepCall {
  type: string;
  config: Record<string, string>;
}

/** A plugin step's need carries the step itself (JSON), so two steps of one plugin with different config both run. */
type PluginNeed = `${typeof PLUGIN_PREFIX}${string}`;
type Need = "otp" | "passkey" | "email" | "password" | "deny" | PluginNeed;

const pluginNeed = (s: FlowStep): PluginNeed => `${PLUGIN_PREFIX}${JSON.stringify([s.type, s.config ?? {}])}`;
const isPluginNeed = (n: Need): n is PluginNeed => n.startsWith(PLUGIN_PREFIX);

const CONFIGURED = "condition-user-configured";

/**
 * Every condition of the flow the directory must evaluate (role, group, attribute, client), in
 * tree order; `condition-user-configured` is decided here from the facts.
 */
export function conditionsOf(steps: readonly FlowStep[]): FlowCondition[] {
  const out: FlowCondition[] = [];
  const walk = (list: readonly FlowStep[]) => {
    for (const s of list) {
      if (s.requirement === "DISABLED") continue;
      if (s.condition && s.condition.type !== CONFIGURED) out.push(s.condition);
      if (stepType(s.type)?.condition && s.type !== CONFIGURED) out.push({ type: s.type, config: s.config ?? {} });
      if (s.steps) walk(s.steps);
    }
  };
  walk(steps);
  return out;
}

/**
 * Keycloak's execution rules over a step list: REQUIRED steps (and CONDITIONAL ones whose
 * condition holds) must all pass; when a level has none, one of its ALTERNATIVE steps must pass
 * (one already satisfied by the identification, else the first the user has the credential
 * for, else the first); DISABLED steps and CONDITIONAL ones whose condition fails are skipped,
 * even for a user who has the credential. A `subflow` step is a level of its own.
 */
export function planFlow(steps: readonly FlowStep[], facts: PlanFacts): FlowPlan {
  const needs = needsOfList(steps, facts);
  return {
    otp: needs.has("otp"), passkey: needs.has("passkey"), emailOtp: needs.has("email"), deny: needs.has("deny"), methodRefused: needs.has("password"),
    plugins: [...needs].filter(isPluginNeed).map((n) => {
      const [type, config] = JSON.parse(n.slice(PLUGIN_PREFIX.length)) as [string, Record<string, string>];
      return { type, config };
    }),
    requiredActions: requiredActionsRun(steps),
  };
}

function needsOfList(steps: readonly FlowStep[], facts: PlanFacts): Set<Need> {
  const required: FlowStep[] = [];
  const alternatives: FlowStep[] = [];
  for (const s of steps) {
    if (stepType(s.type)?.condition) continue; // the parent subflow's condition, not a step that runs
    if (s.requirement === "REQUIRED") required.push(s);
    else if (s.requirement === "CONDITIONAL" && conditionHolds(s, facts)) required.push(s);
    else if (s.requirement === "ALTERNATIVE") alternatives.push(s);
  }
  const needs = new Set<Need>();
  if (required.length > 0) {
    for (const s of required) for (const n of needsOf(s, facts)) needs.add(n);
    return needs;
  }
  if (alternatives.length === 0) return needs;
  const options = alternatives.map((s) => needsOf(s, facts));
  if (options.some((o) => o.size === 0)) return needs;
  const usable = options.find((o) => [...o].every((n) => (n === "otp" && facts.otpConfigured) || (n === "passkey" && facts.passkeyConfigured) || n === "email" || isPluginNeed(n)));
  return usable ?? options[0]!;
}

function needsOf(s: FlowStep, facts: PlanFacts): Set<Need> {
  switch (s.type) {
    case SUBFLOW: return needsOfList(s.steps ?? [], facts);
    case "username-password":
    case "username":
    case "password":
      return new Set(facts.identifiedBy === "hwk" ? ["password"] : []);
    case "passkey": return new Set(facts.identifiedBy === "hwk" ? [] : ["passkey"]);
    case "otp":
    case "recovery-code":
      return new Set(["otp"]);
    case "required-actions": return new Set();
    case "email-otp": return new Set(["email"]);
    // Satisfied by a login through an identity provider; the login page redirects to it (flow-identity-first.ts).
    case "idp-redirector": return new Set(facts.identifiedBy === "fed" ? [] : ["deny"]);
    // A registered plugin step (flow-step-registry.ts) runs once the user is identified; deny, and
    // any type this interpreter does not run (a plugin's step whose plugin is not loaded): fail closed.
    default: return new Set(s.type.startsWith(PLUGIN_PREFIX) && stepType(s.type) ? [pluginNeed(s)] : ["deny"]);
  }
}

function conditionHolds(s: FlowStep, facts: PlanFacts): boolean {
  if (s.condition) return holds(s.condition, s, facts);
  // A Keycloak-style conditional subflow: its condition steps must all hold.
  const conditions = (s.steps ?? []).filter((c) => c.requirement !== "DISABLED" && stepType(c.type)?.condition);
  return conditions.length > 0 && conditions.every((c) => holds({ type: c.type, config: c.config ?? {} }, s, facts));
}

function holds(c: FlowCondition, guarded: FlowStep, facts: PlanFacts): boolean {
  const negate = c.config?.negate === "true";
  const value = c.type === CONFIGURED ? configured(guarded, facts) : facts.holds(c);
  return negate ? !value : value;
}

/** Keycloak's "Condition - user configured": the user has every credential the guarded step (or group) checks. */
function configured(s: FlowStep, facts: PlanFacts): boolean {
  if (s.type === "otp" || s.type === "recovery-code") return facts.otpConfigured;
  if (s.type === "passkey") return facts.passkeyConfigured;
  if (s.type === SUBFLOW) return (s.steps ?? []).filter((c) => c.requirement !== "DISABLED" && !stepType(c.type)?.condition).every((c) => configured(c, facts));
  return true;
}

function requiredActionsRun(steps: readonly FlowStep[]): boolean {
  let enabled = false;
  let disabled = false;
  const walk = (list: readonly FlowStep[]) => {
    for (const s of list) {
      if (s.type === "required-actions") {
        if (s.requirement === "DISABLED") disabled = true;
        else enabled = true;
      }
      if (s.steps) walk(s.steps);
    }
  };
  walk(steps);
  return enabled || !disabled;
}

/** The key a condition's answer is looked up by (conditionsOf order is kept by the caller). */
export function conditionKey(c: FlowCondition): string {
  const config = Object.entries(c.config ?? {}).filter(([k]) => k !== "negate").sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([c.type, config]);
}
