import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { ListValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { OrganizationService } from "../../../gen/iam/directory/v1/organization_pb.js";
import { ClientService } from "../../../gen/iam/directory/v1/client_pb.js";
import { ClaimsService } from "../../../gen/iam/directory/v1/claims_pb.js";
import { startAuthnHarness, failureOf, type AuthnHarness } from "./authentication-test-kit.js";
import { ORGANIZATIONS_NOT_ENABLED } from "./domain/organization-realms.js";
import { RealmRepository } from "./store/realm-repository.js";

const list = (values: JsonValue[]) => fromJson(ListValueSchema, values);

// Keycloak 26's organizationsEnabled realm switch, the directory's half: off, the organization
// RPCs of the Admin API answer 404 organizations_not_enabled, identity-first routing finds no
// organization, a broker login joins none and the organization claim is empty; the stored
// organizations come back as they were when it is turned on again.
describe("the organizationsEnabled realm switch", () => {
  let h: AuthnHarness;
  let orgs: Client<typeof OrganizationService>;
  let clients: Client<typeof ClientService>;
  let claims: Client<typeof ClaimsService>;

  beforeAll(async () => {
    h = await startAuthnHarness();
    orgs = createClient(OrganizationService, h.transport);
    clients = createClient(ClientService, h.transport);
    claims = createClient(ClaimsService, h.transport);
  });
  afterAll(async () => h?.stop());

  const toggle = (realm: string, on: boolean) => h.realms.updateRealm({ name: realm, update: { organizationsEnabled: on } });

  it("is off in a realm created without it (Keycloak's default) and on when asked for", async () => {
    const off = await h.realm();
    const on = await h.realm({ organizationsEnabled: true });
    expect((await h.realms.getRealm({ name: off })).realm?.organizationsEnabled).toBe(false);
    expect((await h.realms.getRealm({ name: on })).realm?.organizationsEnabled).toBe(true);
  });

  it("refuses every organization Admin RPC with Keycloak's 404 while off, before looking the organization up", async () => {
    const realm = await h.realm();
    const calls: Array<Promise<unknown>> = [
      orgs.createOrganization({ realm, organization: { name: "Acme" } }),
      orgs.listOrganizations({ realm }),
      orgs.countOrganizations({ realm }),
      orgs.getOrganization({ realm, organizationId: "no-such-id" }),
      orgs.deleteOrganization({ realm, organizationId: "no-such-id" }),
      orgs.listMembers({ realm, organizationId: "no-such-id" }),
      orgs.inviteUser({ realm, organizationId: "no-such-id", email: "a@acme.test" }),
      orgs.listOrganizationRoles({ realm, organizationId: "no-such-id" }),
      orgs.listMemberOrganizations({ realm, userId: "no-such-user" }),
    ];
    for (const call of calls) expect(await failureOf(call)).toEqual({ code: Code.NotFound, reason: "organizations_not_enabled" });
    const e = await orgs.countOrganizations({ realm }).catch((x: unknown) => ConnectError.from(x));
    expect((e as ConnectError).rawMessage).toBe(ORGANIZATIONS_NOT_ENABLED);
    // An unknown realm is still the realm's 404, as Keycloak resolves the realm first.
    expect(await failureOf(orgs.countOrganizations({ realm: "no-such-realm" }))).toEqual({ code: Code.NotFound, reason: "realm_not_found" });
  });

  it("stops routing, onboarding and the claim while off, and keeps the organizations for when it is on again", async () => {
    const realm = await h.realm({ organizationsEnabled: true });
    const org = (await orgs.createOrganization({ realm, organization: {
      name: "Acme", alias: "acme", identityProviders: list(["up"]), domains: list([{ name: "acme.test", verified: true }]),
    } })).organization!;
    const alice = await h.user(realm, "alice", "Alice-Pass-1", { email: "alice@acme.test" });
    const bob = await h.user(realm, "bob", "Bob-Pass-1", { email: "bob@acme.test" });
    await orgs.addMember({ realm, organizationId: org.id, userId: alice });
    await clients.createClient({ realm, client: { clientId: "app", clientType: "CONFIDENTIAL", redirectUris: ["https://app.test/cb"] } });
    const claim = async () => JSON.parse((await claims.resolveClaims({ realm, userId: alice, clientId: "app", scopes: ["openid", "organization"] })).accessTokenClaimsJson) as Record<string, unknown>;

    expect((await orgs.findByEmailDomain({ realm, email: "bob@acme.test" })).organizationId).toBe(org.id);
    expect((await claim()).organization).toEqual({ acme: { id: org.id } });

    await toggle(realm, false);
    expect((await orgs.findByEmailDomain({ realm, email: "bob@acme.test" })).organizationId).toBe("");
    expect((await orgs.onboardBrokeredUser({ realm, identityProviderAlias: "up", userId: bob, created: true })).organizationIds).toEqual([]);
    expect((await claim()).organization).toBeUndefined();

    await toggle(realm, true);
    expect((await orgs.getMember({ realm, organizationId: org.id, userId: alice })).member?.membershipType).toBe("UNMANAGED");
    expect(await failureOf(orgs.getMember({ realm, organizationId: org.id, userId: bob }))).toEqual({ code: Code.NotFound, reason: "member_not_found" });
    expect((await claim()).organization).toEqual({ acme: { id: org.id } });
  });

  it("reads a realm stored before the switch existed as on: its organizations keep working", async () => {
    const realm = await h.realm();
    // The record as a realm stored before the switch existed has it: without the field.
    expect(await (await RealmRepository.open(h.store)).updateByName(realm, {}, ["organizationsEnabled"])).not.toBeNull();
    expect((await h.realms.getRealm({ name: realm })).realm?.organizationsEnabled).toBe(true);
    expect((await orgs.createOrganization({ realm, organization: { name: "Legacy" } })).organization?.alias).toBe("Legacy");
  });
});
