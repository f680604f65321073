import { randomUUID } from "node:crypto";
import { IamError } from "../../../../services/kit/src/errors.js";
import { checkFlowAlias, checkFlowDescription, checkFlowSteps } from "../../../../services/kit/src/authentication-flows/flow-rules.js";
import type { Note } from "./keycloak-clients.js";

type Json = Record<string, any>;

/** Keycloak authenticators and the Tessera step each becomes (docs/authentication-flows.md). */
const STEPS: Record<string, string> = {
  "auth-username-password-form": "username-password",
  "auth-username-form": "username",
  "auth-password-form": "password",
  "direct-grant-validate-username": "username",
  "direct-grant-validate-password": "password",
  "auth-otp-form": "otp",
  "direct-grant-validate-otp": "otp",
  "auth-recovery-authn-code-form": "recovery-code",
  "webauthn-authenticator": "passkey",
  "webauthn-authenticator-passwordless": "passkey",
  "deny-access-authenticator": "deny",
  "identity-provider-redirector": "idp-redirector",
  "conditional-user-role": "condition-user-role",
  "conditional-user-attribute": "condition-user-attribute",
  "conditional-user-configured": "condition-user-configured",
};

/** Keycloak's own flows: Tessera has built-in flows (or fixed pages) for what these do. */
const KEYCLOAK_BUILTIN_ALIASES: Record<string, string> = {
  browserFlow: "browser", directGrantFlow: "direct grant", registrationFlow: "registration",
  resetCredentialsFlow: "reset credentials", clientAuthenticationFlow: "clients",
  dockerAuthenticationFlow: "docker auth", firstBrokerLoginFlow: "first broker login",
};

/** The realm fields naming a flow; only the first two choose a flow in Tessera. */
export const FLOW_BINDINGS = Object.keys(KEYCLOAK_BUILTIN_ALIASES);

/** A flow that cannot be carried over: why, at which path. */
class Unmapped extends Error {
  constructor(readonly path: string, message: string) {
    super(message);
  }
}

export interface ConvertedFlows {
  /** Tessera flows, each checked with the Admin API's rules. */
  flows: Json[];
  /** Keycloak flow id -> the alias of the Tessera flow it became. */
  aliasById: Map<string, string>;
}

/**
 * Keycloak's custom top-level flows (`authenticationFlows`, `topLevel`, not `builtIn`) as Tessera
 * flows: executions become steps by authenticator, sub-flows become `subflow` steps, condition
 * executions keep Keycloak's layout (conditions first in a CONDITIONAL sub-flow, which Tessera
 * runs the same way), and `authenticatorConfig` becomes each step's config. A flow with an
 * authenticator Tessera has no step for, or that breaks Tessera's flow rules, is reported and left
 * out whole: a partial login flow would ask less of users than the original. `auth-cookie` goes
 * (Tessera's pages always honour the SSO session), as does an identity-provider redirector without
 * a default provider (Tessera always honours `kc_idp_hint`).
 */
export function convertFlows(kc: Json, clientIds: ReadonlySet<string>, note: Note): ConvertedFlows {
  const all: Json[] = kc.authenticationFlows ?? [];
  const byAlias = new Map(all.map((f) => [String(f.alias), f]));
  const configs = new Map(((kc.authenticatorConfig ?? []) as Json[]).map((c) => [String(c.alias), (c.config ?? {}) as Record<string, string>]));
  const flows: Json[] = [];
  const aliasById = new Map<string, string>();
  all.forEach((f, i) => {
    const path = `$.authenticationFlows[${i}]`;
    if (f.topLevel !== true || f.builtIn === true) return;
    if ((f.providerId ?? "basic-flow") !== "basic-flow") {
      note(path, `authentication flow "${f.alias}" is a ${f.providerId} (client authentication): Tessera authenticates clients by their settings, not by a flow`);
      return;
    }
    try {
      const alias = checkFlowAlias(f.alias);
      const description = checkFlowDescription(String(f.description ?? ""));
      const steps = convertList(f, path, 1);
      checkFlowSteps(steps);
      const id = typeof f.id === "string" ? f.id : randomUUID();
      flows.push({ id, alias, description, steps });
      aliasById.set(id, alias);
    } catch (e) {
      if (e instanceof Unmapped) note(e.path, `authentication flow "${f.alias}" is not carried over: ${e.message}`);
      else if (e instanceof IamError) note(path, `authentication flow "${f.alias}" is not carried over: as converted, ${e.message}`);
      else throw e;
    }
  });
  return { flows, aliasById };

  function convertList(flow: Json, path: string, depth: number): Json[] {
    const executions = [...((flow.authenticationExecutions ?? []) as Json[])].sort((a, b) => Number(a.priority ?? 0) - Number(b.priority ?? 0));
    const steps: Json[] = [];
    executions.forEach((x, j) => {
      const p = `${path}.authenticationExecutions[${j}]`;
      const requirement = String(x.requirement ?? "DISABLED");
      if (x.authenticatorFlow === true) {
        const sub = byAlias.get(String(x.flowAlias));
        if (!sub) throw new Unmapped(p, `its sub-flow "${x.flowAlias}" is not in the document`);
        if ((sub.providerId ?? "basic-flow") !== "basic-flow") throw new Unmapped(p, `its sub-flow "${x.flowAlias}" is a ${sub.providerId} (a registration form)`);
        if (depth >= 4) throw new Unmapped(p, "its sub-flows nest deeper than Tessera's 4 levels");
        const subIndex = all.indexOf(sub);
        steps.push({ type: "subflow", requirement, steps: convertList(sub, `$.authenticationFlows[${subIndex}]`, depth + 1) });
        return;
      }
      const authenticator = String(x.authenticator ?? "");
      const config = typeof x.authenticatorConfig === "string" ? configs.get(x.authenticatorConfig) ?? {} : {};
      if (authenticator === "auth-cookie") return;
      if (authenticator === "identity-provider-redirector" && !config.defaultProvider) return;
      const type = STEPS[authenticator];
      if (!type) {
        // A switched-off step does nothing in Keycloak either (its default browser flow has a DISABLED Kerberos step).
        if (requirement === "DISABLED") return;
        throw new Unmapped(p, `authenticator "${authenticator}" has no equivalent step`);
      }
      const stepConfig = convertConfig(authenticator, config, p);
      steps.push({ type, requirement, ...(Object.keys(stepConfig).length ? { config: stepConfig } : {}) });
    });
    if (steps.length === 0) throw new Unmapped(path, `flow "${flow.alias}" has no step Tessera runs`);
    return steps;
  }

  function convertConfig(authenticator: string, c: Record<string, string>, path: string): Record<string, string> {
    const negate = (value: string | undefined): Record<string, string> => (value === "true" ? { negate: "true" } : {});
    switch (authenticator) {
      case "identity-provider-redirector":
        return { alias: String(c.defaultProvider) };
      case "conditional-user-role": {
        const role = String(c.condUserRole ?? "");
        if (!role) throw new Unmapped(path, "its role condition names no role");
        // Keycloak's "clientId.role" names a client role when such a client exists, else a realm role.
        const client = [...clientIds].filter((id) => role.startsWith(`${id}.`)).sort((a, b) => b.length - a.length)[0];
        return { ...(client ? { role: role.slice(client.length + 1), clientId: client } : { role }), ...negate(c.negate) };
      }
      case "conditional-user-attribute":
        if (c.regex === "true") throw new Unmapped(path, "its attribute condition matches a regular expression, which Tessera's compares exactly");
        if (!c.attribute_name) throw new Unmapped(path, "its attribute condition names no attribute");
        return {
          attribute: String(c.attribute_name), value: String(c.attribute_expected_value ?? ""),
          ...(c.include_group_attributes === "true" ? { includeGroupAttributes: "true" } : {}), ...negate(c.not),
        };
      case "conditional-user-configured":
        return negate(c.negate);
      case "deny-access-authenticator":
        if (c.denyErrorMessage) note(path, `the deny step's message "${c.denyErrorMessage}" is not carried over: Tessera shows "Access denied."`);
        return {};
      default:
        return {};
    }
  }
}

/**
 * The realm's flow bindings: `browserFlow` and `directGrantFlow` name the converted flow, or stay
 * Tessera's built-in for Keycloak's own; the other bindings (registration, reset credentials,
 * first broker login...) are fixed pages in Tessera, so only a custom one is reported.
 */
export function flowBindings(kc: Json, converted: ConvertedFlows, note: Note): { browserFlow?: string; directGrantFlow?: string } {
  const out: { browserFlow?: string; directGrantFlow?: string } = {};
  const converted_ = new Set(converted.aliasById.values());
  for (const field of FLOW_BINDINGS) {
    const alias = kc[field];
    if (typeof alias !== "string" || alias === "" || alias === KEYCLOAK_BUILTIN_ALIASES[field]) continue;
    if ((field === "browserFlow" || field === "directGrantFlow") && converted_.has(alias)) out[field] = alias;
    else if (field === "browserFlow" || field === "directGrantFlow") note(`$.${field}`, `flow "${alias}" is not carried over: the realm keeps Tessera's built-in "${KEYCLOAK_BUILTIN_ALIASES[field]}" flow`);
    else note(`$.${field}`, `"${field}" ("${alias}") has no equivalent: Tessera's ${KEYCLOAK_BUILTIN_ALIASES[field]} is built in`);
  }
  return out;
}

/** A client's `authenticationFlowBindingOverrides` (flow ids) as Tessera's overrides (aliases). */
export function clientFlowOverrides(c: Json, path: string, converted: ConvertedFlows, note: Note): { browserFlowOverride?: string; directGrantFlowOverride?: string } {
  const out: { browserFlowOverride?: string; directGrantFlowOverride?: string } = {};
  for (const [binding, value] of Object.entries((c.authenticationFlowBindingOverrides ?? {}) as Record<string, unknown>)) {
    if (typeof value !== "string" || value === "") continue;
    const alias = converted.aliasById.get(value);
    const field = binding === "browser" ? "browserFlowOverride" : binding === "direct_grant" ? "directGrantFlowOverride" : undefined;
    if (field && alias) out[field] = alias;
    else note(`${path}.authenticationFlowBindingOverrides.${binding}`, field ? `the overriding flow ("${value}") is not carried over: the client follows the realm's` : `the "${binding}" override has no equivalent`);
  }
  return out;
}
