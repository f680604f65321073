import { IamError } from "../../../kit/src/errors.js";
import { checkMapperInput, mapperView } from "./idp-mapper.js";

function refusal(f: () => unknown): { field: string | undefined; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof IamError) return { field: e.field, message: e.message };
    throw e;
  }
  throw new Error("accepted");
}

describe("identity provider mapper validation", () => {
  const at = { alias: "up" };

  it("accepts Keycloak's types and keys, defaulting syncMode to INHERIT", () => {
    expect(checkMapperInput({ name: " dept ", identityProviderMapper: "oidc-user-attribute-idp-mapper", config: { claim: "dept", "user.attribute": "department" } }, at))
      .toEqual({ name: "dept", type: "oidc-user-attribute-idp-mapper", config: { claim: "dept", "user.attribute": "department", syncMode: "INHERIT" } });
    expect(checkMapperInput({ name: "r", identityProviderAlias: "up", identityProviderMapper: "oidc-role-idp-mapper", config: { claim: "groups", "claim.value": "admins", role: "admin", syncMode: "FORCE" } }, at).config.syncMode)
      .toBe("FORCE");
    expect(checkMapperInput({ name: "g", identityProviderMapper: "oidc-hardcoded-group-idp-mapper", config: { group: "/staff" } }, at).type).toBe("oidc-hardcoded-group-idp-mapper");
  });

  it("refuses unknown types, missing or unknown keys, bad sync modes and a foreign alias, naming the field", () => {
    expect(refusal(() => checkMapperInput({ identityProviderMapper: "oidc-role-idp-mapper" }, at))).toEqual({ field: "name", message: "name is required" });
    expect(refusal(() => checkMapperInput({ name: "x", identityProviderMapper: "saml-role-idp-mapper" }, at)).field).toBe("identityProviderMapper");
    expect(refusal(() => checkMapperInput({ name: "x", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: {} }, at)))
      .toEqual({ field: "config.role", message: "config.role is required for oidc-hardcoded-role-idp-mapper" });
    expect(refusal(() => checkMapperInput({ name: "x", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: { role: "a", rol: "b" } }, at)))
      .toEqual({ field: "config.rol", message: 'oidc-hardcoded-role-idp-mapper has no config key "rol"' });
    expect(refusal(() => checkMapperInput({ name: "x", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: { role: "a", syncMode: "ALWAYS" } }, at)))
      .toEqual({ field: "config.syncMode", message: "config.syncMode must be one of INHERIT, IMPORT, LEGACY, FORCE" });
    expect(refusal(() => checkMapperInput({ name: "x", identityProviderAlias: "other", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: { role: "a" } }, at)).field)
      .toBe("identityProviderAlias");
    expect(refusal(() => checkMapperInput({ name: "x", identityProviderMapper: "oidc-hardcoded-group-idp-mapper", config: { group: "staff" } }, at)).field).toBe("config.group");
    expect(refusal(() => checkMapperInput({ name: "x", identityProviderMapper: "oidc-user-attribute-idp-mapper", config: { claim: "c", "user.attribute": "a.b" } }, at)))
      .toEqual({ field: "config.user.attribute", message: "config.user.attribute must start with a letter or _ and use letters, digits, _ and -" });
    expect(checkMapperInput({ name: "x", identityProviderMapper: "oidc-user-attribute-idp-mapper", config: { claim: "c", "user.attribute": "Email" } }, at).config["user.attribute"]).toBe("Email");
    expect(refusal(() => checkMapperInput({ name: "x", identityProviderMapper: "oidc-username-idp-mapper", config: { template: "${CLAIM.email | trim}" } }, at)))
      .toEqual({ field: "config.template", message: 'unknown template transformer "trim"; supported: lowercase, uppercase, localpart' });
  });

  it("answers Keycloak's representation", () => {
    expect(mapperView({ _id: "id1", realmId: "r", alias: "up", name: "n", type: "oidc-hardcoded-role-idp-mapper", config: { role: "a", syncMode: "INHERIT" }, createdAt: 1 }))
      .toEqual({ id: "id1", name: "n", identityProviderAlias: "up", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: { role: "a", syncMode: "INHERIT" } });
  });
});
