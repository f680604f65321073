import type { ResourceKind } from "./resource-page";

/** A starting point for a new flow: the usual password login, then a TOTP code when the user has one. */
const STARTER_STEPS = JSON.stringify([
  { type: "username-password", requirement: "REQUIRED" },
  { type: "otp", requirement: "ALTERNATIVE" },
], null, 2);

/**
 * Authentication flows (docs/authentication-flows.md; Keycloak's Authentication > Flows): the
 * steps edited as the JSON the Admin API takes, each refusal shown under them with the step it
 * names. The built-in flows are shown, not edited: the API refuses to change them.
 */
export const AUTHENTICATION_FLOWS: ResourceKind = {
  title: "Authentication", one: "flow", collection: "authentication/flows", key: "id", label: "alias",
  fields: [
    { name: "alias", label: "Alias", kind: "text", required: true, hint: "Realm settings and clients name the flow by it." },
    { name: "description", label: "Description", kind: "text" },
    { name: "steps", label: "Steps", kind: "json", required: true, initial: STARTER_STEPS,
      hint: "A JSON array of { type, requirement, condition?, config?, steps? }; see the documentation's step types." },
  ],
  columns: [
    { label: "Kind", cell: (r) => (r.builtIn ? "Built-in" : "Custom") },
    { label: "Steps", cell: (r) => String(Array.isArray(r.steps) ? r.steps.length : 0) },
    { label: "Description", cell: (r) => String(r.description || "—") },
  ],
  locked: (r) => (r.builtIn ? "A built-in flow cannot be changed. Copy its steps into a new flow to change them." : undefined),
};
