import { applyMappers, convert, introspectionDiffers, setClaim, type ClaimsSubject, type MapperSpec } from "./claims-engine.js";
import { BUILTIN_SCOPES } from "./builtin-scopes.js";

const ALL = { "id.token.claim": "true", "access.token.claim": "true", "userinfo.token.claim": "true" };

const alice: ClaimsSubject = {
  id: "u-1", username: "alice", email: "alice@example.test", firstName: "Alice", lastName: "Liddell", emailVerified: true,
  attributes: { department: ["eng", "ops"], age: ["42"], prefs: ['{"theme":"dark"}'], empty: [] },
  realmRoles: ["admin", "offline_access"], clientRoles: { app: ["reader", "writer"], api: ["call"] },
  groupPaths: ["/org/eng", "/staff"],
};
const client = { clientId: "app", webOrigins: ["https://app.example.test"] };
const run = (mappers: MapperSpec[], subject = alice) => applyMappers(mappers, subject, client);

describe("applyMappers", () => {
  it("writes each claim only to the tokens its flags name", () => {
    const out = run([
      { mapperType: "oidc-hardcoded-claim-mapper", config: { "claim.name": "a", "claim.value": "1", "access.token.claim": "true" } },
      { mapperType: "oidc-hardcoded-claim-mapper", config: { "claim.name": "i", "claim.value": "2", "id.token.claim": "true" } },
      { mapperType: "oidc-hardcoded-claim-mapper", config: { "claim.name": "u", "claim.value": "3", "userinfo.token.claim": "true" } },
      { mapperType: "oidc-hardcoded-claim-mapper", config: { "claim.name": "none", "claim.value": "4", "access.token.claim": "false" } },
    ]);
    expect(out).toEqual({ access: { a: "1" }, id: { i: "2" }, userinfo: { u: "3" }, introspection: { a: "1" } });
  });

  it("writes to introspection by its own switch, and by the access token's when a mapper has none", () => {
    const hardcoded = (name: string, config: Record<string, string>) => ({ mapperType: "oidc-hardcoded-claim-mapper", config: { "claim.name": name, "claim.value": name, ...config } });
    const both = hardcoded("both", { "access.token.claim": "true", "introspection.token.claim": "true" });
    const accessOnly = hardcoded("access_only", { "access.token.claim": "true", "introspection.token.claim": "false" });
    const introspectionOnly = hardcoded("introspection_only", { "access.token.claim": "false", "introspection.token.claim": "true" });
    const unswitched = hardcoded("unswitched", { "access.token.claim": "true" });
    const neither = hardcoded("neither", { "access.token.claim": "false" });
    const out = run([both, accessOnly, introspectionOnly, unswitched, neither]);
    expect(out.access).toEqual({ both: "both", access_only: "access_only", unswitched: "unswitched" });
    expect(out.introspection).toEqual({ both: "both", introspection_only: "introspection_only", unswitched: "unswitched" });
    expect([both, unswitched, neither].map((m) => introspectionDiffers([m]))).toEqual([false, false, false]);
    expect([accessOnly, introspectionOnly].map((m) => introspectionDiffers([both, m]))).toEqual([true, true]);
  });

  it("maps user properties with their JSON types, skipping empty ones", () => {
    const out = run([
      { mapperType: "oidc-usermodel-property-mapper", config: { ...ALL, "user.attribute": "username", "claim.name": "preferred_username" } },
      { mapperType: "oidc-usermodel-property-mapper", config: { ...ALL, "user.attribute": "emailVerified", "claim.name": "email_verified", "jsonType.label": "boolean" } },
      { mapperType: "oidc-usermodel-property-mapper", config: { ...ALL, "user.attribute": "email", "claim.name": "email" } },
    ], { ...alice, email: "" });
    expect(out.id).toEqual({ preferred_username: "alice", email_verified: true });
  });

  it("builds the OIDC Core 5.1.1 address object and the phone claims of the built-in scopes", () => {
    const mappers = BUILTIN_SCOPES.filter((b) => b.name === "address" || b.name === "phone").flatMap((b) => b.mappers);
    const out = run(mappers, {
      ...alice,
      attributes: { street: ["1 Main St", "ignored"], locality: ["Springfield"], postal_code: ["12345"], country: ["US"], phoneNumber: ["+1 555 0100"], phoneNumberVerified: ["true"] },
    });
    const expected = {
      address: { street_address: "1 Main St", locality: "Springfield", postal_code: "12345", country: "US" },
      phone_number: "+1 555 0100", phone_number_verified: true,
    };
    expect(out).toEqual({ access: expected, id: expected, userinfo: expected, introspection: expected });
    // No address attribute, no claim; a configured attribute name replaces the default.
    expect(run(mappers, { ...alice, attributes: {} }).id).toEqual({});
    const custom = run([{ mapperType: "oidc-address-mapper", config: { "id.token.claim": "true", "user.attribute.street": "addr1", "user.attribute.region": "" } }],
      { ...alice, attributes: { addr1: ["2 Side St"], region: ["CA"] } });
    expect(custom.id).toEqual({ address: { street_address: "2 Side St", region: "CA" } });
  });

  it("maps attributes single- and multi-valued, typed, into nested claims", () => {
    const out = run([
      { mapperType: "oidc-usermodel-attribute-mapper", config: { ...ALL, "user.attribute": "department", "claim.name": "org.dept" } },
      { mapperType: "oidc-usermodel-attribute-mapper", config: { ...ALL, "user.attribute": "department", "claim.name": "depts", "multivalued": "true" } },
      { mapperType: "oidc-usermodel-attribute-mapper", config: { ...ALL, "user.attribute": "age", "claim.name": "age", "jsonType.label": "long" } },
      { mapperType: "oidc-usermodel-attribute-mapper", config: { ...ALL, "user.attribute": "prefs", "claim.name": "prefs", "jsonType.label": "JSON" } },
      { mapperType: "oidc-usermodel-attribute-mapper", config: { ...ALL, "user.attribute": "empty", "claim.name": "empty" } },
      { mapperType: "oidc-usermodel-attribute-mapper", config: { ...ALL, "user.attribute": "missing", "claim.name": "missing" } },
      { mapperType: "oidc-usermodel-attribute-mapper", config: { ...ALL, "user.attribute": "department", "claim.name": "n", "jsonType.label": "int" } },
    ]);
    expect(out.access).toEqual({ org: { dept: "eng" }, depts: ["eng", "ops"], age: 42, prefs: { theme: "dark" } });
  });

  it("honours escaped dots in claim names", () => {
    const out = run([{ mapperType: "oidc-hardcoded-claim-mapper", config: { ...ALL, "claim.name": "https://example\\.test/tier", "claim.value": "gold" } }]);
    expect(out.access).toEqual({ "https://example.test/tier": "gold" });
  });

  it("maps realm roles and client roles per client (Keycloak's realm_access / resource_access)", () => {
    const roles = BUILTIN_SCOPES.find((s) => s.name === "roles")!.mappers;
    const out = run(roles);
    expect(out.access).toEqual({
      realm_access: { roles: ["admin", "offline_access"] },
      resource_access: { app: { roles: ["reader", "writer"] }, api: { roles: ["call"] } },
      aud: ["api"],
    });
    expect(out.id).toEqual({});
  });

  it("limits the client role mapper to one client when configured, and joins when not multivalued", () => {
    const out = run([
      { mapperType: "oidc-usermodel-client-role-mapper", config: { ...ALL, "claim.name": "app_roles", "usermodel.clientRoleMapping.clientId": "app" } },
      { mapperType: "oidc-usermodel-realm-role-mapper", config: { ...ALL, "claim.name": "realm_csv", "multivalued": "false" } },
    ]);
    expect(out.access).toEqual({ app_roles: ["reader", "writer"], realm_csv: "admin,offline_access" });
  });

  it("merges multi-valued claims written by several mappers", () => {
    const out = run([
      { mapperType: "oidc-usermodel-realm-role-mapper", config: { ...ALL, "claim.name": "roles" } },
      { mapperType: "oidc-usermodel-client-role-mapper", config: { ...ALL, "claim.name": "roles" } },
      { mapperType: "oidc-audience-mapper", config: { "access.token.claim": "true", "included.custom.audience": "https://api.example.test" } },
      { mapperType: "oidc-audience-mapper", config: { "access.token.claim": "true", "included.client.audience": "api" } },
    ]);
    expect(out.access.roles).toEqual(["admin", "offline_access", "reader", "writer", "call"]);
    expect(out.access.aud).toEqual(["https://api.example.test", "api"]);
  });

  it("maps groups as full paths or names", () => {
    const out = run([
      { mapperType: "oidc-group-membership-mapper", config: { ...ALL, "claim.name": "groups" } },
      { mapperType: "oidc-group-membership-mapper", config: { ...ALL, "claim.name": "group_names", "full.path": "false" } },
    ]);
    expect(out.userinfo).toEqual({ groups: ["/org/eng", "/staff"], group_names: ["eng", "staff"] });
  });

  it("runs the built-in profile, email, basic, web-origins and acr mappers", () => {
    const mappers = BUILTIN_SCOPES.filter((s) => ["profile", "email", "basic", "web-origins", "acr"].includes(s.name)).flatMap((s) => s.mappers);
    const out = run(mappers, { ...alice, attributes: { locale: ["en"] } });
    expect(out.id).toEqual({
      name: "Alice Liddell", preferred_username: "alice", given_name: "Alice", family_name: "Liddell", locale: "en",
      email: "alice@example.test", email_verified: true, acr: "1",
    });
    expect(out.access).toMatchObject({ sub: "u-1", "allowed-origins": ["https://app.example.test"], acr: "1", name: "Alice Liddell" });
    expect(out.userinfo).not.toHaveProperty("sub");
  });

  it("omits role and audience claims when there is nothing to say", () => {
    const roles = BUILTIN_SCOPES.find((s) => s.name === "roles")!.mappers;
    expect(run(roles, { ...alice, realmRoles: [], clientRoles: {} }).access).toEqual({});
    expect(run([{ mapperType: "oidc-full-name-mapper", config: ALL }], { ...alice, firstName: "", lastName: "" }).id).toEqual({});
  });
});

describe("convert and setClaim", () => {
  it.each([
    ["12", "long", 12], ["1.5", "int", undefined], ["", "long", undefined], ["true", "boolean", true],
    ["no", "boolean", undefined], ['[1,"a"]', "JSON", [1, "a"]], ["{", "JSON", undefined], ["x", undefined, "x"], ["x", "String", "x"],
  ])("converts %j as %s to %j", (value, type, expected) => {
    expect(convert(value, type)).toEqual(expected);
  });

  it("replaces a scalar in the way of a nested claim", () => {
    const target: Record<string, unknown> = { a: "scalar" };
    setClaim(target, ["a", "b"], 1);
    expect(target).toEqual({ a: { b: 1 } });
  });
});
