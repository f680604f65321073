/**
 * Authentication flows (spec 1.13; Keycloak's authentication flows): a flow is an ordered list of
 * steps, each with a requirement; a `subflow` step groups steps (a conditional group). Shared by
 * the directory (which stores and validates flows) and the token service (which runs them).
 */

export const REQUIREMENTS = ["REQUIRED", "ALTERNATIVE", "CONDITIONAL", "DISABLED"] as const;
export type Requirement = (typeof REQUIREMENTS)[number];

export interface FlowCondition {
  type: string;
  config?: Record<string, string>;
}

export interface FlowStep {
  type: string;
  requirement: Requirement;
  condition?: FlowCondition;
  config?: Record<string, string>;
  /** Only for `subflow`: the group's own steps. */
  steps?: FlowStep[];
}

export interface FlowDefinition {
  alias: string;
  description: string;
  steps: FlowStep[];
}

/** A step that groups steps; its requirement applies to the group as a whole. */
export const SUBFLOW = "subflow";
/** A plugin's authenticator step is named `plugin:<id>` (flow-step-registry.ts). */
export const PLUGIN_PREFIX = "plugin:";

export const BROWSER_FLOW = "browser";
export const DIRECT_GRANT_FLOW = "direct grant";

/**
 * The built-in flows: today's fixed login, shown as steps. They run the original code path
 * unchanged (login-steps.ts, password-grant.ts), so what they list documents that behaviour.
 * `condition-user-configured` (Keycloak's "Condition - user configured") holds when the user has
 * the credential of the step it guards.
 */
export const BUILTIN_FLOWS: readonly FlowDefinition[] = [
  {
    alias: BROWSER_FLOW,
    description: "Built-in browser login: username and password (or a passkey, or an identity provider), then TOTP or a passkey when the user has one, then required actions.",
    steps: [
      { type: "username-password", requirement: "ALTERNATIVE" },
      { type: "passkey", requirement: "ALTERNATIVE" },
      { type: "otp", requirement: "CONDITIONAL", condition: { type: "condition-user-configured" } },
      { type: "passkey", requirement: "CONDITIONAL", condition: { type: "condition-user-configured" } },
      { type: "required-actions", requirement: "REQUIRED" },
    ],
  },
  {
    alias: DIRECT_GRANT_FLOW,
    description: "Built-in direct grant (password grant): username and password, then the TOTP code when the user has TOTP.",
    steps: [
      { type: "username-password", requirement: "REQUIRED" },
      { type: "otp", requirement: "CONDITIONAL", condition: { type: "condition-user-configured" } },
      { type: "required-actions", requirement: "REQUIRED" },
    ],
  },
];

export function isBuiltinFlow(alias: string): boolean {
  return BUILTIN_FLOWS.some((f) => f.alias === alias);
}

/** The fixed id of a built-in flow (its alias, made a path segment). */
export function builtinFlowId(alias: string): string {
  return `builtin-${alias.replace(/\s+/g, "-")}`;
}
