import { mapperProblems, mapperRecord } from "./mapper-transfer.js";

describe("identity provider mappers in a realm document", () => {
  const id = "0d8f9a4e-55c1-4b43-9a0e-3b7c1c1f2a01";
  const doc = { id, name: "member", identityProviderAlias: "corp", identityProviderMapper: "oidc-hardcoded-role-idp-mapper", config: { role: "member" } };

  it("accepts a mapper of a document's provider and stores it with its id and INHERIT", () => {
    expect(mapperProblems([doc], new Map([["corp", 0]]))).toEqual([]);
    expect(mapperRecord(doc, "realm-1", 5)).toEqual({
      _id: id, realmId: "realm-1", alias: "corp", name: "member", type: "oidc-hardcoded-role-idp-mapper", config: { role: "member", syncMode: "INHERIT" }, createdAt: 5,
    });
  });

  it("reports each problem with its path", () => {
    expect(mapperProblems([doc, { ...doc, id: "m-2", identityProviderAlias: "nope", config: {} }, { ...doc }], new Map([["corp", 0]]))).toEqual([
      { path: "$.identityProviderMappers[1].identityProviderAlias", message: 'no identity provider "nope" in identityProviders' },
      { path: "$.identityProviderMappers[1].config.role", message: "config.role is required for oidc-hardcoded-role-idp-mapper" },
      { path: "$.identityProviderMappers[1].id", message: "id must be a UUID" },
      { path: "$.identityProviderMappers[2].name", message: 'name "member" is also used at $.identityProviderMappers[0]' },
      { path: "$.identityProviderMappers[2].id", message: "id is also used at $.identityProviderMappers[0]" },
    ]);
  });
});
