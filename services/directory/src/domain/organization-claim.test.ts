import { applyMappers, type ClaimsSubject, type MapperSpec } from "./claims-engine.js";
import { BUILTIN_SCOPES } from "./builtin-scopes.js";

const member: ClaimsSubject = {
  id: "u-1", username: "alice", email: "alice@acme.test", firstName: "", lastName: "", emailVerified: true, attributes: {},
  realmRoles: [], clientRoles: {}, groupPaths: [],
  organizations: [
    { id: "o-2", alias: "globex", attributes: { tier: ["silver"] } },
    { id: "o-1", alias: "acme", attributes: { tier: ["gold"] } },
  ],
};
const client = { clientId: "app", webOrigins: [] };
const mapper = (config: Record<string, string>): MapperSpec => ({
  mapperType: "oidc-organization-membership-mapper", config: { "access.token.claim": "true", "claim.name": "organization", ...config },
});

describe("the organization membership mapper (Keycloak 26)", () => {
  it("writes the built-in scope's detailed form, keyed by alias in alias order, to every token", () => {
    const builtin = BUILTIN_SCOPES.find((s) => s.name === "organization")!;
    const out = applyMappers(builtin.mappers, member, client);
    const claim = { acme: { id: "o-1" }, globex: { id: "o-2" } };
    expect(out).toEqual({ access: { organization: claim }, id: { organization: claim }, userinfo: { organization: claim }, introspection: { organization: claim } });
    expect(Object.keys(out.id.organization as object)).toEqual(["acme", "globex"]);
  });

  it("writes a list of aliases without the id flag, and the attributes with theirs", () => {
    expect(applyMappers([mapper({})], member, client).access).toEqual({ organization: ["acme", "globex"] });
    expect(applyMappers([mapper({ addOrganizationAttributes: "true", addOrganizationId: "true" })], member, client).access).toEqual({
      organization: { acme: { id: "o-1", tier: ["gold"] }, globex: { id: "o-2", tier: ["silver"] } },
    });
  });

  it("lists the member's organization roles in the detailed form", () => {
    const withRoles = { ...member, organizations: [{ id: "o-1", alias: "acme", attributes: {}, roles: ["admin", "buyer"] }] };
    expect(applyMappers([mapper({ addOrganizationId: "true" })], withRoles, client).access).toEqual({ organization: { acme: { id: "o-1", roles: ["admin", "buyer"] } } });
  });

  it("writes nothing for a user of no organization", () => {
    expect(applyMappers([mapper({ addOrganizationId: "true" })], { ...member, organizations: [] }, client).access).toEqual({});
    expect(applyMappers([mapper({})], { ...member, organizations: undefined }, client).access).toEqual({});
  });
});
