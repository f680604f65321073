import { IamError } from "../../../kit/src/errors.js";
import { checkMapperConfig, checkMapperType, splitClaimName, withTokenFlagDefaults } from "./mapper-rules.js";
import { BUILTIN_SCOPES } from "./builtin-scopes.js";

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof IamError) return e.field;
    throw e;
  }
  return undefined;
}

describe("mapper rules", () => {
  it("accepts every built-in mapper", () => {
    for (const m of BUILTIN_SCOPES.flatMap((s) => s.mappers)) {
      expect(checkMapperType(m.mapperType)).toBe(m.mapperType);
      expect(checkMapperConfig(m.mapperType, m.config)).toEqual(m.config);
    }
  });

  it.each([
    ["oidc-usermodel-attribute-mapper", { "claim.name": "a" }, "config.user.attribute"],
    ["oidc-usermodel-property-mapper", { "claim.name": "a", "user.attribute": "createdAt" }, "config.user.attribute"],
    ["oidc-hardcoded-claim-mapper", { "claim.name": "a", "claim.value": "1", "jsonType.label": "long", multivalued: "true" }, "config.multivalued"],
    ["oidc-usermodel-realm-role-mapper", {}, "config.claim.name"],
    ["oidc-usermodel-realm-role-mapper", { "claim.name": ".a" }, "config.claim.name"],
    ["oidc-usermodel-realm-role-mapper", { "claim.name": "exp" }, "config.claim.name"],
    ["oidc-group-membership-mapper", { "claim.name": "g", "full.path": "TRUE" }, "config.full.path"],
    ["oidc-audience-mapper", { "included.client.audience": "" }, "config.included.client.audience"],
    ["oidc-sub-mapper", { "claim.name": "x" }, "config.claim.name"],
  ])("refuses %s with %j naming %s", (type, config, field) => {
    expect(fieldOf(() => checkMapperConfig(type, config as Record<string, string>))).toBe(field);
  });

  it("refuses unknown mapper types", () => {
    expect(fieldOf(() => checkMapperType("oidc-script-mapper"))).toBe("mapperType");
    expect(fieldOf(() => checkMapperType(undefined))).toBe("mapperType");
  });

  it("splits claim names on unescaped dots", () => {
    expect(splitClaimName("a.b.c")).toEqual(["a", "b", "c"]);
    expect(splitClaimName("a\\.b.c")).toEqual(["a.b", "c"]);
    expect(splitClaimName("plain")).toEqual(["plain"]);
  });

  it("fills the token switches left out with Keycloak's defaults and keeps those given", () => {
    expect(withTokenFlagDefaults("oidc-hardcoded-claim-mapper", { "claim.name": "a", "id.token.claim": "false" })).toEqual({
      "claim.name": "a", "id.token.claim": "false", "access.token.claim": "true", "userinfo.token.claim": "true", "introspection.token.claim": "true",
    });
    for (const t of ["oidc-audience-mapper", "oidc-audience-resolve-mapper", "oidc-allowed-origins-mapper"]) {
      expect(withTokenFlagDefaults(t, {})).toEqual({
        "id.token.claim": "false", "access.token.claim": "true", "userinfo.token.claim": "false", "introspection.token.claim": "true",
      });
    }
    expect(withTokenFlagDefaults("oidc-audience-mapper", { "userinfo.token.claim": "true" })["userinfo.token.claim"]).toBe("true");
  });
});
