import { adminApi, uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Brute-force administration over HTTP (spec 4.13, DESIGN 7). No HTTP login path exists on this
// branch, so lockouts themselves are covered in-process (services/directory/src/brute-force.test.ts);
// here: the routes, methods, statuses and bodies.
describe.each(targets())("brute-force admin ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  beforeAll(async () => {
    server = await target.start("brute-force-admin");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  async function realmWithUser(): Promise<{ realm: string; userId: string }> {
    const realm = uniqueName("bf");
    expect((await api.post("/admin/realms", { name: realm, bruteForceEnabled: true, adminEventsEnabled: true })).status).toBe(201);
    const user = await api.post(`/admin/realms/${realm}/users`, { username: "locked-out", password: "correct-horse" });
    expect(user.status).toBe(201);
    return { realm, userId: user.body.id };
  }

  it("lists no locked users in a fresh realm", async () => {
    const { realm } = await realmWithUser();
    const res = await api.get(`/admin/realms/${realm}/brute-force/locked-users`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it("unlocks with POST (204, idempotent), 404 for an unknown user or realm, 405 for other methods", async () => {
    const { realm, userId } = await realmWithUser();
    const unlock = (r: string, id: string) => api.post(`/admin/realms/${r}/brute-force/users/${id}/unlock`);
    const res = await unlock(realm, userId);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await unlock(realm, userId)).status).toBe(204);
    const unknown = await unlock(realm, "00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "user_not_found", message: 'user "00000000-0000-4000-8000-000000000000" not found' });
    expect((await unlock("no-such-realm", userId)).status).toBe(404);
    const wrong = await api.get(`/admin/realms/${realm}/brute-force/users/${userId}/unlock`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    expect((await api.get("/admin/realms/no-such-realm/brute-force/locked-users")).status).toBe(404);
  });

  it("requires the admin credential", async () => {
    const { realm } = await realmWithUser();
    const res = await fetch(`${server.url}/admin/realms/${realm}/brute-force/locked-users`);
    expect(res.status).toBe(401);
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
