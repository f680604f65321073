import type { IdpMapperRecord, MapperTypeId } from "./idp-mapper.js";
import { effectiveSyncMode, planMappers, preprocess } from "./mapper-plan.js";

let n = 0;
const mapper = (type: MapperTypeId, config: Record<string, string>): IdpMapperRecord =>
  ({ _id: `m${++n}`, realmId: "r", alias: "up", name: `m${n}`, type, config, createdAt: n });

describe("identity provider mappers at a brokered login", () => {
  const claimRole = (syncMode: string) => mapper("oidc-role-idp-mapper", { claim: "groups", "claim.value": "admins", role: "admin", syncMode });
  const attr = (syncMode: string) => mapper("oidc-user-attribute-idp-mapper", { claim: "dept", "user.attribute": "department", syncMode });
  const hardRole = (syncMode: string) => mapper("oidc-hardcoded-role-idp-mapper", { role: "app.user", syncMode });
  const empty = { grantRoles: [], removeRoles: [], joinGroups: [], attributes: {}, fields: {} };

  it("INHERIT follows the provider: FORCE when it syncs the profile, else IMPORT", () => {
    expect(effectiveSyncMode(attr("INHERIT"), { syncUserProfile: true })).toBe("FORCE");
    expect(effectiveSyncMode(attr("INHERIT"), { syncUserProfile: false })).toBe("IMPORT");
    expect(effectiveSyncMode(attr("LEGACY"), { syncUserProfile: true })).toBe("LEGACY");
  });

  it("imports every mapper when the login creates the user, whatever its sync mode", () => {
    const mappers = [claimRole("IMPORT"), attr("FORCE"), hardRole("LEGACY"), mapper("oidc-hardcoded-group-idp-mapper", { group: "/staff", syncMode: "INHERIT" }),
      mapper("hardcoded-attribute-idp-mapper", { attribute: "tier", "attribute.value": "gold", syncMode: "IMPORT" })];
    expect(planMappers(mappers, { syncUserProfile: false }, { groups: ["admins", "x"], dept: "R&D" }, true)).toEqual({
      grantRoles: ["admin", "app.user"], removeRoles: [], joinGroups: ["/staff"], attributes: { department: ["R&D"], tier: ["gold"] }, fields: {},
    });
    // A claim that does not match grants nothing, and removes nothing from a new user.
    expect(planMappers([claimRole("FORCE")], { syncUserProfile: false }, { groups: "users" }, true)).toEqual(empty);
  });

  it("FORCE grants or removes the claim's role and overwrites attributes at each later login", () => {
    const mappers = [claimRole("FORCE"), attr("FORCE"), hardRole("FORCE")];
    expect(planMappers(mappers, { syncUserProfile: false }, { groups: ["admins"], dept: "Sales" }, false))
      .toEqual({ ...empty, grantRoles: ["admin", "app.user"], attributes: { department: ["Sales"] } });
    expect(planMappers(mappers, { syncUserProfile: false }, { groups: ["users"] }, false))
      .toEqual({ ...empty, grantRoles: ["app.user"], removeRoles: ["admin"], attributes: { department: [] } });
  });

  it("IMPORT leaves the user alone after the first login; LEGACY only removes an unmatched claim role", () => {
    expect(planMappers([claimRole("IMPORT"), attr("IMPORT"), hardRole("IMPORT")], { syncUserProfile: true }, { groups: [] }, false)).toEqual(empty);
    expect(planMappers([claimRole("INHERIT"), attr("INHERIT")], { syncUserProfile: false }, {}, false)).toEqual(empty);
    expect(planMappers([claimRole("LEGACY"), attr("LEGACY"), hardRole("LEGACY")], { syncUserProfile: false }, { groups: ["users"], dept: "x" }, false))
      .toEqual({ ...empty, removeRoles: ["admin"] });
    expect(planMappers([claimRole("LEGACY")], { syncUserProfile: false }, { groups: ["admins"] }, false)).toEqual(empty);
  });

  it("writes email and the names as the user's fields, a non-empty value only", () => {
    const mappers = [mapper("oidc-user-attribute-idp-mapper", { claim: "mail", "user.attribute": "email", syncMode: "FORCE" }),
      mapper("oidc-user-attribute-idp-mapper", { claim: "gn", "user.attribute": "FIRSTNAME", syncMode: "FORCE" })];
    expect(planMappers(mappers, { syncUserProfile: false }, { mail: "a@b.test" }, false)).toEqual({ ...empty, fields: { email: "a@b.test" } });
  });

  it("preprocesses the username template and the user fields before creation", () => {
    const mappers = [mapper("oidc-username-idp-mapper", { template: "${CLAIM.email | localpart | lowercase}.${ALIAS}" }),
      mapper("oidc-user-attribute-idp-mapper", { claim: "name.given", "user.attribute": "firstName" })];
    expect(preprocess(mappers, { alias: "up" }, { email: "Ann@Corp.test", name: { given: "Ann" } }))
      .toEqual({ username: "ann.up", fields: { firstName: "Ann" } });
    expect(preprocess([], { alias: "up" }, {})).toEqual({ fields: {} });
  });
});
