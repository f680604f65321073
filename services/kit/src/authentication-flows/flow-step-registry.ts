import { PLUGIN_PREFIX } from "./flow-model.js";

/** What a step type is, for validation and for the interpreters. */
export interface StepTypeDefinition {
  /** Identifies the user (the login page's username and password, identity-first, a passkey). */
  identifies: boolean;
  /** Checks a credential (a flow must check at least one). */
  credential: boolean;
  /** A condition: used as a step's `condition`, or as a step inside a CONDITIONAL subflow. */
  condition: boolean;
  /** The config keys the step takes; required ones are listed in `required`. */
  configKeys: readonly string[];
  required?: readonly string[];
  /** Set for a type the interpreters do not run yet: a flow using it is refused (400). */
  unsupported?: string;
}

const step = (d: Partial<StepTypeDefinition>): StepTypeDefinition => ({ identifies: false, credential: false, condition: false, configKeys: [], ...d });

/**
 * Step types by name. A map rather than a closed union so an authenticator plugin can add its
 * step as `plugin:<id>` (registerStepType) without changing the validator or the interpreters'
 * dispatch.
 */
const REGISTRY = new Map<string, StepTypeDefinition>([
  ["username-password", step({ identifies: true, credential: true })],
  ["username", step({ identifies: true })],
  ["password", step({ credential: true })],
  ["otp", step({ credential: true })],
  ["recovery-code", step({ credential: true })],
  ["passkey", step({ identifies: true, credential: true })],
  ["email-otp", step({ credential: true })],
  ["idp-redirector", step({ identifies: true, credential: true, configKeys: ["alias"], required: ["alias"] })],
  ["condition-user-role", step({ condition: true, configKeys: ["role", "clientId", "negate"], required: ["role"] })],
  ["condition-user-group", step({ condition: true, configKeys: ["group", "negate"], required: ["group"] })],
  ["condition-user-attribute", step({ condition: true, configKeys: ["attribute", "value", "includeGroupAttributes", "negate"], required: ["attribute", "value"] })],
  ["condition-client", step({ condition: true, configKeys: ["clientId", "negate"], required: ["clientId"] })],
  ["condition-user-configured", step({ condition: true, configKeys: ["negate"] })],
  ["deny", step({})],
  ["required-actions", step({})],
]);

export function stepType(type: string): StepTypeDefinition | undefined {
  return REGISTRY.get(type);
}

export function stepTypeNames(): string[] {
  return [...REGISTRY.keys()];
}

/** The seam for authenticator plugins: `plugin:<id>` steps become valid once registered. */
export function registerStepType(pluginId: string, definition: StepTypeDefinition): void {
  REGISTRY.set(`${PLUGIN_PREFIX}${pluginId}`, definition);
}
