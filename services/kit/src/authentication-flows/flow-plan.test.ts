import { conditionKey, conditionsOf, planFlow, type PlanFacts } from "./flow-plan.js";
import type { FlowStep } from "./flow-model.js";
import { registerStepType } from "./flow-step-registry.js";

const UP: FlowStep = { type: "username-password", requirement: "REQUIRED" };
const ROLE_OTP: FlowStep = { type: "otp", requirement: "CONDITIONAL", condition: { type: "condition-user-role", config: { role: "admin" } } };

function facts(over: Partial<PlanFacts> & { roles?: string[] } = {}): PlanFacts {
  const roles = new Set(over.roles ?? []);
  return {
    identifiedBy: "pwd", otpConfigured: false, passkeyConfigured: false,
    holds: (c) => c.type === "condition-user-role" && roles.has(c.config?.role ?? ""),
    ...over,
  };
}

describe("authentication flow plan", () => {
  it("asks the code of a conditional OTP step only when the role is held, whatever the user has configured", () => {
    expect(planFlow([UP, ROLE_OTP], facts({ roles: ["admin"] }))).toEqual({ otp: true, passkey: false, emailOtp: false, deny: false, methodRefused: false, plugins: [], requiredActions: true });
    expect(planFlow([UP, ROLE_OTP], facts({ otpConfigured: true })).otp).toBe(false);
    expect(planFlow([UP, { ...ROLE_OTP, condition: { type: "condition-user-role", config: { role: "admin", negate: "true" } } }], facts({ otpConfigured: true })).otp).toBe(true);
  });

  it("runs REQUIRED steps, skips DISABLED ones, and takes one ALTERNATIVE only when a level has no REQUIRED step", () => {
    expect(planFlow([UP, { type: "otp", requirement: "DISABLED" }], facts()).otp).toBe(false);
    expect(planFlow([UP, { type: "deny", requirement: "REQUIRED" }], facts()).deny).toBe(true);
    const alternatives: FlowStep[] = [UP, { type: "subflow", requirement: "REQUIRED", steps: [
      { type: "otp", requirement: "ALTERNATIVE" }, { type: "passkey", requirement: "ALTERNATIVE" },
    ] }];
    expect(planFlow(alternatives, facts())).toMatchObject({ otp: true, passkey: false });
    expect(planFlow(alternatives, facts({ passkeyConfigured: true }))).toMatchObject({ otp: false, passkey: true });
    // ALTERNATIVE next to REQUIRED at the same level is ignored (Keycloak).
    expect(planFlow([UP, { type: "otp", requirement: "ALTERNATIVE" }], facts()).otp).toBe(false);
  });

  it("treats a conditional subflow with condition steps as Keycloak does, and user-configured from the facts", () => {
    const flow: FlowStep[] = [UP, { type: "subflow", requirement: "CONDITIONAL", steps: [
      { type: "condition-user-role", requirement: "REQUIRED", config: { role: "admin" } }, { type: "deny", requirement: "REQUIRED" },
    ] }];
    expect(planFlow(flow, facts({ roles: ["admin"] })).deny).toBe(true);
    expect(planFlow(flow, facts()).deny).toBe(false);
    const configured: FlowStep[] = [UP, { type: "otp", requirement: "CONDITIONAL", condition: { type: "condition-user-configured" } }];
    expect(planFlow(configured, facts({ otpConfigured: true })).otp).toBe(true);
    expect(planFlow(configured, facts()).otp).toBe(false);
    expect(conditionsOf(flow).map(conditionKey)).toEqual([conditionKey({ type: "condition-user-role", config: { role: "admin" } })]);
    expect(conditionsOf(configured)).toEqual([]);
  });

  it("refuses a password step after a passkey identification, and lets a disabled required-actions step skip them", () => {
    expect(planFlow([UP, ROLE_OTP], facts({ identifiedBy: "hwk" })).methodRefused).toBe(true);
    expect(planFlow([{ type: "username-password", requirement: "ALTERNATIVE" }, { type: "passkey", requirement: "ALTERNATIVE" }], facts({ identifiedBy: "hwk" })).methodRefused).toBe(false);
    expect(planFlow([UP, { type: "required-actions", requirement: "DISABLED" }], facts()).requiredActions).toBe(false);
    expect(planFlow([UP], facts({ identifiedBy: "fed" }))).toMatchObject({ otp: false, methodRefused: false, requiredActions: true });
  });

  it("owes a loaded plugin's steps in flow order with their config, and denies a step whose plugin is not loaded", () => {
    registerStepType("probe", { identifies: false, credential: true, condition: false, configKeys: ["question"] });
    const ask = (q: string, requirement: FlowStep["requirement"] = "REQUIRED"): FlowStep => ({ type: "plugin:probe", requirement, config: { question: q } });
    expect(planFlow([UP, ask("a"), ROLE_OTP, ask("b")], facts())).toMatchObject({
      deny: false, otp: false, plugins: [{ type: "plugin:probe", config: { question: "a" } }, { type: "plugin:probe", config: { question: "b" } }],
    });
    expect(planFlow([UP, { ...ask("c", "CONDITIONAL"), condition: { type: "condition-user-role", config: { role: "admin" } } }], facts()).plugins).toEqual([]);
    expect(planFlow([UP, { ...ask("c", "CONDITIONAL"), condition: { type: "condition-user-role", config: { role: "admin" } } }], facts({ roles: ["admin"] })).plugins)
      .toEqual([{ type: "plugin:probe", config: { question: "c" } }]);
    expect(planFlow([UP, ask("d", "DISABLED")], facts()).plugins).toEqual([]);
    expect(planFlow([UP, { type: "plugin:absent", requirement: "REQUIRED" }], facts())).toMatchObject({ deny: true, plugins: [] });
  });
});
