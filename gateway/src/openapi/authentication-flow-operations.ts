import { PAGE, arrayOf, json, noContent, type Answer, type Operation } from "./operation.js";
import type { JsonSchema } from "./proto-schema.js";

const F = "/admin/realms/:realmName/authentication/flows";
const ID = { flowId: "The flow's id (`builtin-browser` and `builtin-direct-grant` for the built-in flows)." };
const str = { type: "string" };
const CONFIG: JsonSchema = { type: "object", additionalProperties: str, description: "String settings of the step or condition (e.g. `role`, `group`, `attribute` and `value`, `clientId`, `negate`)." };
const REQUIREMENT: JsonSchema = { enum: ["REQUIRED", "ALTERNATIVE", "CONDITIONAL", "DISABLED"] };
const CONDITION: JsonSchema = {
  type: "object", additionalProperties: false, required: ["type"],
  properties: {
    type: { enum: ["condition-user-role", "condition-user-group", "condition-user-attribute", "condition-client", "condition-user-configured"] },
    config: CONFIG,
  },
};
const stepProps = (nested: JsonSchema): Record<string, JsonSchema> => ({
  type: { ...str, description: "`username-password`, `username`, `password`, `otp`, `recovery-code`, `passkey`, `email-otp`, `idp-redirector` (config `alias`), `deny`, `required-actions`, a `condition-*` type (inside a CONDITIONAL subflow), `subflow`, or `plugin:<id>` once a plugin registers it." },
  requirement: REQUIREMENT,
  condition: { ...CONDITION, description: "Only with requirement CONDITIONAL: the step runs only when it holds." },
  config: CONFIG,
  steps: { type: "array", items: nested, description: "Only on a `subflow` step: its own steps, one level of Keycloak's sub-flows." },
});
/** Sub-flows nest (at most four levels); below the first, a step is described loosely. */
const INNER_STEP: JsonSchema = { type: "object", required: ["type", "requirement"], properties: { type: str, requirement: REQUIREMENT } };
const STEP: JsonSchema = { type: "object", additionalProperties: false, required: ["type", "requirement"], properties: stepProps(INNER_STEP) };

const FLOW: JsonSchema = {
  type: "object", additionalProperties: false, required: ["id", "alias", "description", "builtIn", "steps"],
  properties: {
    id: str, alias: str, description: str,
    builtIn: { type: "boolean", description: "A built-in flow (today's fixed login): listed, neither changed nor deleted." },
    steps: arrayOf(STEP),
    createdAt: { type: "string", format: "date-time" }, updatedAt: { type: "string", format: "date-time" },
  },
};

/** The create and update body: on update only the fields sent change; the read-only fields are accepted back and ignored. */
const FLOW_INPUT: JsonSchema = {
  type: "object", additionalProperties: false,
  properties: {
    alias: { ...str, description: "Unique in the realm; the realm's `browserFlow`/`directGrantFlow` and clients' overrides name the flow by it." },
    description: str,
    steps: { ...arrayOf(STEP), minItems: 1 },
    id: { ...str, description: "Read-only; ignored." }, builtIn: { description: "Read-only; ignored." },
    createdAt: { description: "Read-only; ignored." }, updatedAt: { description: "Read-only; ignored." },
  },
};

/** Authentication flows of a realm (docs/authentication-flows.md). */
export function authenticationFlowOperations(): Operation[] {
  const op = (o: Omit<Operation, "auth" | "tag">): Operation => ({ auth: "admin", tag: "Authentication flows", ...o });
  const error = { $ref: "#/components/schemas/Error" };
  const invalid: Answer = json("A field is not valid (`field` names it, e.g. `steps[1].condition`): an unknown type or requirement, CONDITIONAL without a condition, a flow that can never succeed or checks no credential, or a built-in flow.", error);
  const notFound = json("The realm or the flow does not exist (`realm_not_found`, `flow_not_found`).", error);
  return [
    op({ id: "createAuthenticationFlow", method: "POST", path: F, summary: "Create an authentication flow",
      body: { schema: { ...FLOW_INPUT, required: ["alias", "steps"] }, required: true },
      responses: {
        201: { ...json("The flow.", FLOW), headers: { Location: "`/admin/realms/{realmName}/authentication/flows/{id}` (a relative reference)." } },
        400: invalid, 409: json("The alias is taken in the realm.", error),
      } }),
    op({ id: "listAuthenticationFlows", method: "GET", path: F, summary: "List authentication flows", query: PAGE,
      description: "The built-in flows first, then the realm's in alias order; `max` defaults to 100, at most 1000.",
      responses: { 200: json("Flows.", arrayOf(FLOW)) } }),
    op({ id: "getAuthenticationFlow", method: "GET", path: `${F}/:flowId`, pathParams: ID, summary: "Get an authentication flow",
      responses: { 200: json("The flow.", FLOW), 404: notFound } }),
    op({ id: "updateAuthenticationFlow", method: "PUT", path: `${F}/:flowId`, pathParams: ID, summary: "Update an authentication flow (the fields sent)",
      body: { schema: FLOW_INPUT, required: true },
      responses: {
        200: json("The flow.", FLOW), 400: invalid, 404: notFound,
        409: json("The new alias is taken, or the flow is in use and its alias cannot change (`flow_in_use`).", error),
      } }),
    op({ id: "deleteAuthenticationFlow", method: "DELETE", path: `${F}/:flowId`, pathParams: ID, summary: "Delete an authentication flow",
      responses: {
        204: noContent(), 400: invalid, 404: notFound,
        409: json("The realm or a client uses the flow (`flow_in_use`; the message names them).", error),
      } }),
  ];
}
