import { adminApi, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Group role mappings (spec 4.6) over HTTP, now that groups and roles share one directory.
describe.each(targets())("group role mappings ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await target.start("group-role-mappings");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  it("assigns, lists, counts and removes a group's realm roles; refuses unknown names whole", async () => {
    const r = uniqueName("grm");
    expect((await api.post("/admin/realms", { name: r })).status).toBe(201);
    for (const name of ["editor", "viewer"]) expect((await api.post(`/admin/realms/${r}/roles`, { name })).status).toBe(201);
    const g = (await api.post(`/admin/realms/${r}/groups`, { name: "staff" })).body;
    const path = `/admin/realms/${r}/groups/${g.id}/role-mappings`;

    expect((await api.get(path)).body).toEqual([]);
    const bad = await api.post(path, { roleNames: ["editor", "ghost"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("unknown_roles");
    expect(bad.body.message).toContain("ghost");
    expect((await api.get(path)).body).toEqual([]); // nothing half-applied

    const ok = await api.post(path, { roleNames: ["editor", "viewer"] });
    expect(ok.status).toBe(200);
    expect([...ok.body.roleNames].sort()).toEqual(["editor", "viewer"]);
    expect((await api.get(path)).body.map((x: { name: string }) => x.name).sort()).toEqual(["editor", "viewer"]);
    expect((await api.get(`/admin/realms/${r}/groups/${g.id}`)).body.roleCount).toBe(2);

    const removed = await api.del(path, { roleNames: ["viewer"] });
    expect(removed.status).toBe(200);
    expect(removed.body.roleNames).toEqual(["viewer"]);
    expect((await api.get(path)).body.map((x: { name: string }) => x.name)).toEqual(["editor"]);
    expect((await api.get(`/admin/realms/${r}/groups/${g.id}`)).body.roleCount).toBe(1);

    expect((await api.get(`/admin/realms/${r}/groups/00000000-0000-4000-8000-000000000000/role-mappings`)).status).toBe(404);
    expect((await api.post(path, {})).status).toBe(400);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
