import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";
import { exportSchemaProblems } from "./support/realm-export-schema.js";

const recorded = recordResponses();
const PW = "Group-Attr-Pass-1";
const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

// Keycloak's group attributes: kept and validated as a user's, inherited by members in the user
// attribute mapper (KeycloakModelUtils.resolveAttribute: the user's own values, else the nearest
// group's up the parent chain; "aggregate.attrs" joins them all), read by a flow's attribute
// condition with includeGroupAttributes, and carried by realm export and import.
describe.each(targets())("group attributes ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let realm: string;
  let secret: string;
  let org: { id: string };
  let eng: { id: string };
  const admin = () => `/admin/realms/${realm}`;
  const token = (username: string) => http("POST", `${server.url}/realms/${realm}/protocol/openid-connect/token`, {
    form: { grant_type: "password", username, password: PW, scope: "openid", client_id: "app", client_secret: secret },
  });
  const claims = async (username: string) => {
    const res = await token(username);
    expect(res.status).toBe(200);
    const { dept, sites } = decode(res.body.access_token);
    return { dept, sites };
  };

  beforeAll(async () => {
    server = await target.start("group-attributes");
    api = adminApi(server.url, server.apiKey);
    realm = uniqueName("gattr");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const app = await api.post(`${admin()}/clients`, { clientId: "app", grantTypes: ["password"] });
    expect(app.status).toBe(201);
    secret = app.body.secret;
    const scope = await api.post(`${admin()}/client-scopes`, { name: "org-data" });
    expect(scope.status).toBe(201);
    const mapper = (name: string, config: Record<string, string>) => api.post(`${admin()}/client-scopes/${scope.body.id}/protocol-mappers`, {
      name, mapperType: "oidc-usermodel-attribute-mapper", config: { "access.token.claim": "true", ...config },
    });
    expect((await mapper("dept", { "user.attribute": "dept", "claim.name": "dept" })).status).toBe(201);
    expect((await mapper("sites", { "user.attribute": "site", "claim.name": "sites", multivalued: "true", "aggregate.attrs": "true" })).status).toBe(201);
    expect((await api.post(`${admin()}/clients/app/default-client-scopes`, { clientScopeId: scope.body.id })).status).toBe(200);

    const o = await api.post(`${admin()}/groups`, { name: "org", attributes: { dept: ["org-wide"], site: ["lisbon"] } });
    expect(o.status).toBe(201);
    org = o.body;
    const e = await api.post(`${admin()}/groups`, { name: "eng", parentId: org.id, attributes: { dept: ["engineering"], site: ["porto", "lisbon"] } });
    expect(e.status).toBe(201);
    eng = e.body;
    for (const [username, attributes] of [["ana", { site: ["home"] }], ["bo", { dept: ["own"] }], ["cy", {}]] as const) {
      const u = await api.post(`${admin()}/users`, { username, password: PW, attributes });
      expect(u.status).toBe(201);
      if (username !== "cy") expect((await api.put(`${admin()}/users/${u.body.id}/groups/${eng.id}`, {})).status).toBe(200);
    }
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    expectResponsesDocumented(recorded);
  });

  it("keeps attributes on create, in the tree and the single read; an update that sends them replaces them, {} clears them", async () => {
    const path = `${admin()}/groups/${org.id}`;
    expect((await api.get(path)).body).toMatchObject({ id: org.id, attributes: { dept: ["org-wide"], site: ["lisbon"] } });
    const tree = await api.get(`${admin()}/groups`);
    expect(tree.body.find((g: { id: string }) => g.id === org.id)).toMatchObject({
      attributes: { dept: ["org-wide"], site: ["lisbon"] }, subGroups: [expect.objectContaining({ id: eng.id, attributes: { dept: ["engineering"], site: ["porto", "lisbon"] } })],
    });
    const scratch = await api.post(`${admin()}/groups`, { name: "scratch", attributes: { a: ["1"] } });
    const scratchPath = `${admin()}/groups/${scratch.body.id}`;
    expect((await api.put(scratchPath, { description: "kept" })).body.attributes).toEqual({ a: ["1"] });
    const replaced = await api.put(scratchPath, { attributes: { b: ["2", "3"] } });
    expect([replaced.status, replaced.body.attributes, replaced.body.description]).toEqual([200, { b: ["2", "3"] }, "kept"]);
    const cleared = await api.put(scratchPath, { attributes: {} });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty("attributes");
    expect((await api.get(`${admin()}/users/${(await api.get(`${admin()}/users?username=ana`)).body.users[0].id}/groups`)).body)
      .toEqual([expect.objectContaining({ id: eng.id, attributes: { dept: ["engineering"], site: ["porto", "lisbon"] } })]);
    expect((await api.del(scratchPath)).status).toBe(200);
  });

  it.each([
    ["a string value", { phone: "+1" }, "attributes must be an object of string arrays"],
    ["a name with a dot", { "a.b": ["x"] }, 'attribute name "a.b" must start with a letter or _ and use letters, digits, _ and -'],
    ["101 values", { many: Array(101).fill("x") }, "at most 100 values per attribute"],
  ])("refuses attributes with %s on create and update, changing nothing", async (_what, attributes, message) => {
    const create = await api.post(`${admin()}/groups`, { name: uniqueName("bad"), attributes });
    expect([create.status, create.body]).toEqual([400, { error: "invalid_request", message, field: "attributes" }]);
    const update = await api.put(`${admin()}/groups/${org.id}`, { attributes });
    expect([update.status, update.body]).toEqual([400, { error: "invalid_request", message, field: "attributes" }]);
    expect((await api.get(`${admin()}/groups/${org.id}`)).body.attributes).toEqual({ dept: ["org-wide"], site: ["lisbon"] });
  });

  it("puts the user's own value first, else the nearest group's; aggregates every value once when asked", async () => {
    expect(await claims("ana")).toEqual({ dept: "engineering", sites: ["home", "porto", "lisbon"] });
    expect(await claims("bo")).toEqual({ dept: "own", sites: ["porto", "lisbon"] });
    expect(await claims("cy")).toEqual({ dept: undefined, sites: undefined });
  });

  it("reads a group's change in the next token: a cleared subgroup falls back to its parent's values", async () => {
    expect((await api.put(`${admin()}/groups/${eng.id}`, { attributes: {} })).status).toBe(200);
    expect(await claims("ana")).toEqual({ dept: "org-wide", sites: ["home", "lisbon"] });
    expect((await api.put(`${admin()}/groups/${eng.id}`, { attributes: { dept: ["engineering"], site: ["porto", "lisbon"] } })).status).toBe(200);
    expect(await claims("ana")).toEqual({ dept: "engineering", sites: ["home", "porto", "lisbon"] });
  });

  it("runs a flow's attribute condition on group attributes only with includeGroupAttributes", async () => {
    const deny = (includeGroupAttributes?: string) => ({
      type: "subflow", requirement: "CONDITIONAL", steps: [
        { type: "condition-user-attribute", requirement: "REQUIRED", config: { attribute: "dept", value: "engineering", ...(includeGroupAttributes ? { includeGroupAttributes } : {}) } },
        { type: "deny", requirement: "REQUIRED" },
      ],
    });
    const UP = { type: "username-password", requirement: "REQUIRED" };
    const flow = await api.post(`${admin()}/authentication/flows`, { alias: "no engineers", steps: [UP, deny()] });
    expect(flow.status).toBe(201);
    expect((await api.put(admin(), { directGrantFlow: "no engineers" })).status).toBe(200);
    try {
      expect((await token("ana")).status).toBe(200); // her own attributes hold no dept
      expect((await api.put(`${admin()}/authentication/flows/${flow.body.id}`, { steps: [UP, deny("true")] })).status).toBe(200);
      const denied = await token("ana");
      expect([denied.status, denied.body]).toEqual([400, { error: "invalid_grant", error_description: "Access denied" }]);
      expect((await token("cy")).status).toBe(200);
      const bad = await api.put(`${admin()}/authentication/flows/${flow.body.id}`, { steps: [UP, deny("yes")] });
      expect([bad.status, bad.body.field]).toEqual([400, "steps[1].steps[0].config.includeGroupAttributes"]);
    } finally {
      expect((await api.put(admin(), { directGrantFlow: "direct grant" })).status).toBe(200);
    }
  });

  it("exports group attributes and imports them back, refusing a document with bad ones", async () => {
    const exported = await api.get(`${admin()}/export`);
    expect(exported.status).toBe(200);
    expect(exportSchemaProblems(exported.body)).toEqual([]);
    const orgDoc = exported.body.groups.find((g: { name: string }) => g.name === "org");
    expect(orgDoc).toMatchObject({ attributes: { dept: ["org-wide"], site: ["lisbon"] }, subGroups: [{ name: "eng", attributes: { dept: ["engineering"], site: ["porto", "lisbon"] } }] });

    const broken = structuredClone(exported.body);
    broken.groups.find((g: { name: string }) => g.name === "org").subGroups[0].attributes = { "no spaces": ["x"] };
    const refused = await api.post("/admin/realms/import?overwrite=true", broken);
    expect(refused.status).toBe(400);
    const at = exported.body.groups.findIndex((g: { name: string }) => g.name === "org");
    expect(refused.body.problems).toEqual([{ path: `$.groups[${at}].subGroups[0].attributes`, message: 'attribute name "no spaces" must start with a letter or _ and use letters, digits, _ and -' }]);

    // The realm replaced by its own export: the groups come back with their attributes.
    expect((await api.put(`${admin()}/groups/${org.id}`, { attributes: {} })).status).toBe(200);
    const imported = await api.post("/admin/realms/import?overwrite=true", exported.body);
    expect(imported.status).toBe(201);
    const groups = (await api.get(`${admin()}/groups`)).body as Array<{ name: string; attributes?: unknown; subGroups: Array<{ attributes?: unknown }> }>;
    const back = groups.find((g) => g.name === "org")!;
    expect([back.attributes, back.subGroups[0]!.attributes]).toEqual([{ dept: ["org-wide"], site: ["lisbon"] }, { dept: ["engineering"], site: ["porto", "lisbon"] }]);
  });
});
