import { randomUUID } from "node:crypto";

import type { Note } from "./keycloak-clients.js";

type Json = Record<string, any>;

/**
 * The Keycloak mapper types Tessera's broker runs and the config keys each reads (Keycloak's
 * HardcodedRoleMapper, HardcodedAttributeMapper, HardcodedGroupMapper, UserAttributeMapper,
 * ClaimToRoleMapper, UsernameTemplateMapper); syncMode is every type's.
 */
const SUPPORTED: Readonly<Record<string, readonly string[]>> = {
  "oidc-hardcoded-role-idp-mapper": ["role"],
  "hardcoded-attribute-idp-mapper": ["attribute", "attribute.value"],
  "oidc-hardcoded-group-idp-mapper": ["group"],
  "oidc-user-attribute-idp-mapper": ["claim", "user.attribute"],
  "oidc-role-idp-mapper": ["claim", "claim.value", "role"],
  "oidc-username-idp-mapper": ["template"],
};
/** The keys without which a mapper does nothing (Keycloak skips it): such a mapper is reported, not carried. */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  "oidc-hardcoded-role-idp-mapper": ["role"],
  "hardcoded-attribute-idp-mapper": ["attribute"],
  "oidc-hardcoded-group-idp-mapper": ["group"],
  "oidc-user-attribute-idp-mapper": ["claim", "user.attribute"],
  "oidc-role-idp-mapper": ["claim", "role"],
  "oidc-username-idp-mapper": ["template"],
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Keycloak's `identityProviderMappers` as the document's: the supported types of providers that
 * were carried over, their config as strings; any other mapper is reported with its path, and a
 * config key Tessera does not read is dropped and reported.
 */
export function identityProviderMappers(kc: Json, aliases: Set<string>, note: Note): Json[] {
  const out: Json[] = [];
  (kc.identityProviderMappers ?? []).forEach((m: Json, i: number) => {
    const p = `$.identityProviderMappers[${i}]`;
    const keys = SUPPORTED[String(m.identityProviderMapper)];
    if (!keys) {
      note(p, `identity provider mapper "${m.name}" (${m.identityProviderMapper}) has no equivalent`);
      return;
    }
    if (!aliases.has(String(m.identityProviderAlias))) {
      note(p, `identity provider mapper "${m.name}" belongs to "${m.identityProviderAlias}", which is not carried over`);
      return;
    }
    const target = (m.config ?? {}).target;
    if (m.identityProviderMapper === "oidc-username-idp-mapper" && target !== undefined && target !== "LOCAL") {
      // Keycloak 22+'s target BROKER_ID / BROKER_USERNAME templates the link, not the local username.
      note(`${p}.config.target`, `identity provider mapper "${m.name}": target "${target}" has no equivalent (Tessera templates the local username)`);
      return;
    }
    const config: Record<string, string> = {};
    for (const [k, v] of Object.entries((m.config ?? {}) as Json)) {
      if (k === "target") continue;
      if (k !== "syncMode" && !keys.includes(k)) {
        note(`${p}.config["${k}"]`, `mapper setting "${k}" has no equivalent`);
        continue;
      }
      config[k] = typeof v === "string" ? v : JSON.stringify(v);
    }
    const missing = (REQUIRED[String(m.identityProviderMapper)] ?? []).filter((k) => !config[k]?.trim());
    if (missing.length) {
      note(p, `identity provider mapper "${m.name}" is not carried over: config "${missing.join('", "')}" is empty`);
      return;
    }
    out.push({
      id: typeof m.id === "string" && UUID.test(m.id) ? m.id : randomUUID(), name: String(m.name ?? ""),
      identityProviderAlias: String(m.identityProviderAlias), identityProviderMapper: String(m.identityProviderMapper), config,
    });
  });
  return out;
}
