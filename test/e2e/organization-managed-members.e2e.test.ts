import { recordResponses } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import { BrokeringWorld } from "./support/brokering-world.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

/**
 * Keycloak 26's MANAGED organization members: an account the organization's identity provider
 * (an oidc-provider upstream) created at its first login is a MANAGED member, and removing it
 * from the organization, or deleting the organization, deletes the account; an account an admin
 * added is UNMANAGED and outlives its membership.
 */
for (const target of targets()) describe(`managed organization members (${target.mode})`, () => {
  const w = new BrokeringWorld(target, "organization-managed");
  const orgs = () => `/admin/realms/${w.realm}/organizations`;
  let acme: string;
  let lee: string;

  beforeAll(async () => {
    await w.setUp();
    expect((await w.api.put(`/admin/realms/${w.realm}`, { organizationsEnabled: true })).status).toBe(200);
    const a = await w.api.post(orgs(), { name: "Acme", alias: "acme", domains: [{ name: "acme.test", verified: true }], identityProviders: ["up"] });
    expect(a.status).toBe(201);
    acme = a.body.id;
    const u = await w.api.post(`/admin/realms/${w.realm}/users`, { username: "lee", email: "lee@elsewhere.test" });
    expect(u.status).toBe(201);
    lee = u.body.id;
    expect((await w.api.post(`${orgs()}/${acme}/members`, JSON.stringify(lee))).status).toBe(201);
  }, 90_000);
  afterAll(() => w.tearDown());

  async function firstLogin(sub: string, username: string): Promise<string> {
    w.op.accounts.set(sub, { sub, preferred_username: username, email: `${username}@acme.test`, email_verified: true });
    const { back } = await w.loginAs(sub);
    expect(back.status).toBe(302);
    const local = await w.userByName(username);
    expect(local?.username).toBe(username);
    return local!.id;
  }
  const members = async (query = "") => {
    const res = await w.api.get(`${orgs()}/${acme}/members${query}`);
    expect(res.status).toBe(200);
    return (res.body as Array<{ username: string; membershipType: string }>).map((m) => [m.username, m.membershipType]);
  };

  it("makes the account a first login through the organization's provider created a MANAGED member; lists filter by type", async () => {
    const ann = await firstLogin("u-ann", "ann");
    expect(await members()).toEqual([["ann", "MANAGED"], ["lee", "UNMANAGED"]]);
    expect(await members("?membershipType=MANAGED")).toEqual([["ann", "MANAGED"]]);
    expect(await members("?membershipType=UNMANAGED")).toEqual([["lee", "UNMANAGED"]]);
    expect(await members("?membershipType=MANAGED&search=lee")).toEqual([]);
    const one = await w.api.get(`${orgs()}/${acme}/members/${ann}`);
    expect([one.status, one.body.id, one.body.membershipType]).toEqual([200, ann, "MANAGED"]);
    const bad = await w.api.get(`${orgs()}/${acme}/members?membershipType=managed`);
    expect([bad.status, bad.body]).toEqual([400, { error: "invalid_request", message: "membershipType must be one of UNMANAGED, MANAGED", field: "membershipType" }]);
    // A second login through the provider changes nothing.
    await w.loginAs("u-ann");
    expect(await members("?membershipType=MANAGED")).toEqual([["ann", "MANAGED"]]);
  });

  it("makes an existing account a first login linked (trusted verified email) an UNMANAGED member", async () => {
    const kim = await w.api.post(`/admin/realms/${w.realm}/users`, { username: "kim", email: "kim@acme.test", emailVerified: true });
    expect(kim.status).toBe(201);
    expect((await w.api.put(`${w.idps()}/up`, { trustEmail: true })).status).toBe(200);
    try {
      w.op.accounts.set("u-kim", { sub: "u-kim", preferred_username: "kim-upstream", email: "kim@acme.test", email_verified: true });
      expect((await w.loginAs("u-kim")).back.status).toBe(302);
    } finally {
      await w.api.put(`${w.idps()}/up`, { trustEmail: false });
    }
    expect(await members()).toEqual([["ann", "MANAGED"], ["kim", "UNMANAGED"], ["lee", "UNMANAGED"]]);
    // Removing it ends the membership only: the account was there before the organization's provider.
    expect((await w.api.del(`${orgs()}/${acme}/members/${kim.body.id}`)).status).toBe(204);
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${kim.body.id}`)).status).toBe(200);
  });

  // With includeSecrets: the provider "up" comes back with its client secret and keeps working.
  it("keeps the membership type through a realm export and import", async () => {
    const doc = (await w.api.get(`/admin/realms/${w.realm}/export?includeUsers=true&includeSecrets=true`)).body;
    const byName = (n: string) => doc.users.find((u: { username: string }) => u.username === n);
    expect([byName("ann").organizations, byName("ann").managedOrganizations]).toEqual([["acme"], ["acme"]]);
    expect([byName("lee").organizations, byName("lee").managedOrganizations]).toEqual([["acme"], undefined]);
    // A managed membership of an organization the user is not a member of is refused, named.
    const broken = { ...doc, users: doc.users.map((u: Record<string, unknown>) => (u.username === "lee" ? { ...u, organizations: [], managedOrganizations: ["acme"] } : u)) };
    const refused = await w.api.post("/admin/realms/import?overwrite=true", broken);
    expect(refused.status).toBe(400);
    expect(refused.body.problems).toEqual([{ path: `$.users[${doc.users.indexOf(byName("lee"))}].managedOrganizations[0]`, message: 'the user is not a member of organization "acme"' }]);
    const back = await w.api.post("/admin/realms/import?overwrite=true", doc);
    expect(back.status).toBe(201);
    await eventually(() => members(), (m) => JSON.stringify(m) === JSON.stringify([["ann", "MANAGED"], ["lee", "UNMANAGED"]]));
  });

  it("deletes a MANAGED member's account with its membership, with both admin events; an UNMANAGED one's stays", async () => {
    const ann = (await w.userByName("ann"))!.id;
    expect((await w.api.del(`${orgs()}/${acme}/members/${lee}`)).status).toBe(204);
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${lee}`)).status).toBe(200);
    expect((await w.api.del(`${orgs()}/${acme}/members/${ann}`)).status).toBe(204);
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${ann}`)).status).toBe(404);
    expect(await members()).toEqual([]);
    expect((await w.api.del(`${orgs()}/${acme}/members/${ann}`)).status).toBe(404);
    const events = await eventually(async () => (await w.api.get(`/admin/realms/${w.realm}/admin-events?max=100`)).body as Array<Record<string, string>>,
      (e) => e.some((x) => x.resourceType === "USER" && x.operationType === "DELETE"));
    // Both are stamped in the same request, possibly in the same millisecond: compared unordered.
    const summary = events.filter((e) => String(e.resourcePath).endsWith(ann) && e.operationType === "DELETE").map((e) => [e.resourceType, e.resourcePath]).sort();
    expect(summary).toEqual([["ORGANIZATION_MEMBERSHIP", `organizations/${acme}/members/${ann}`], ["USER", `users/${ann}`]]);
    // The upstream account signs in again as a new account, a MANAGED member again.
    const again = await firstLogin("u-ann", "ann");
    expect(again).not.toBe(ann);
    expect(await members()).toEqual([["ann", "MANAGED"]]);
  });

  it("deletes the MANAGED members' accounts with the organization, never the UNMANAGED ones'", async () => {
    const ann = (await w.userByName("ann"))!.id;
    expect((await w.api.post(`${orgs()}/${acme}/members`, JSON.stringify(lee))).status).toBe(201);
    expect((await w.api.del(`${orgs()}/${acme}`)).status).toBe(204);
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${ann}`)).status).toBe(404);
    expect((await w.api.get(`/admin/realms/${w.realm}/users/${lee}`)).status).toBe(200);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expectResponsesDocumented(recorded);
  });
});
