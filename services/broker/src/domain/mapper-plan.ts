import type { IdentityProviderRecord } from "./identity-provider.js";
import { syncModeOf, type IdpMapperRecord } from "./idp-mapper.js";
import { claimStrings, hasClaimValue } from "./claim-value.js";
import { renderUsernameTemplate } from "./username-template.js";

/** The user fields an attribute mapper may write instead of an attribute (Keycloak's UserAttributeMapper). */
export type UserField = "email" | "firstName" | "lastName";
const USER_FIELDS: Record<string, UserField> = { email: "email", firstname: "firstName", lastname: "lastName" };

/** What the first brokered login changes before it creates the user (Keycloak's preprocessFederatedIdentity). */
export interface Preprocessed {
  username?: string;
  fields: Partial<Record<UserField, string>>;
}

/** The changes the mappers make to a brokered user; applied through the directory's RPCs. */
export interface MapperPlan {
  grantRoles: string[];
  removeRoles: string[];
  joinGroups: string[];
  /** Attribute name -> its values; [] removes the attribute. */
  attributes: Record<string, string[]>;
  fields: Partial<Record<UserField, string>>;
}

/**
 * The mapper's effective sync mode (Keycloak's IdentityProviderMapperSyncModeDelegate): INHERIT
 * takes the provider's, which is FORCE when the provider syncs the profile on every login
 * (syncUserProfile, Keycloak's syncMode FORCE) and IMPORT otherwise.
 */
export function effectiveSyncMode(m: IdpMapperRecord, p: Pick<IdentityProviderRecord, "syncUserProfile">): "IMPORT" | "LEGACY" | "FORCE" {
  const mode = syncModeOf(m);
  if (mode === "INHERIT") return p.syncUserProfile ? "FORCE" : "IMPORT";
  return mode;
}

/**
 * Before the first brokered login creates the user: the username template and the attribute
 * mappers that write email, firstName or lastName replace what the upstream profile gave. The
 * template runs only here, as Keycloak's does (its updateBrokeredUser is empty).
 */
export function preprocess(mappers: IdpMapperRecord[], p: Pick<IdentityProviderRecord, "alias">, claims: Record<string, unknown>): Preprocessed {
  const out: Preprocessed = { fields: {} };
  for (const m of mappers) {
    if (m.type === "oidc-username-idp-mapper") {
      const username = renderUsernameTemplate(m.config.template ?? "", { alias: p.alias, claims });
      if (username.trim()) out.username = username;
    } else if (m.type === "oidc-user-attribute-idp-mapper") {
      const target = (m.config["user.attribute"] ?? "").toLowerCase();
      const first = claimStrings(claims, m.config.claim ?? "")[0];
      const field = USER_FIELDS[target];
      if (field && first) out.fields[field] = first;
      // The username is set at creation only: Tessera does not rename a user behind its back.
      if (target === "username" && first) out.username = first;
    }
  }
  return out;
}

/**
 * The changes of the mappers at a brokered login. `created`: the login created the user, and
 * every mapper imports (Keycloak's importNewUser, whatever its sync mode). Otherwise each mapper
 * by its effective sync mode: FORCE updates (updateBrokeredUser: a claim-to-role mapper grants
 * or removes the role as the claim now reads, attribute mappers overwrite), IMPORT does nothing,
 * LEGACY runs updateBrokeredUserLegacy, which among these types only the claim-to-role mapper
 * has: it removes the role when the claim no longer matches, and never grants it.
 */
export function planMappers(
  mappers: IdpMapperRecord[], p: Pick<IdentityProviderRecord, "syncUserProfile">, claims: Record<string, unknown>, created: boolean,
): MapperPlan {
  const plan: MapperPlan = { grantRoles: [], removeRoles: [], joinGroups: [], attributes: {}, fields: {} };
  for (const m of mappers) {
    const mode = created ? "IMPORT_NEW" : effectiveSyncMode(m, p);
    if (mode === "IMPORT") continue;
    const c = m.config;
    switch (m.type) {
      case "oidc-hardcoded-role-idp-mapper":
        if (mode !== "LEGACY") plan.grantRoles.push(c.role ?? "");
        break;
      case "oidc-hardcoded-group-idp-mapper":
        if (mode !== "LEGACY") plan.joinGroups.push(c.group ?? "");
        break;
      case "hardcoded-attribute-idp-mapper":
        if (mode !== "LEGACY") setAttribute(plan, c.attribute ?? "", c["attribute.value"] ? [c["attribute.value"]] : []);
        break;
      case "oidc-user-attribute-idp-mapper":
        // At creation, preprocess already put email and the names into the new user.
        if (mode === "LEGACY" || (c["user.attribute"] ?? "").toLowerCase() === "username") break;
        if (created && USER_FIELDS[(c["user.attribute"] ?? "").toLowerCase()]) break;
        setAttribute(plan, c["user.attribute"] ?? "", claimStrings(claims, c.claim ?? ""));
        break;
      case "oidc-role-idp-mapper": {
        const matches = hasClaimValue(claims, c.claim ?? "", c["claim.value"]);
        if (matches && mode !== "LEGACY") plan.grantRoles.push(c.role ?? "");
        else if (!matches && mode !== "IMPORT_NEW") plan.removeRoles.push(c.role ?? "");
        break;
      }
      case "oidc-username-idp-mapper":
        break;
    }
  }
  return plan;
}

/**
 * Keycloak's UserAttributeMapper.updateBrokeredUser: email, firstName and lastName are the user's
 * fields and only a non-empty value replaces them; any other name is an attribute, set to the
 * claim's values, and removed when the claim is gone.
 */
function setAttribute(plan: MapperPlan, name: string, values: string[]): void {
  const field = USER_FIELDS[name.toLowerCase()];
  if (field) {
    if (values[0]) plan.fields[field] = values[0];
    return;
  }
  if (name) plan.attributes[name] = values;
}
