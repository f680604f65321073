import { readFileSync } from "node:fs";
import { adminApi, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Users Admin API (spec 2.2, 4.2, 8), in every run mode. Each test makes its own realm.
describe.each(targets())("users ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  const bodies: string[] = [];

  beforeAll(async () => {
    server = await target.start("users");
    const raw = adminApi(server.url, server.apiKey);
    // Every response body is kept, for the redaction check at the end.
    const keep = <T extends { text: string }>(p: Promise<T>) => p.then((r) => { bodies.push(r.text); return r; });
    api = {
      get: (p) => keep(raw.get(p)), post: (p, b) => keep(raw.post(p, b)), put: (p, b) => keep(raw.put(p, b)),
      del: (p, b) => keep(raw.del(p, b)), call: (m, p, b, h) => keep(raw.call(m, p, b, h)),
    } as typeof raw;
  }, 90_000);
  afterAll(async () => server?.stop());

  async function realm(extra: Record<string, unknown> = {}): Promise<string> {
    const name = uniqueName("users");
    const res = await api.post("/admin/realms", { name, ...extra });
    expect(res.status).toBe(201);
    return name;
  }

  const users = (r: string) => `/admin/realms/${r}/users`;

  describe("create", () => {
    it("creates a user with defaults and returns it without any password field", async () => {
      const r = await realm();
      const res = await api.post(users(r), { username: "  Alice  ", password: "correct-horse" });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/), username: "Alice", email: "", firstName: "", lastName: "",
        enabled: true, emailVerified: false, requirePasswordReset: false, requiredActions: [],
        createdAt: expect.any(String), updatedAt: expect.any(String),
      });
      expect(res.text).not.toContain("correct-horse");
      const got = await api.get(`${users(r)}/${res.body.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(res.body);
    });

    it("accepts every create field including the migration flags", async () => {
      const r = await realm();
      const body = {
        username: "bob", email: "Bob@Example.test", firstName: "Bob", lastName: "Builder",
        enabled: false, emailVerified: true, requirePasswordReset: true,
      };
      const res = await api.post(users(r), body);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject(body);
    });

    it("applies spec 8 edges: username 1 vs 2 characters, password 7 vs 8 characters", async () => {
      const r = await realm();
      const one = await api.post(users(r), { username: "a" });
      expect(one.status).toBe(400);
      expect(one.body).toEqual({ error: "invalid_request", message: "username must be at least 2 characters", field: "username" });
      const padded = await api.post(users(r), { username: " a " });
      expect(padded.status).toBe(400);
      expect((await api.post(users(r), { username: "ab" })).status).toBe(201);
      const seven = await api.post(users(r), { username: "pw7", password: "1234567" });
      expect(seven.status).toBe(400);
      expect(seven.body).toEqual({
        error: "invalid_password", message: "password does not meet the password policy: at least 8 characters", field: "password",
      });
      expect((await api.post(users(r), { username: "pw7" })).status).toBe(201); // nothing was left behind
      expect((await api.post(users(r), { username: "pw8", password: "12345678" })).status).toBe(201);
      expect((await api.post(users(r), { username: "x".repeat(255) })).status).toBe(201);
      expect((await api.post(users(r), { username: "y".repeat(256) })).body).toEqual({
        error: "invalid_request", message: "username must be at most 255 characters", field: "username",
      });
    });

    it.each([
      [{}, 400, { error: "invalid_request", message: "username is required", field: "username" }],
      [{ username: "ok", email: "not-an-email" }, 400, { error: "invalid_request", message: "email must be a valid email address", field: "email" }],
      [{ username: "ok", id: "x" }, 400, { error: "unknown_field", message: "unknown or read-only field: id", field: "id" }],
      [{ username: "ok", createdAt: "x" }, 400, { error: "unknown_field", message: "unknown or read-only field: createdAt", field: "createdAt" }],
      [{ username: "ok", enabled: "yes" }, 400, { error: "invalid_field", message: "enabled must be a boolean", field: "enabled" }],
      [{ username: 12 }, 400, { error: "invalid_field", message: "username must be a string", field: "username" }],
    ])("refuses %j", async (body, status, error) => {
      const r = await realm();
      const res = await api.post(users(r), body);
      expect(res.status).toBe(status);
      expect(res.body).toEqual(error);
    });

    it("answers 404 for an unknown realm", async () => {
      const res = await api.post(users("no-such-realm-x"), { username: "ok" });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "realm_not_found", message: 'realm "no-such-realm-x" not found' });
    });

    it("keeps usernames and emails unique per realm, case-insensitively", async () => {
      const r = await realm();
      expect((await api.post(users(r), { username: "Carol", email: "carol@example.test" })).status).toBe(201);
      const dupName = await api.post(users(r), { username: "cAROL" });
      expect(dupName.status).toBe(409);
      expect(dupName.body).toEqual({ error: "conflict", message: 'username "cAROL" already exists', field: "username" });
      const dupMail = await api.post(users(r), { username: "carol2", email: "CAROL@example.TEST" });
      expect(dupMail.status).toBe(409);
      expect(dupMail.body).toEqual({ error: "conflict", message: 'email "CAROL@example.TEST" already exists', field: "email" });
      // Two users without email never collide; another realm is independent.
      expect((await api.post(users(r), { username: "noMail1" })).status).toBe(201);
      expect((await api.post(users(r), { username: "noMail2" })).status).toBe(201);
      const other = await realm();
      expect((await api.post(users(other), { username: "carol", email: "carol@example.test" })).status).toBe(201);
    });

    it("lets exactly one of many concurrent creations of a username win", async () => {
      const r = await realm();
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) =>
        api.post(users(r), { username: i % 2 ? "racer" : "RACER" })));
      const statuses = results.map((x) => x.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(11);
      for (const x of results.filter((y) => y.status === 409)) expect(x.body.field).toBe("username");
      expect((await api.get(`${users(r)}?username=racer`)).body.total).toBe(1);
    });
  });

  describe("list", () => {
    it("pages with skip/limit defaults 0/50 and filters", async () => {
      const r = await realm();
      for (const u of [
        { username: "hank", email: "hank@corp.test", firstName: "Henry", lastName: "Zed" },
        { username: "ivy", email: "ivy@home.test", firstName: "Ivy", lastName: "Corporal", enabled: false },
        { username: "jack", email: "jack@corp.test", firstName: "Jack", lastName: "Black" },
      ]) expect((await api.post(users(r), u)).status).toBe(201);
      const all = await api.get(users(r));
      expect(all.status).toBe(200);
      expect(all.body.total).toBe(3);
      expect(all.body.users.map((u: { username: string }) => u.username)).toEqual(["hank", "ivy", "jack"]);
      const names = async (q: string) => {
        const res = await api.get(`${users(r)}?${q}`);
        expect(res.status).toBe(200);
        return [res.body.total, res.body.users.map((u: { username: string }) => u.username)];
      };
      expect(await names("search=CORP")).toEqual([3, ["hank", "ivy", "jack"]]); // email and lastName
      expect(await names("search=henr")).toEqual([1, ["hank"]]);
      expect(await names("search=%25")).toEqual([0, []]); // a literal %, not a wildcard
      expect(await names("username=JACK")).toEqual([1, ["jack"]]);
      expect(await names("username=jac")).toEqual([0, []]);
      expect(await names("email=IVY@home.test")).toEqual([1, ["ivy"]]);
      expect(await names("enabled=false")).toEqual([1, ["ivy"]]);
      expect(await names("enabled=true&search=corp")).toEqual([2, ["hank", "jack"]]);
      expect(await names("skip=1&limit=1")).toEqual([3, ["ivy"]]);
      expect(await names("skip=3")).toEqual([3, []]);
      expect(await names("skip=100")).toEqual([3, []]);
      expect(await names("limit=5000")).toEqual([3, ["hank", "ivy", "jack"]]); // capped at 1000, not refused
    });

    it.each([
      ["skip=-1", "skip", "skip must be a non-negative integer"],
      ["skip=1.5", "skip", "skip must be a non-negative integer"],
      ["limit=abc", "limit", "limit must be a non-negative integer"],
      ["limit=0", "limit", "limit must be an integer between 1 and 1000"],
      ["enabled=yes", "enabled", "enabled must be true or false"],
    ])("refuses %s", async (q, field, message) => {
      const r = await realm();
      const res = await api.get(`${users(r)}?${q}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "invalid_request", message, field });
    });

    it("lists a 1,000-user realm in pages, ordered, with no duplicates or gaps", async () => {
      const r = await realm();
      const created: string[] = [];
      for (let batch = 0; batch < 20; batch++) {
        const res = await Promise.all(Array.from({ length: 50 }, (_, i) =>
          api.post(users(r), { username: `bulk-${String(batch * 50 + i).padStart(4, "0")}` })));
        for (const x of res) {
          expect(x.status).toBe(201);
          created.push(x.body.id);
        }
      }
      const seen: Array<{ id: string; createdAt: string }> = [];
      for (let skip = 0; skip < 1000; skip += 70) {
        const page = await api.get(`${users(r)}?skip=${skip}&limit=70`);
        expect(page.status).toBe(200);
        expect(page.body.total).toBe(1000);
        seen.push(...page.body.users);
      }
      expect(seen).toHaveLength(1000);
      expect(new Set(seen.map((u) => u.id)).size).toBe(1000);
      expect(new Set(seen.map((u) => u.id))).toEqual(new Set(created));
      for (let i = 1; i < seen.length; i++) {
        const a = seen[i - 1]!;
        const b = seen[i]!;
        const ta = Date.parse(a.createdAt);
        const tb = Date.parse(b.createdAt);
        expect([i, ta < tb || (ta === tb && a.id < b.id)]).toEqual([i, true]);
      }
      const whole = await api.get(`${users(r)}?limit=1000`);
      expect(whole.body.users.map((u: { id: string }) => u.id)).toEqual(seen.map((u) => u.id));
      const def = await api.get(users(r));
      expect(def.body.users).toHaveLength(50);
      // A hang guard, not a bound: the cluster tier's 1,000 creations took 99 s on an idle 2-core machine.
    }, 300_000);
  });

  describe("get, update, delete", () => {
    it("updates only the fields sent", async () => {
      const r = await realm();
      const u = (await api.post(users(r), { username: "kate", email: "kate@example.test", firstName: "Kate" })).body;
      const res = await api.put(`${users(r)}/${u.id}`, { lastName: "Bush" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ username: "kate", email: "kate@example.test", firstName: "Kate", lastName: "Bush" });
      const renamed = await api.put(`${users(r)}/${u.id}`, { username: "Katherine", email: "", enabled: false, emailVerified: true, requirePasswordReset: true });
      expect(renamed.body).toMatchObject({ username: "Katherine", email: "", enabled: false, emailVerified: true, requirePasswordReset: true });
      expect((await api.get(`${users(r)}/${u.id}`)).body).toEqual(renamed.body);
      // Its own username in another case is not a conflict.
      expect((await api.put(`${users(r)}/${u.id}`, { username: "KATHERINE" })).status).toBe(200);
    });

    it("keeps attributes (Keycloak's string lists): set on create, replaced by an update that sends them, cleared by {}", async () => {
      const r = await realm();
      const created = await api.post(users(r), { username: "nina", attributes: { phoneNumber: ["+1 555 0100"], street: ["1 Main St"] } });
      expect(created.status).toBe(201);
      expect(created.body.attributes).toEqual({ phoneNumber: ["+1 555 0100"], street: ["1 Main St"] });
      const path = `${users(r)}/${created.body.id}`;
      expect((await api.get(path)).body.attributes).toEqual({ phoneNumber: ["+1 555 0100"], street: ["1 Main St"] });
      // An update without attributes leaves them; one with attributes replaces them all.
      expect((await api.put(path, { firstName: "Nina" })).body.attributes).toEqual({ phoneNumber: ["+1 555 0100"], street: ["1 Main St"] });
      const replaced = await api.put(path, { attributes: { locality: ["Springfield", "Shelbyville"] } });
      expect(replaced.status).toBe(200);
      expect(replaced.body.attributes).toEqual({ locality: ["Springfield", "Shelbyville"] });
      expect((await api.get(`${users(r)}?username=nina`)).body.users[0].attributes).toEqual({ locality: ["Springfield", "Shelbyville"] });
      const cleared = await api.put(path, { attributes: {} });
      expect(cleared.status).toBe(200);
      expect(cleared.body).not.toHaveProperty("attributes"); // none: spec 2.2's shape

      // Not an object at all: the gateway's JSON reading refuses it.
      const list = await api.put(path, { attributes: ["a"] });
      expect([list.status, list.body]).toEqual([400, { error: "invalid_field", message: "attributes must be an object", field: "attributes" }]);
      const bad = "attributes must be an object of string arrays";
      const cases: Array<[unknown, string]> = [
        [{ phone: "+1" }, bad],
        [{ phone: [1] }, bad],
        [{ "1st": ["x"] }, 'attribute name "1st" must start with a letter or _ and use letters, digits, _ and -'],
        [{ "a.b": ["x"] }, 'attribute name "a.b" must start with a letter or _ and use letters, digits, _ and -'],
        [Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`a${i}`, ["x"]])), "at most 100 attributes"],
        [{ many: Array(101).fill("x") }, "at most 100 values per attribute"],
        [{ long: ["x".repeat(2049)] }, "attribute values have at most 2048 characters"],
      ];
      for (const [attributes, message] of cases) {
        const res = await api.put(path, { attributes });
        expect([res.status, res.body]).toEqual([400, { error: "invalid_request", message, field: "attributes" }]);
        const create = await api.post(users(r), { username: uniqueName("bad"), attributes });
        expect([create.status, create.body]).toEqual([400, { error: "invalid_request", message, field: "attributes" }]);
      }
      expect((await api.get(path)).body).not.toHaveProperty("attributes"); // nothing half-applied
    });

    it("refuses bad updates with exact errors", async () => {
      const r = await realm();
      const a = (await api.post(users(r), { username: "leo", email: "leo@example.test" })).body;
      await api.post(users(r), { username: "mia", email: "mia@example.test" });
      const cases: Array<[unknown, number, unknown]> = [
        [{ username: "MIA" }, 409, { error: "conflict", message: 'username "MIA" already exists', field: "username" }],
        [{ email: "Mia@example.test" }, 409, { error: "conflict", message: 'email "Mia@example.test" already exists', field: "email" }],
        [{ username: "m" }, 400, { error: "invalid_request", message: "username must be at least 2 characters", field: "username" }],
        [{ password: "whatever-123" }, 400, { error: "unknown_field", message: "unknown or read-only field: password", field: "password" }],
        [{ id: "x" }, 400, { error: "unknown_field", message: "unknown or read-only field: id", field: "id" }],
        [{ email: "bad" }, 400, { error: "invalid_request", message: "email must be a valid email address", field: "email" }],
      ];
      for (const [body, status, error] of cases) {
        const res = await api.put(`${users(r)}/${a.id}`, body);
        expect([res.status, res.body]).toEqual([status, error]);
      }
    });

    it("answers 404 for unknown users on every user path", async () => {
      const r = await realm();
      const id = "00000000-0000-4000-8000-000000000000";
      const notFound = { error: "user_not_found", message: `user "${id}" not found` };
      for (const [method, path, body] of [
        ["GET", "", undefined], ["PUT", "", {}], ["DELETE", "", undefined],
        ["PUT", "/reset-password", { password: "long-enough-1" }], ["PUT", "/send-verification-email", undefined],
        ["GET", "/offline-sessions", undefined], ["DELETE", "/offline-sessions/abc", undefined],
      ] as const) {
        const res = await api.call(method, `${users(r)}/${id}${path}`, body);
        expect([method, path, res.status, res.body]).toEqual([method, path, 404, notFound]);
      }
    });

    it("deletes with 204, then 404; a user of another realm is not visible", async () => {
      const r = await realm();
      const other = await realm();
      const u = (await api.post(users(r), { username: "ned", password: "password-1" })).body;
      expect((await api.get(`${users(other)}/${u.id}`)).status).toBe(404);
      const del = await api.del(`${users(r)}/${u.id}`);
      expect(del.status).toBe(204);
      expect(del.text).toBe("");
      expect((await api.get(`${users(r)}/${u.id}`)).status).toBe(404);
      expect((await api.del(`${users(r)}/${u.id}`)).status).toBe(404);
      // The name is free again.
      expect((await api.post(users(r), { username: "ned" })).status).toBe(201);
    });

    it("offline sessions: an empty list, and 404 for a token id (no offline tokens are issued yet)", async () => {
      const r = await realm();
      const u = (await api.post(users(r), { username: "olga" })).body;
      const list = await api.get(`${users(r)}/${u.id}/offline-sessions`);
      expect([list.status, list.body]).toEqual([200, []]);
      const del = await api.del(`${users(r)}/${u.id}/offline-sessions/tok-1`);
      expect([del.status, del.body]).toEqual([404, { error: "offline_session_not_found", message: 'offline session "tok-1" not found' }]);
    });

    it("answers 405 with Allow for a wrong method", async () => {
      const r = await realm();
      const res = await api.call("PATCH", users(r));
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST, GET, HEAD");
    });
  });

  describe("admin events and redaction", () => {
    it("records USER admin events for every mutation without secrets; no password reaches a body or the log", async () => {
      const canary = `Canary-${Date.now()}-Pw9!`;
      const r = await realm({ adminEventsEnabled: true });
      const u = (await api.post(users(r), { username: "sam", email: "sam@example.test", password: canary })).body;
      const canary2 = `${canary}-second`;
      expect((await api.put(`${users(r)}/${u.id}`, { firstName: "Samuel" })).status).toBe(200);
      expect((await api.put(`${users(r)}/${u.id}/reset-password`, { password: canary2 })).status).toBe(204);
      // A failing password is not echoed either.
      const bad = await api.post(users(r), { username: "sam2", password: `${canary}`.slice(0, 5) });
      expect(bad.status).toBe(400);
      expect((await api.del(`${users(r)}/${u.id}`)).status).toBe(204);
      const events = await eventually(() => api.get(`/admin/realms/${r}/admin-events?resourceType=USER`), (x) => x.body.length >= 4);
      const summary = events.body.map((e: { operationType: string; resourcePath: string }) => [e.operationType, e.resourcePath]).reverse();
      expect(summary).toEqual([
        ["CREATE", `users/${u.id}`],
        ["UPDATE", `users/${u.id}`],
        ["ACTION", `users/${u.id}/reset-password`],
        ["DELETE", `users/${u.id}`],
      ]);
      const created = JSON.parse(events.body[3].representation);
      expect(created).toMatchObject({ id: u.id, username: "sam", email: "sam@example.test" });
      expect(created).not.toHaveProperty("password");
      expect(events.text).not.toContain(canary);
      expect(events.text).not.toMatch(/argon2/);
      for (const b of bodies) {
        expect(b).not.toContain(canary);
        expect(b).not.toMatch(/\$argon2id\$/);
      }
      if (server.process) {
        const log = readFileSync(server.process.logFile, "utf8");
        expect(log.length).toBeGreaterThan(0);
        expect(log).not.toContain(canary);
        expect(log).not.toMatch(/\$argon2id\$/);
      }
    });

    it("records nothing when the realm has admin events disabled", async () => {
      const r = await realm();
      await api.post(users(r), { username: "tina" });
      const events = await api.get(`/admin/realms/${r}/admin-events`);
      expect([events.status, events.body]).toEqual([200, []]);
    });
  });

  describe("realm deletion cascade", () => {
    it("drops the realm's users; a re-created realm of the same name starts empty", async () => {
      const r = await realm();
      const u = (await api.post(users(r), { username: "uma", password: "password-1" })).body;
      expect((await api.del(`/admin/realms/${r}`)).status).toBe(200);
      expect((await api.get(`${users(r)}/${u.id}`)).status).toBe(404);
      expect((await api.post("/admin/realms", { name: r })).status).toBe(201);
      const list = await api.get(users(r));
      expect(list.body).toEqual({ total: 0, users: [] });
      expect((await api.post(users(r), { username: "uma" })).status).toBe(201);
      if (server.process) {
        // The consumer of realm.deleted reports what it dropped (user + credential + history).
        const logFile = server.process.logFile;
        const line = await eventually(async () => readFileSync(logFile, "utf8").split("\n")
          .find((l) => l.includes("realm data deleted") && l.includes(`"realm":"${r}"`)), (l) => l !== undefined);
        expect(JSON.parse(line!).deleted).toBeGreaterThanOrEqual(2);
      }
    });
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
