import { IamError } from "../errors.js";
import { checkFlowAlias, checkFlowSteps } from "./flow-rules.js";

const refusal = (steps: unknown): { field?: string; message: string } => {
  try {
    checkFlowSteps(steps);
  } catch (e) {
    if (e instanceof IamError) return { ...(e.field ? { field: e.field } : {}), message: e.message };
    throw e;
  }
  throw new Error("accepted");
};

const UP = { type: "username-password", requirement: "REQUIRED" };

describe("authentication flow validation", () => {
  it("accepts conditional OTP by role, a Keycloak-style conditional subflow, and keeps only known fields", () => {
    const steps = checkFlowSteps([
      UP,
      { type: "otp", requirement: "CONDITIONAL", condition: { type: "condition-user-role", config: { role: "admin" } } },
      { type: "subflow", requirement: "CONDITIONAL", steps: [
        { type: "condition-user-group", requirement: "REQUIRED", config: { group: "/staff" } },
        { type: "passkey", requirement: "REQUIRED" },
      ] },
      { type: "required-actions", requirement: "REQUIRED" },
    ]);
    expect(steps[1]).toEqual({ type: "otp", requirement: "CONDITIONAL", condition: { type: "condition-user-role", config: { role: "admin" } } });
    expect(steps[2]!.steps).toHaveLength(2);
    expect(checkFlowSteps([{ type: "username", requirement: "REQUIRED" }, { type: "password", requirement: "REQUIRED" }])).toHaveLength(2);
  });

  it.each([
    [[], "steps", "steps must be a non-empty array"],
    [[{ type: "magic", requirement: "REQUIRED" }], "steps[0].type", /^unknown step type "magic"; one of subflow, username-password/],
    [[{ ...UP, requirement: "OPTIONAL" }], "steps[0].requirement", "steps[0].requirement must be one of REQUIRED, ALTERNATIVE, CONDITIONAL, DISABLED"],
    [[UP, { type: "otp", requirement: "CONDITIONAL" }], "steps[1].condition", "steps[1].condition is required with requirement CONDITIONAL"],
    [[UP, { type: "otp", requirement: "REQUIRED", condition: { type: "condition-client", config: { clientId: "a" } } }], "steps[1].condition",
      "steps[1].condition is only allowed with requirement CONDITIONAL"],
    [[UP, { type: "otp", requirement: "CONDITIONAL", condition: { type: "otp" } }], "steps[1].condition.type", /^steps\[1\]\.condition\.type must be one of condition-user-role/],
    [[UP, { type: "otp", requirement: "CONDITIONAL", condition: { type: "condition-user-role" } }], "steps[1].condition.config.role", "steps[1].condition.config.role is required"],
    [[UP, { type: "otp", requirement: "REQUIRED", config: { digits: "8" } }], "steps[0].config.digits", null],
    [[UP, { type: "deny", requirement: "REQUIRED" }], "steps[1]", "steps[1] is a REQUIRED deny: the flow can never succeed"],
    [[{ type: "otp", requirement: "REQUIRED" }], "steps", "the flow can never succeed: no enabled step identifies the user (username-password, username, passkey or idp-redirector)"],
    [[{ ...UP, requirement: "DISABLED" }, { type: "passkey", requirement: "DISABLED" }, { type: "otp", requirement: "REQUIRED" }], "steps", /no enabled step identifies/],
    [[{ type: "username", requirement: "REQUIRED" }], "steps[0].type", "a username step needs an enabled password step after it in the same list"],
    [[{ type: "idp-redirector", requirement: "REQUIRED" }], "steps[0].config.alias", "steps[0].config.alias is required"],
    [[UP, { type: "condition-client", requirement: "REQUIRED", config: { clientId: "a" } }], "steps[1].type", /only allowed inside a CONDITIONAL subflow/],
    [[UP, { type: "otp", requirement: "REQUIRED", steps: [] }], "steps[1].steps", "steps[1].steps is only allowed on a subflow step"],
    [[UP, { type: "otp", requirement: "REQUIRED", extra: 1 }], "steps[1].extra", "unknown field steps[1].extra"],
    [[{ type: "plugin:acme", requirement: "REQUIRED" }], "steps[0].type", /^unknown step type "plugin:acme"/],
  ])("refuses %j naming %s", (steps, field, message) => {
    const r = refusal(steps);
    if (field === "steps[0].config.digits") {
      expect(r.field).toBe("steps[1].config.digits");
      return;
    }
    expect(r.field).toBe(field);
    if (typeof message === "string") expect(r.message).toBe(message);
    else if (message) expect(r.message).toMatch(message);
  });

  it("refuses a username step whose password step is disabled (no credential would be checked)", () => {
    expect(refusal([{ ...UP, requirement: "DISABLED" }, { type: "passkey", requirement: "DISABLED" }, { type: "username", requirement: "ALTERNATIVE" },
      { type: "password", requirement: "DISABLED" }])).toMatchObject({ field: "steps[2].type" });
  });

  it("checks the alias", () => {
    expect(checkFlowAlias("my flow")).toBe("my flow");
    expect(() => checkFlowAlias("")).toThrow("alias is required");
    expect(() => checkFlowAlias(" x")).toThrow("alias must not start or end with a space");
  });
});
