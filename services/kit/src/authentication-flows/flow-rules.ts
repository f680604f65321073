import { IamError } from "../errors.js";
import { REQUIREMENTS, SUBFLOW, type FlowCondition, type FlowStep, type Requirement } from "./flow-model.js";
import { stepType, stepTypeNames } from "./flow-step-registry.js";

/*
 * The Admin API's rules for a flow. In kit, not in the directory's domain, because the gateway's
 * Keycloak import checks the flows it converts with them too: a converted flow that breaks them is
 * reported and left out rather than failing the whole import.
 */

export const MAX_STEPS = 50;
export const MAX_DEPTH = 4;
const STEP_FIELDS = new Set(["type", "requirement", "condition", "config", "steps"]);
const CONDITION_FIELDS = new Set(["type", "config"]);

export function checkFlowAlias(alias: unknown): string {
  if (typeof alias !== "string" || alias.trim() === "") throw IamError.invalid("alias", "alias is required");
  if (alias !== alias.trim()) throw IamError.invalid("alias", "alias must not start or end with a space");
  if (alias.length > 255) throw IamError.invalid("alias", "alias must be at most 255 characters");
  return alias;
}

export function checkFlowDescription(description: unknown): string {
  if (typeof description !== "string") throw IamError.invalid("description", "description must be a string");
  if (description.length > 1024) throw IamError.invalid("description", "description must be at most 1024 characters");
  return description;
}

/**
 * A flow's steps as the Admin API sends them, checked field by field (a 400 names the path, e.g.
 * `steps[1].condition.type`), then as a whole: a flow that can never succeed (a REQUIRED deny on
 * every path, no step that identifies the user) or that checks no credential is refused.
 */
export function checkFlowSteps(value: unknown): FlowStep[] {
  if (!Array.isArray(value) || value.length === 0) throw IamError.invalid("steps", "steps must be a non-empty array");
  let count = 0;
  const steps = checkList(value, "steps", 1, null, () => ++count);
  if (count > MAX_STEPS) throw IamError.invalid("steps", `a flow has at most ${MAX_STEPS} steps`);
  const deny = requiredDeny(steps, "steps");
  if (deny) throw IamError.invalid(deny, `${deny} is a REQUIRED deny: the flow can never succeed`);
  if (!identifies(steps)) {
    throw IamError.invalid("steps", "the flow can never succeed: no enabled step identifies the user (username-password, username, passkey or idp-redirector)");
  }
  if (!checksCredential(steps)) throw IamError.invalid("steps", "the flow skips every credential step (username-password, password, otp, recovery-code or passkey)");
  return steps;
}

function checkList(value: unknown[], path: string, depth: number, parent: Requirement | null, counted: () => number): FlowStep[] {
  if (depth > MAX_DEPTH) throw IamError.invalid(path, `sub-flows nest at most ${MAX_DEPTH} levels`);
  const steps = value.map((v, i) => checkStep(v, `${path}[${i}]`, depth, parent, counted));
  steps.forEach((s, i) => {
    const p = `${path}[${i}]`;
    if (s.type === "username" && s.requirement !== "DISABLED" && !steps.slice(i + 1).some((n) => n.type === "password" && n.requirement !== "DISABLED")) {
      throw IamError.invalid(`${p}.type`, "a username step needs an enabled password step after it in the same list");
    }
    if (s.type === "password" && s.requirement !== "DISABLED" && !steps.slice(0, i).some((n) => n.type === "username" && n.requirement !== "DISABLED")) {
      throw IamError.invalid(`${p}.type`, "a password step needs an enabled username step before it in the same list");
    }
  });
  return steps;
}

function checkStep(value: unknown, path: string, depth: number, parent: Requirement | null, counted: () => number): FlowStep {
  counted();
  const obj = object(value, path);
  for (const key of Object.keys(obj)) if (!STEP_FIELDS.has(key)) throw IamError.invalid(`${path}.${key}`, `unknown field ${path}.${key}`);
  const type = obj.type;
  if (typeof type !== "string" || type === "") throw IamError.invalid(`${path}.type`, `${path}.type is required`);
  const def = type === SUBFLOW ? undefined : stepType(type);
  if (type !== SUBFLOW && !def) {
    throw IamError.invalid(`${path}.type`, `unknown step type "${type}"; one of ${[SUBFLOW, ...stepTypeNames()].join(", ")}`);
  }
  if (def?.unsupported) throw IamError.invalid(`${path}.type`, def.unsupported);
  const requirement = obj.requirement;
  if (typeof requirement !== "string" || !(REQUIREMENTS as readonly string[]).includes(requirement)) {
    throw IamError.invalid(`${path}.requirement`, `${path}.requirement must be one of ${REQUIREMENTS.join(", ")}`);
  }
  const req = requirement as Requirement;
  const step: FlowStep = { type, requirement: req };
  if (def?.condition) {
    // Keycloak's layout: conditions are steps of a CONDITIONAL sub-flow, and decide whether it runs.
    if (parent !== "CONDITIONAL") throw IamError.invalid(`${path}.type`, `${type} is only allowed inside a CONDITIONAL subflow (or as a step's condition)`);
    if (req !== "REQUIRED" && req !== "DISABLED") throw IamError.invalid(`${path}.requirement`, "a condition step is REQUIRED or DISABLED");
  }
  if (obj.condition !== undefined) {
    if (req !== "CONDITIONAL") throw IamError.invalid(`${path}.condition`, `${path}.condition is only allowed with requirement CONDITIONAL`);
    step.condition = checkCondition(obj.condition, `${path}.condition`);
  }
  if (obj.config !== undefined) step.config = checkConfig(obj.config, `${path}.config`, def?.configKeys ?? []);
  for (const key of def?.required ?? []) {
    if (!step.config?.[key]) throw IamError.invalid(`${path}.config.${key}`, `${path}.config.${key} is required`);
  }
  if (type === SUBFLOW) {
    if (!Array.isArray(obj.steps) || obj.steps.length === 0) throw IamError.invalid(`${path}.steps`, `${path}.steps must be a non-empty array`);
    step.steps = checkList(obj.steps, `${path}.steps`, depth + 1, req, counted);
    if (step.steps.every((s) => stepType(s.type)?.condition)) throw IamError.invalid(`${path}.steps`, `${path}.steps holds only conditions`);
  } else if (obj.steps !== undefined) {
    throw IamError.invalid(`${path}.steps`, `${path}.steps is only allowed on a ${SUBFLOW} step`);
  }
  if (req === "CONDITIONAL" && !step.condition) {
    const inner = (step.steps ?? []).some((s) => stepType(s.type)?.condition && s.requirement !== "DISABLED");
    if (!inner) throw IamError.invalid(`${path}.condition`, `${path}.condition is required with requirement CONDITIONAL`);
  }
  return step;
}

function checkCondition(value: unknown, path: string): FlowCondition {
  const obj = object(value, path);
  for (const key of Object.keys(obj)) if (!CONDITION_FIELDS.has(key)) throw IamError.invalid(`${path}.${key}`, `unknown field ${path}.${key}`);
  const type = obj.type;
  const def = typeof type === "string" ? stepType(type) : undefined;
  if (typeof type !== "string" || !def?.condition) {
    const names = stepTypeNames().filter((n) => stepType(n)?.condition);
    throw IamError.invalid(`${path}.type`, `${path}.type must be one of ${names.join(", ")}`);
  }
  const condition: FlowCondition = { type };
  if (obj.config !== undefined) condition.config = checkConfig(obj.config, `${path}.config`, def.configKeys);
  for (const key of def.required ?? []) {
    if (!condition.config?.[key]) throw IamError.invalid(`${path}.config.${key}`, `${path}.config.${key} is required`);
  }
  return condition;
}

function checkConfig(value: unknown, path: string, keys: readonly string[]): Record<string, string> {
  const obj = object(value, path);
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(obj)) {
    if (!keys.includes(key)) throw IamError.invalid(`${path}.${key}`, `unknown config key ${path}.${key}${keys.length ? `; allowed: ${keys.join(", ")}` : ""}`);
    if (typeof v !== "string" || v.length > 255) throw IamError.invalid(`${path}.${key}`, `${path}.${key} must be a string of at most 255 characters`);
    if ((key === "negate" || key === "includeGroupAttributes") && v !== "true" && v !== "false") throw IamError.invalid(`${path}.${key}`, `${path}.${key} must be "true" or "false"`);
    out[key] = v;
  }
  return out;
}

function object(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw IamError.invalid(path, `${path} must be an object`);
  return value as Record<string, unknown>;
}

/** The path of a deny every login reaches: REQUIRED at this level, or inside a REQUIRED subflow. */
function requiredDeny(steps: FlowStep[], path: string): string | null {
  for (const [i, s] of steps.entries()) {
    if (s.requirement !== "REQUIRED") continue;
    if (s.type === "deny") return `${path}[${i}]`;
    if (s.type === SUBFLOW) {
      const inner = requiredDeny(s.steps ?? [], `${path}[${i}].steps`);
      if (inner) return inner;
    }
  }
  const alternatives = steps.filter((s) => s.requirement === "ALTERNATIVE");
  if (!steps.some((s) => s.requirement === "REQUIRED") && alternatives.length > 0 && alternatives.every((s) => s.type === "deny")) return path;
  return null;
}

/** An enabled identifying step at the top level, or in a top-level REQUIRED or ALTERNATIVE subflow. */
function identifies(steps: FlowStep[]): boolean {
  return steps.some((s) => (s.requirement === "REQUIRED" || s.requirement === "ALTERNATIVE")
    && (stepType(s.type)?.identifies || (s.type === SUBFLOW && identifies(s.steps ?? []))));
}

function checksCredential(steps: FlowStep[]): boolean {
  return steps.some((s) => s.requirement !== "DISABLED" && (stepType(s.type)?.credential || (s.type === SUBFLOW && checksCredential(s.steps ?? []))));
}
