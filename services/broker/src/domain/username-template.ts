import { randomUUID } from "node:crypto";
import { claimValue } from "./claim-value.js";

const SUBSTITUTION = /\$\{([^}]+)\}/g;

/**
 * Keycloak's UsernameTemplateMapper: `${ALIAS}` is the provider's alias, `${UUID}` a fresh id,
 * `${CLAIM.<name>}` an upstream claim (nested names as in claim-value.ts, absent = ""), and a
 * variable may end in transformers after `|` (Keycloak 22+: lowercase, uppercase, localpart, the
 * part of an email before '@'). An unknown variable stands for its own name, as in Keycloak.
 */
export function renderUsernameTemplate(template: string, at: { alias: string; claims: Record<string, unknown> }): string {
  return template.replace(SUBSTITUTION, (_m, body: string) => {
    const [variable = "", ...transformers] = body.split("|").map((s) => s.trim());
    let value: string;
    if (variable === "ALIAS") value = at.alias;
    else if (variable === "UUID") value = randomUUID();
    else if (variable.startsWith("CLAIM.")) {
      const v = claimValue(at.claims, variable.slice("CLAIM.".length));
      value = v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
    } else value = variable;
    for (const t of transformers) value = transform(t, value);
    return value;
  });
}

/** The transformers a template may name; an unknown one is refused when the mapper is saved. */
export const TEMPLATE_TRANSFORMERS = ["lowercase", "uppercase", "localpart"] as const;

function transform(name: string, value: string): string {
  switch (name) {
    case "lowercase": return value.toLowerCase();
    case "uppercase": return value.toUpperCase();
    case "localpart": {
      const at = value.lastIndexOf("@");
      return at >= 0 ? value.slice(0, at) : value;
    }
    default: return value;
  }
}

/** The transformers a template names that are not supported (empty when all are). */
export function unknownTransformers(template: string): string[] {
  const out: string[] = [];
  for (const m of template.matchAll(SUBSTITUTION)) {
    for (const t of (m[1] ?? "").split("|").slice(1).map((s) => s.trim())) {
      if (!(TEMPLATE_TRANSFORMERS as readonly string[]).includes(t)) out.push(t);
    }
  }
  return out;
}
