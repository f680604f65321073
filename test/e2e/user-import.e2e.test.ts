import bcrypt from "bcryptjs";
import { adminApi, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// User import over HTTP (spec 4.2, DESIGN 5 and 7). Logging in with the imported hashes is covered
// in-process (services/directory/src/user-import.test.ts): no HTTP login path exists on this branch.
describe.each(targets())("user import ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  beforeAll(async () => {
    server = await target.start("user-import");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  async function realm(): Promise<string> {
    const name = uniqueName("import");
    expect((await api.post("/admin/realms", { name })).status).toBe(201);
    return name;
  }
  const importPath = (r: string) => `/admin/realms/${r}/users/import`;

  it("imports {users: [...]} with hashes and migration flags, per-user results", async () => {
    const r = await realm();
    const res = await api.post(importPath(r), {
      users: [
        { username: "Hashed", email: "hashed@example.test", emailVerified: true, requirePasswordReset: true,
          credentials: [{ type: "password", hashedSaltedValue: await bcrypt.hash("migrated-pw", 4), algorithm: "bcrypt" }] },
        { username: "plain", password: "plain-password" },
        { username: "hashed" },
        "not-an-object",
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      imported: 2, skipped: 1, failed: 1,
      errors: [
        { index: 2, username: "hashed", error: "conflict", message: 'username "hashed" already exists' },
        { index: 3, username: "", error: "invalid_request", message: "each user must be a JSON object" },
      ],
    });
    expect(res.text).not.toContain("migrated-pw");
    const list = await api.get(`/admin/realms/${r}/users?username=hashed`);
    expect(list.body.users[0]).toMatchObject({ username: "Hashed", email: "hashed@example.test", emailVerified: true, requirePasswordReset: true, enabled: true });
    expect(JSON.stringify(list.body)).not.toMatch(/\$2[aby]\$/);
  });

  it("records each imported user's CREATE USER and the import's summary with its counts, in a realm with admin events", async () => {
    const r = uniqueName("import");
    expect((await api.post("/admin/realms", { name: r, adminEventsEnabled: true })).status).toBe(201);
    await api.post(importPath(r), [{ username: "taken" }]);
    const res = await api.post(importPath(r), [
      { username: "ana", password: "ana-password", email: "ana@example.test" },
      { username: "taken" },
      { username: "bo", credentials: [{ type: "password", hashedSaltedValue: await bcrypt.hash("bo-password", 4), algorithm: "bcrypt" }] },
      { username: "x", password: "short" },
    ]);
    expect(res.body).toMatchObject({ imported: 2, skipped: 1, failed: 1 });
    const ids = Object.fromEntries(((await api.get(`/admin/realms/${r}/users`)).body.users as { id: string; username: string }[]).map((u) => [u.username, u.id]));
    type Event = { operationType: string; resourceType: string; resourcePath: string; representation: string };
    const events = await eventually(() => api.get(`/admin/realms/${r}/admin-events?resourceType=USER`), (x) => x.body.length >= 5);
    // Sorted: two events of one millisecond may list either way.
    const mine = (events.body as Event[]).map((e) => `${e.operationType} ${e.resourcePath} ${e.operationType === "ACTION" ? e.representation : JSON.parse(e.representation).username}`).sort();
    expect(mine).toEqual([
      `ACTION users/import {"imported":1,"skipped":0,"failed":0}`,
      `ACTION users/import {"imported":2,"skipped":1,"failed":1}`,
      `CREATE users/${ids.ana} ana`,
      `CREATE users/${ids.bo} bo`,
      `CREATE users/${ids.taken} taken`,
    ].sort());
    const ana = (events.body as Event[]).find((e) => e.resourcePath === `users/${ids.ana}`)!;
    expect(JSON.parse(ana.representation)).toMatchObject({ id: ids.ana, username: "ana", email: "ana@example.test", enabled: true });
    expect(JSON.stringify(events.body)).not.toMatch(/ana-password|bo-password|\$2[aby]\$/);
  });

  it("accepts a bare array", async () => {
    const r = await realm();
    const res = await api.post(importPath(r), [{ username: "one" }, { username: "two" }]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ imported: 2, skipped: 0, failed: 0, errors: [] });
    expect((await api.get(`/admin/realms/${r}/users`)).body.total).toBe(2);
  });

  it("refuses bad bodies, more than 10,000 users, unknown realms and other methods", async () => {
    const r = await realm();
    const bad = await api.post(importPath(r), { people: [] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "unknown_field", message: "unknown field: people", field: "people" });
    expect((await api.post(importPath(r), { users: "x" })).status).toBe(400);
    const many = await api.post(importPath(r), { users: Array.from({ length: 10_001 }, (_, i) => ({ username: `u${i}` })) });
    expect(many.status).toBe(413);
    expect(many.body.error).toBe("too_many_users");
    expect((await api.post(importPath("no-such-realm"), { users: [] })).status).toBe(404);
    const wrong = await api.get(importPath(r));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
