import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Organizations and their members (spec 1.13) at Keycloak 26's paths, in every run mode.
describe.each(targets())("organizations ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await target.start("organizations");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  async function realm(extra: Record<string, unknown> = {}): Promise<string> {
    const name = uniqueName("orgs");
    expect((await api.post("/admin/realms", { name, organizationsEnabled: true, ...extra })).status).toBe(201);
    return name;
  }
  const orgs = (r: string) => `/admin/realms/${r}/organizations`;
  async function org(r: string, body: Record<string, unknown>) {
    const res = await api.post(orgs(r), body);
    expect(res.status).toBe(201);
    return res.body;
  }
  async function user(r: string, username: string, email = "") {
    const res = await api.post(`/admin/realms/${r}/users`, { username, ...(email ? { email } : {}) });
    expect(res.status).toBe(201);
    return res.body;
  }
  const addMember = (r: string, orgId: string, userId: string) =>
    http("POST", `${server.url}${orgs(r)}/${orgId}/members`, { body: JSON.stringify(userId), headers: { "X-Admin-API-Key": server.apiKey } });

  it("creates an organization with 201, its representation and a Location", async () => {
    const r = await realm();
    const res = await api.post(orgs(r), {
      name: "Acme Inc", alias: "acme", description: "anvils", domains: [{ name: "Acme.COM", verified: true }, { name: "acme.org" }],
      attributes: { tier: ["gold"] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "Acme Inc", alias: "acme", enabled: true, description: "anvils", redirectUrl: "",
      domains: [{ name: "acme.com", verified: true }, { name: "acme.org", verified: false }], attributes: { tier: ["gold"] }, identityProviders: [],
    });
    expect(res.headers.get("location")).toBe(`${server.url}${orgs(r)}/${res.body.id}`);
    const got = await api.get(`${orgs(r)}/${res.body.id}`);
    expect([got.status, got.body]).toEqual([200, res.body]);
    // Without an alias, the name gives one.
    expect((await org(r, { name: "Beta Corp" })).alias).toBe("Beta-Corp");
  });

  it.each([
    [{}, 400, { error: "invalid_request", message: "name is required", field: "name" }],
    [{ name: "x", alias: "no spaces" }, 400,
      { error: "invalid_request", message: "alias must start with a letter or digit and use letters, digits, '.', '_' and '-'", field: "alias" }],
    [{ name: "x", domains: [{ name: "not a domain" }] }, 400, { error: "invalid_request", message: "domains must be a hostname", field: "domains" }],
    [{ name: "x", domains: [{ name: "a.com" }, { name: "A.com" }] }, 400, { error: "invalid_request", message: 'domain "a.com" is listed twice', field: "domains" }],
    [{ name: "x", domains: "a.com" }, 400, { error: "invalid_field", message: "domains must be an array", field: "domains" }],
    [{ name: "x", domains: ["a.com"] }, 400, { error: "invalid_request", message: "domains must be an array of { name, verified }", field: "domains" }],
    [{ name: "x", attributes: { k: "v" } }, 400, { error: "invalid_request", message: "attributes must be an object of string arrays", field: "attributes" }],
    [{ name: "x", redirectUrl: "javascript:alert(1)" }, 400, { error: "invalid_request", message: "redirectUrl must be an absolute http or https URL", field: "redirectUrl" }],
    [{ name: "x", bogus: 1 }, 400, { error: "unknown_field", message: "unknown or read-only field: bogus", field: "bogus" }],
  ])("refuses %j", async (body, status, error) => {
    const r = await realm();
    const res = await api.post(orgs(r), body);
    expect([res.status, res.body]).toEqual([status, error]);
  });

  it("keeps names, aliases and domains unique in the realm (409), and frees a deleted one's", async () => {
    const r = await realm();
    const a = await org(r, { name: "A", alias: "a", domains: [{ name: "a.com" }] });
    expect(await api.post(orgs(r), { name: "a", alias: "a2" })).toMatchObject({
      status: 409, body: { error: "conflict", message: 'an organization named "a" already exists', field: "name" },
    });
    expect(await api.post(orgs(r), { name: "A2", alias: "a" })).toMatchObject({
      status: 409, body: { error: "conflict", message: 'an organization with alias "a" already exists', field: "alias" },
    });
    const dup = await api.post(orgs(r), { name: "B", domains: [{ name: "b.com" }, { name: "A.COM" }] });
    expect([dup.status, dup.body]).toEqual([409, { error: "conflict", message: 'domain "a.com" is already linked to another organization', field: "domains" }]);
    // The refused create claimed nothing: b.com is free.
    const b = await org(r, { name: "B", domains: [{ name: "b.com" }] });
    const steal = await api.put(`${orgs(r)}/${b.id}`, { domains: [{ name: "b.com" }, { name: "a.com" }] });
    expect([steal.status, steal.body.message]).toEqual([409, 'domain "a.com" is already linked to another organization']);
    expect((await api.get(`${orgs(r)}/${b.id}`)).body.domains).toEqual([{ name: "b.com", verified: false }]);
    // Another realm may hold the same domain.
    const other = await realm();
    await org(other, { name: "A", domains: [{ name: "a.com" }] });
    expect((await api.del(`${orgs(r)}/${a.id}`)).status).toBe(204);
    expect((await api.put(`${orgs(r)}/${b.id}`, { domains: [{ name: "a.com", verified: true }] })).body.domains)
      .toEqual([{ name: "a.com", verified: true }]);
    // b.com, dropped by that update, is free again.
    expect((await api.post(orgs(r), { name: "C", domains: [{ name: "b.com" }] })).status).toBe(201);
  });

  it("updates the fields sent, keeps the alias, and answers 404 for an unknown id", async () => {
    const r = await realm();
    const a = await org(r, { name: "A", alias: "a", attributes: { x: ["1"] } });
    const res = await api.put(`${orgs(r)}/${a.id}`, { ...a, name: "A renamed", enabled: false, description: "d" });
    expect([res.status, res.body]).toEqual([200, { ...a, name: "A renamed", enabled: false, description: "d" }]);
    expect((await api.put(`${orgs(r)}/${a.id}`, { attributes: {} })).body.attributes).toEqual({});
    const alias = await api.put(`${orgs(r)}/${a.id}`, { alias: "b" });
    expect([alias.status, alias.body]).toEqual([400, { error: "invalid_request", message: "alias cannot be changed", field: "alias" }]);
    const unknown = "00000000-0000-4000-8000-000000000000";
    for (const res of [await api.get(`${orgs(r)}/${unknown}`), await api.put(`${orgs(r)}/${unknown}`, { name: "x" }), await api.del(`${orgs(r)}/${unknown}`)]) {
      expect([res.status, res.body]).toEqual([404, { error: "organization_not_found", message: `organization "${unknown}" not found` }]);
    }
    expect((await api.get(`/admin/realms/nope-${r}/organizations`)).status).toBe(404);
  });

  it("lists in name order with first, max, search and count; brief by default", async () => {
    const r = await realm();
    for (const n of ["delta", "alpha", "charlie", "bravo", "echo"]) await org(r, { name: n, domains: [{ name: `${n}.example.com` }], attributes: { n: [n] } });
    const all = await api.get(orgs(r));
    expect(all.body.map((o: { name: string }) => o.name)).toEqual(["alpha", "bravo", "charlie", "delta", "echo"]);
    expect(all.body[0].attributes).toBeUndefined();
    expect((await api.get(`${orgs(r)}?briefRepresentation=false&max=1`)).body[0].attributes).toEqual({ n: ["alpha"] });
    expect((await api.get(`${orgs(r)}?first=1&max=2`)).body.map((o: { name: string }) => o.name)).toEqual(["bravo", "charlie"]);
    expect((await api.get(`${orgs(r)}?search=HARL`)).body.map((o: { name: string }) => o.name)).toEqual(["charlie"]);
    expect((await api.get(`${orgs(r)}?search=echo.example`)).body.map((o: { name: string }) => o.name)).toEqual(["echo"]);
    expect((await api.get(`${orgs(r)}?search=echo&exact=true`)).body.map((o: { name: string }) => o.name)).toEqual(["echo"]);
    expect((await api.get(`${orgs(r)}?search=ech&exact=true`)).body).toEqual([]);
    expect((await api.get(`${orgs(r)}/count`)).body).toBe(5);
    expect((await api.get(`${orgs(r)}/count?search=HA`)).body).toBe(2);
    const bad = await api.get(`${orgs(r)}?max=0`);
    expect([bad.status, bad.body]).toEqual([400, { error: "invalid_request", message: "max must be an integer between 1 and 1000", field: "max" }]);
  });

  it("adds members by a JSON string id, pages them, and removes them", async () => {
    const r = await realm();
    const a = await org(r, { name: "A" });
    const users = [];
    for (const n of ["carol", "alice", "bob"]) users.push(await user(r, n));
    for (const u of users) {
      const res = await addMember(r, a.id, u.id);
      expect(res.status).toBe(201);
      expect(res.headers.get("location")).toBe(`${server.url}${orgs(r)}/${a.id}/members/${u.id}`);
      expect(res.body).toMatchObject({ id: u.id, username: u.username, membershipType: "UNMANAGED" });
    }
    const again = await addMember(r, a.id, users[0].id);
    expect([again.status, again.body]).toEqual([409, { error: "conflict", message: "user is already a member of the organization", field: "userId" }]);
    const ghost = await addMember(r, a.id, "00000000-0000-4000-8000-000000000000");
    expect([ghost.status, ghost.body]).toEqual([400, {
      error: "user_not_found", message: 'user "00000000-0000-4000-8000-000000000000" does not exist', field: "userId",
    }]);
    const notString = await api.post(`${orgs(r)}/${a.id}/members`, { id: users[0].id });
    expect([notString.status, notString.body]).toEqual([400, { error: "invalid_request", message: "the body must be the id of a user, as a JSON string" }]);
    const names = async (q: string) => (await api.get(`${orgs(r)}/${a.id}/members${q}`)).body.map((m: { username: string }) => m.username);
    expect(await names("")).toEqual(["alice", "bob", "carol"]);
    expect(await names("?first=1&max=1")).toEqual(["bob"]);
    expect(await names("?search=CAR")).toEqual(["carol"]);
    // As Keycloak: the username, email, first or last name, ignoring case, a page of the matches.
    expect((await api.put(`/admin/realms/${r}/users/${users[1].id}`, { firstName: "Zelda", lastName: "Quux" })).status).toBe(200);
    expect((await api.put(`/admin/realms/${r}/users/${users[2].id}`, { email: "robert@home.example" })).status).toBe(200);
    expect([await names("?search=HOME.EXAMPLE"), await names("?search=zel"), await names("?search=QUUX")]).toEqual([["bob"], ["alice"], ["alice"]]);
    expect([await names("?search=R"), await names("?search=r&first=1&max=1"), await names("?search=nobody")]).toEqual([["bob", "carol"], ["carol"], []]);
    expect((await api.get(`${orgs(r)}/${a.id}/members/count`)).body).toBe(3);
    const one = await api.get(`${orgs(r)}/${a.id}/members/${users[1].id}`);
    expect([one.status, one.body.username, one.body.membershipType]).toEqual([200, "alice", "UNMANAGED"]);
    const mine = await api.get(`${orgs(r)}/members/${users[1].id}/organizations`);
    expect(mine.body.map((o: { id: string }) => o.id)).toEqual([a.id]);
    expect((await api.del(`${orgs(r)}/${a.id}/members/${users[1].id}`)).status).toBe(204);
    const gone = await api.get(`${orgs(r)}/${a.id}/members/${users[1].id}`);
    expect([gone.status, gone.body.error]).toEqual([404, "member_not_found"]);
    expect((await api.del(`${orgs(r)}/${a.id}/members/${users[1].id}`)).status).toBe(404);
    // A renamed member moves in the username order.
    expect((await api.put(`/admin/realms/${r}/users/${users[0].id}`, { username: "aaron" })).status).toBe(200);
    expect(await names("")).toEqual(["aaron", "bob"]);
  });

  it("changes a member's membership type (Keycloak 26.8); a MANAGED member's account then goes with its membership", async () => {
    const r = await realm({ adminEventsEnabled: true });
    const a = await org(r, { name: "Typed" });
    const mia = await user(r, "mia");
    expect((await addMember(r, a.id, mia.id)).status).toBe(201);
    const put = (userId: string, body: string) => http("PUT", `${server.url}${orgs(r)}/${a.id}/members/${userId}/membership-type`, {
      body, headers: { "X-Admin-API-Key": server.apiKey },
    });
    const changed = await put(mia.id, JSON.stringify("MANAGED"));
    expect([changed.status, changed.text]).toEqual([204, ""]);
    expect((await api.get(`${orgs(r)}/${a.id}/members/${mia.id}`)).body.membershipType).toBe("MANAGED");
    expect((await put(mia.id, JSON.stringify("MANAGED"))).status).toBe(204);
    const bogus = await put(mia.id, JSON.stringify("OWNED"));
    expect([bogus.status, bogus.body]).toEqual([400, { error: "invalid_request", message: "membershipType must be one of UNMANAGED, MANAGED", field: "membershipType" }]);
    const notString = await put(mia.id, JSON.stringify({ membershipType: "MANAGED" }));
    expect([notString.status, notString.body.error, notString.body.field]).toEqual([400, "invalid_request", "membershipType"]);
    const stranger = await user(r, "sam");
    const notMember = await put(stranger.id, JSON.stringify("MANAGED"));
    expect([notMember.status, notMember.body.error]).toEqual([404, "member_not_found"]);
    const events = await eventually(async () => (await api.get(`/admin/realms/${r}/admin-events?resourceType=ORGANIZATION_MEMBERSHIP`)).body as Array<Record<string, string>>,
      (e) => e.some((x) => x.operationType === "UPDATE"));
    // One UPDATE: the second PUT of the same type changed nothing.
    expect(events.filter((e) => e.operationType === "UPDATE").map((e) => [e.resourcePath, JSON.parse(e.representation!).membershipType]))
      .toEqual([[`organizations/${a.id}/members/${mia.id}/membership-type`, "MANAGED"]]);
    expect((await api.del(`${orgs(r)}/${a.id}/members/${mia.id}`)).status).toBe(204);
    expect((await api.get(`/admin/realms/${r}/users/${mia.id}`)).status).toBe(404);
  });

  it("deleting an organization ends its memberships, never its users; deleting a user ends theirs", async () => {
    const r = await realm();
    const a = await org(r, { name: "A", domains: [{ name: "a.com" }] });
    const b = await org(r, { name: "B" });
    const u = await user(r, "dora");
    const v = await user(r, "eve");
    for (const [o, x] of [[a, u], [b, u], [b, v]]) expect((await addMember(r, o.id, x.id)).status).toBe(201);
    expect((await api.del(`${orgs(r)}/${a.id}`)).status).toBe(204);
    expect((await api.get(`/admin/realms/${r}/users/${u.id}`)).status).toBe(200);
    expect((await api.get(`${orgs(r)}/members/${u.id}/organizations`)).body.map((o: { id: string }) => o.id)).toEqual([b.id]);
    expect((await api.get(`${orgs(r)}/${a.id}/members`)).status).toBe(404);
    expect((await api.del(`/admin/realms/${r}/users/${u.id}`)).status).toBe(204);
    expect((await api.get(`${orgs(r)}/${b.id}/members`)).body.map((m: { username: string }) => m.username)).toEqual(["eve"]);
    expect((await api.get(`${orgs(r)}/${b.id}/members/count`)).body).toBe(1);
  });

  it("records ORGANIZATION and ORGANIZATION_MEMBERSHIP admin events", async () => {
    const r = await realm({ adminEventsEnabled: true });
    const a = await org(r, { name: "audited" });
    const u = await user(r, "fay");
    await api.put(`${orgs(r)}/${a.id}`, { description: "d" });
    await addMember(r, a.id, u.id);
    await addMember(r, a.id, u.id); // 409: no second event
    await api.del(`${orgs(r)}/${a.id}/members/${u.id}`);
    await api.del(`${orgs(r)}/${a.id}`);
    const events = await eventually(() => api.get(`/admin/realms/${r}/admin-events`),
      (x) => x.body.filter((e: { resourceType: string }) => e.resourceType.startsWith("ORGANIZATION")).length >= 5);
    const summary = events.body
      .filter((e: { resourceType: string }) => e.resourceType.startsWith("ORGANIZATION"))
      .map((e: { operationType: string; resourceType: string; resourcePath: string }) => [e.operationType, e.resourceType, e.resourcePath])
      .reverse();
    expect(summary).toEqual([
      ["CREATE", "ORGANIZATION", `organizations/${a.id}`],
      ["UPDATE", "ORGANIZATION", `organizations/${a.id}`],
      ["CREATE", "ORGANIZATION_MEMBERSHIP", `organizations/${a.id}/members/${u.id}`],
      ["DELETE", "ORGANIZATION_MEMBERSHIP", `organizations/${a.id}/members/${u.id}`],
      ["DELETE", "ORGANIZATION", `organizations/${a.id}`],
    ]);
  });

  it("travels in the realm export and comes back with its domains, roles, members and grants on import", async () => {
    const r = await realm();
    const a = await org(r, { name: "Acme", alias: "acme", domains: [{ name: "acme.test", verified: true }], attributes: { tier: ["gold"] }, redirectUrl: "https://acme.test/" });
    const u = await user(r, "ivy");
    expect((await addMember(r, a.id, u.id)).status).toBe(201);
    for (const role of [{ name: "billing", description: "pays" }, { name: "admin" }]) expect((await api.post(`${orgs(r)}/${a.id}/roles`, role)).status).toBe(201);
    expect((await api.post(`${orgs(r)}/${a.id}/members/${u.id}/roles`, [{ name: "billing" }])).status).toBe(204);
    const doc = structuredClone((await api.get(`/admin/realms/${r}/export?includeUsers=true`)).body);
    expect(doc.organizations).toEqual([{
      id: a.id, name: "Acme", alias: "acme", enabled: true, description: "", redirectUrl: "https://acme.test/",
      domains: [{ name: "acme.test", verified: true }], attributes: { tier: ["gold"] }, identityProviders: [],
      roles: [{ name: "admin", description: "" }, { name: "billing", description: "pays" }],
    }]);
    const ivy = doc.users.find((x: { id: string }) => x.id === u.id);
    expect([ivy.organizations, ivy.organizationRoles]).toEqual([["acme"], { acme: ["billing"] }]);
    const broken = { ...doc, organizations: [...doc.organizations, { ...doc.organizations[0], id: "other", name: "Other", alias: "other" }],
      users: doc.users.map((x: Record<string, unknown>) => ({ ...x, organizations: ["ghost"], organizationRoles: { acme: ["billing"], ghost: ["x"] } })) };
    const refused = await api.post("/admin/realms/import", broken);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('domain \\"acme.test\\" is also used at $.organizations[0].domains[0].name');
    expect(JSON.stringify(refused.body)).toContain('no organization \\"ghost\\" in organizations');
    expect(JSON.stringify(refused.body)).toContain('the user is not a member of organization \\"acme\\"');
    const unknownRole = { ...doc, users: doc.users.map((x: Record<string, unknown>) => (x.id === u.id ? { ...x, organizationRoles: { acme: ["owner"] } } : x)) };
    const noRole = await api.post("/admin/realms/import?overwrite=true", unknownRole);
    expect([noRole.status, noRole.body.problems]).toEqual([400, [{ path: `$.users[${doc.users.indexOf(ivy)}].organizationRoles.acme[0]`, message: 'no role "owner" in organization "acme"' }]]);

    expect((await api.del(`/admin/realms/${r}`)).status).toBe(200);
    expect((await api.post("/admin/realms/import", doc)).status).toBe(201);
    expect((await api.get(`${orgs(r)}/${a.id}`)).body).toEqual({ ...a, attributes: { tier: ["gold"] } });
    expect((await api.get(`${orgs(r)}/${a.id}/members`)).body.map((m: { username: string }) => m.username)).toEqual(["ivy"]);
    expect((await api.get(`${orgs(r)}/${a.id}/roles`)).body).toEqual([{ name: "admin", description: "" }, { name: "billing", description: "pays" }]);
    expect((await api.get(`${orgs(r)}/${a.id}/members/${u.id}/roles`)).body).toEqual([{ name: "billing", description: "pays" }]);
    // The domain's claim came back with it.
    expect((await api.post(orgs(r), { name: "Copycat", domains: [{ name: "acme.test" }] })).status).toBe(409);
  });

  it("defines organization roles and grants them to members; deleting a role or the membership revokes it", async () => {
    const r = await realm({ adminEventsEnabled: true });
    const a = await org(r, { name: "A" });
    const u = await user(r, "kim");
    const roles = `${orgs(r)}/${a.id}/roles`;
    const create = await api.post(roles, { name: "billing", description: "pays" });
    expect([create.status, create.body]).toEqual([201, { name: "billing", description: "pays" }]);
    expect((await api.post(roles, { name: "admin" })).status).toBe(201);
    const dup = await api.post(roles, { name: "admin" });
    expect([dup.status, dup.body]).toEqual([409, { error: "conflict", message: 'the organization already has a role named "admin"', field: "name" }]);
    expect((await api.post(roles, { name: "no spaces" })).status).toBe(400);
    expect((await api.get(roles)).body).toEqual([{ name: "admin", description: "" }, { name: "billing", description: "pays" }]);

    const mine = `${orgs(r)}/${a.id}/members/${u.id}/roles`;
    const notMember = await api.post(mine, [{ name: "admin" }]);
    expect([notMember.status, notMember.body.error]).toEqual([404, "member_not_found"]);
    expect((await addMember(r, a.id, u.id)).status).toBe(201);
    const unknownRole = await api.post(mine, [{ name: "nope" }]);
    expect([unknownRole.status, unknownRole.body]).toEqual([404, { error: "role_not_found", message: `role "nope" of organization "${a.id}" not found` }]);
    expect((await api.post(mine, [{ name: "admin" }, "billing"])).status).toBe(204);
    expect((await api.get(mine)).body.map((x: { name: string }) => x.name)).toEqual(["admin", "billing"]);
    expect((await api.del(mine, ["billing"])).status).toBe(204);
    expect((await api.get(mine)).body.map((x: { name: string }) => x.name)).toEqual(["admin"]);
    expect((await api.del(`${roles}/admin`)).status).toBe(204);
    expect((await api.get(mine)).body).toEqual([]);
    expect((await api.del(`${roles}/admin`)).status).toBe(404);
    expect((await api.post(mine, ["billing"])).status).toBe(204);
    expect((await api.del(`${orgs(r)}/${a.id}/members/${u.id}`)).status).toBe(204);
    expect((await addMember(r, a.id, u.id)).status).toBe(201);
    expect((await api.get(mine)).body).toEqual([]);
    const events = await eventually(() => api.get(`/admin/realms/${r}/admin-events?resourceType=ORGANIZATION_ROLE_MAPPING`), (x) => x.body.length >= 4);
    expect(events.body.map((e: { operationType: string }) => e.operationType).reverse()).toEqual(["CREATE", "CREATE", "DELETE", "CREATE"]);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
