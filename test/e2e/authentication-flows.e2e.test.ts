import { adminApi, recordResponses, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";
import { exportSchemaProblems } from "./support/realm-export-schema.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

const UP = { type: "username-password", requirement: "REQUIRED" };
const ROLE_OTP = { type: "otp", requirement: "CONDITIONAL", condition: { type: "condition-user-role", config: { role: "admin" } } };

// The Admin API of authentication flows (docs/authentication-flows.md), in every run mode.
describe.each(targets())("authentication flows admin ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await target.start("authentication-flows");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  async function realm(extra: Record<string, unknown> = {}): Promise<string> {
    const name = uniqueName("flows");
    expect((await api.post("/admin/realms", { name, ...extra })).status).toBe(201);
    return name;
  }
  const flows = (r: string) => `/admin/realms/${r}/authentication/flows`;

  it("lists the built-in flows, which are neither changed nor deleted, and the realm's defaults name them", async () => {
    const r = await realm();
    const list = await api.get(flows(r));
    expect(list.status).toBe(200);
    expect(list.body.map((f: { id: string; alias: string; builtIn: boolean }) => [f.id, f.alias, f.builtIn])).toEqual([
      ["builtin-browser", "browser", true], ["builtin-direct-grant", "direct grant", true],
    ]);
    expect(list.body[1].steps).toEqual([
      { type: "username-password", requirement: "REQUIRED" },
      { type: "otp", requirement: "CONDITIONAL", condition: { type: "condition-user-configured" } },
      { type: "required-actions", requirement: "REQUIRED" },
    ]);
    expect(await api.put(`${flows(r)}/builtin-browser`, { description: "x" })).toMatchObject({
      status: 400, body: { error: "builtin_flow", message: 'the built-in flow "browser" cannot be changed or deleted', field: "id" },
    });
    expect((await api.del(`${flows(r)}/builtin-direct-grant`)).status).toBe(400);
    expect((await api.get(`/admin/realms/${r}`)).body).toMatchObject({ browserFlow: "browser", directGrantFlow: "direct grant" });
  });

  it("creates (201, Location), reads, updates (fields sent), pages and deletes (204) a flow", async () => {
    const r = await realm();
    const res = await api.post(flows(r), { alias: "otp for admins", description: "d", steps: [UP, ROLE_OTP] });
    expect(res.status).toBe(201);
    const id = res.body.id as string;
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), alias: "otp for admins", description: "d", builtIn: false, steps: [UP, ROLE_OTP],
      createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    expect(res.headers.get("location")).toBe(`${flows(r)}/${id}`);
    expect(await api.get(`${flows(r)}/${id}`)).toMatchObject({ status: 200, body: res.body });
    const upd = await api.put(`${flows(r)}/${id}`, { ...res.body, description: "changed" });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ alias: "otp for admins", description: "changed", steps: [UP, ROLE_OTP] });
    expect((await api.post(flows(r), { alias: "b", steps: [UP] })).status).toBe(201);
    expect((await api.post(flows(r), { alias: "a", steps: [UP] })).status).toBe(201);
    const aliases = async (q: string) => ((await api.get(`${flows(r)}${q}`)).body as Array<{ alias: string }>).map((f) => f.alias);
    expect(await aliases("")).toEqual(["browser", "direct grant", "a", "b", "otp for admins"]);
    expect(await aliases("?first=1&max=2")).toEqual(["direct grant", "a"]);
    expect(await aliases("?first=3&max=5")).toEqual(["b", "otp for admins"]);
    expect(await api.get(`${flows(r)}?max=0`)).toMatchObject({ status: 400, body: { field: "max" } });
    expect(await api.get(`${flows(r)}?first=-1`)).toMatchObject({ status: 400, body: { field: "first" } });
    const del = await api.del(`${flows(r)}/${id}`);
    expect(del.status).toBe(204);
    expect(await api.get(`${flows(r)}/${id}`)).toMatchObject({
      status: 404, body: { error: "flow_not_found", message: `authentication flow "${id}" not found` },
    });
    expect((await api.del(`${flows(r)}/${id}`)).status).toBe(404);
  });

  it.each([
    [{ steps: [UP] }, { error: "invalid_request", message: "alias is required", field: "alias" }],
    [{ alias: "x" }, { error: "invalid_request", message: "steps must be a non-empty array", field: "steps" }],
    [{ alias: "x", steps: [UP], bogus: 1 }, { error: "unknown_field", message: "unknown or read-only field: bogus", field: "bogus" }],
    [{ alias: "x", steps: [{ type: "magic", requirement: "REQUIRED" }] }, { error: "invalid_request", field: "steps[0].type" }],
    [{ alias: "x", steps: [{ ...UP, requirement: "SOMETIMES" }] },
      { error: "invalid_request", message: "steps[0].requirement must be one of REQUIRED, ALTERNATIVE, CONDITIONAL, DISABLED", field: "steps[0].requirement" }],
    [{ alias: "x", steps: [UP, { type: "otp", requirement: "CONDITIONAL" }] },
      { error: "invalid_request", message: "steps[1].condition is required with requirement CONDITIONAL", field: "steps[1].condition" }],
    [{ alias: "x", steps: [UP, { type: "deny", requirement: "REQUIRED" }] },
      { error: "invalid_request", message: "steps[1] is a REQUIRED deny: the flow can never succeed", field: "steps[1]" }],
    [{ alias: "x", steps: [{ type: "otp", requirement: "REQUIRED" }] },
      { error: "invalid_request", message: "the flow can never succeed: no enabled step identifies the user (username-password, username, passkey or idp-redirector)", field: "steps" }],
    [{ alias: "x", steps: [UP, { type: "email-otp", requirement: "REQUIRED", config: { digits: "8" } }] },
      { error: "invalid_request", message: "unknown config key steps[1].config.digits", field: "steps[1].config.digits" }],
  ])("refuses %j with 400 naming the field", async (body, error) => {
    const r = await realm();
    const res = await api.post(flows(r), body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(error);
  });

  it("keeps aliases unique (409), refuses unknown aliases in realm and client settings (400), and a flow in use cannot go (409)", async () => {
    const r = await realm({ adminEventsEnabled: true });
    const flow = (await api.post(flows(r), { alias: "strict", steps: [UP, ROLE_OTP] })).body;
    expect(await api.post(flows(r), { alias: "strict", steps: [UP] })).toMatchObject({
      status: 409, body: { error: "conflict", message: 'a flow with alias "strict" already exists', field: "alias" },
    });
    expect(await api.post(flows(r), { alias: "browser", steps: [UP] })).toMatchObject({ status: 409, body: { field: "alias" } });
    expect(await api.put(`/admin/realms/${r}`, { directGrantFlow: "nope" })).toMatchObject({
      status: 400, body: { error: "invalid_request", message: 'directGrantFlow: no authentication flow with alias "nope" in this realm', field: "directGrantFlow" },
    });
    expect(await api.post("/admin/realms", { name: uniqueName("flows"), browserFlow: "strict" })).toMatchObject({ status: 400, body: { field: "browserFlow" } });
    expect(await api.post(`/admin/realms/${r}/clients`, { clientId: "c1", browserFlowOverride: "nope" })).toMatchObject({
      status: 400, body: { error: "invalid_request", message: 'browserFlowOverride: no authentication flow with alias "nope" in this realm', field: "browserFlowOverride" },
    });
    const client = await api.post(`/admin/realms/${r}/clients`, { clientId: "c1", directGrantFlowOverride: "strict" });
    expect(client.status).toBe(201);
    expect(client.body).toMatchObject({ directGrantFlowOverride: "strict" });
    expect(client.body).not.toHaveProperty("browserFlowOverride");
    expect(await api.del(`${flows(r)}/${flow.id}`)).toMatchObject({
      status: 409, body: { error: "flow_in_use", message: 'flow "strict" is used by client "c1"', field: "id" },
    });
    expect((await api.put(`/admin/realms/${r}/clients/c1`, { directGrantFlowOverride: "" })).status).toBe(200);
    expect((await api.put(`/admin/realms/${r}`, { browserFlow: "strict" })).body).toMatchObject({ browserFlow: "strict", directGrantFlow: "direct grant" });
    expect(await api.put(`${flows(r)}/${flow.id}`, { alias: "renamed" })).toMatchObject({
      status: 409, body: { error: "flow_in_use", message: `flow "strict" is used by the realm's browserFlow: its alias cannot change`, field: "alias" },
    });
    expect(await api.del(`${flows(r)}/${flow.id}`)).toMatchObject({ status: 409, body: { message: `flow "strict" is used by the realm's browserFlow` } });
    expect((await api.put(`/admin/realms/${r}`, { browserFlow: "browser" })).status).toBe(200);
    expect((await api.del(`${flows(r)}/${flow.id}`)).status).toBe(204);
    const flowEvents = async () => ((await api.get(`/admin/realms/${r}/admin-events`)).body as any[]).filter((e) => e.resourceType === "AUTH_FLOW");
    const events = await eventually(flowEvents, (e) => e.length >= 2);
    expect(events.map((e) => [e.operationType, e.resourcePath])).toEqual([
      ["DELETE", `authentication/flows/${flow.id}`], ["CREATE", `authentication/flows/${flow.id}`],
    ]);
    expect(JSON.parse(events[1].representation)).toMatchObject({ alias: "strict", steps: [UP, ROLE_OTP] });
  });
});

describe.each(targets())("authentication flows export and import ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await target.start("authentication-flows-transfer");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  it("exports the realm's flows and the realm and client bindings, and imports them back", async () => {
    const r = uniqueName("flowsx");
    expect((await api.post("/admin/realms", { name: r })).status).toBe(201);
    const flow = (await api.post(`/admin/realms/${r}/authentication/flows`, { alias: "strict", description: "d", steps: [UP, ROLE_OTP] })).body;
    expect((await api.put(`/admin/realms/${r}`, { directGrantFlow: "strict" })).status).toBe(200);
    expect((await api.post(`/admin/realms/${r}/clients`, { clientId: "c1", browserFlowOverride: "strict" })).status).toBe(201);
    const exported = await api.get(`/admin/realms/${r}/export`);
    expect(exported.status).toBe(200);
    const doc = exported.body;
    expect(exportSchemaProblems(doc)).toEqual([]);
    expect(doc.authenticationFlows).toEqual([{ id: flow.id, alias: "strict", description: "d", steps: [UP, ROLE_OTP] }]);
    expect(doc.realm).toMatchObject({ directGrantFlow: "strict" });
    expect(doc.realm).not.toHaveProperty("browserFlow");
    expect(doc.clients.find((c: { clientId: string }) => c.clientId === "c1")).toMatchObject({ browserFlowOverride: "strict" });

    const broken = structuredClone(doc);
    broken.realm.browserFlow = "missing";
    broken.authenticationFlows[0].steps[1].requirement = "SOMETIMES";
    const refused = await api.post("/admin/realms/import?overwrite=true", broken);
    expect(refused.status).toBe(400);
    expect(refused.body.problems).toEqual(expect.arrayContaining([
      { path: "$.authenticationFlows[0].steps[1].requirement", message: "steps[1].requirement must be one of REQUIRED, ALTERNATIVE, CONDITIONAL, DISABLED" },
      { path: "$.realm.browserFlow", message: 'no authentication flow "missing" in authenticationFlows' },
    ]));

    expect((await api.post("/admin/realms/import?overwrite=true", doc)).status).toBe(201);
    const flows = (await api.get(`/admin/realms/${r}/authentication/flows`)).body as Array<{ id: string; alias: string; steps: unknown }>;
    expect(flows.map((f) => [f.id, f.alias])).toEqual([["builtin-browser", "browser"], ["builtin-direct-grant", "direct grant"], [flow.id, "strict"]]);
    expect(flows[2]!.steps).toEqual([UP, ROLE_OTP]);
    expect((await api.get(`/admin/realms/${r}`)).body).toMatchObject({ browserFlow: "browser", directGrantFlow: "strict" });
    expect((await api.get(`/admin/realms/${r}/clients/c1`)).body).toMatchObject({ browserFlowOverride: "strict" });
    expect((await api.del(`/admin/realms/${r}/authentication/flows/${flow.id}`)).status).toBe(409);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expectResponsesDocumented(recorded);
  });
});
