import { adminApi, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { recordResponses } from "./support/http.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

// Groups and memberships (spec 2.5, 4.6), in every run mode. Each test makes its own realm.
describe.each(targets())("groups ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;

  beforeAll(async () => {
    server = await target.start("groups");
    api = adminApi(server.url, server.apiKey);
  }, 90_000);
  afterAll(async () => server?.stop());

  async function realm(extra: Record<string, unknown> = {}): Promise<string> {
    const name = uniqueName("groups");
    expect((await api.post("/admin/realms", { name, ...extra })).status).toBe(201);
    return name;
  }
  const groups = (r: string) => `/admin/realms/${r}/groups`;
  async function group(r: string, body: Record<string, unknown>) {
    const res = await api.post(groups(r), body);
    expect(res.status).toBe(201);
    return res.body;
  }
  async function user(r: string, username: string) {
    const res = await api.post(`/admin/realms/${r}/users`, { username });
    expect(res.status).toBe(201);
    return res.body;
  }

  it("creates top-level and nested groups with paths", async () => {
    const r = await realm();
    const eng = await group(r, { name: "Engineering", description: "builders" });
    expect(eng).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "Engineering", description: "builders", parentId: "",
      path: "/Engineering", subGroups: [], createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    const be = await group(r, { name: "Backend", parentId: eng.id });
    expect(be).toMatchObject({ name: "Backend", parentId: eng.id, path: "/Engineering/Backend" });
    const db = await group(r, { name: "DB", parentId: be.id });
    expect(db.path).toBe("/Engineering/Backend/DB");
  });

  it.each([
    [{}, 400, { error: "invalid_request", message: "name is required", field: "name" }],
    [{ name: "" }, 400, { error: "invalid_request", message: "name must be at least 1 characters", field: "name" }],
    [{ name: "a/b" }, 400, { error: "invalid_request", message: "name must not contain '/'", field: "name" }],
    [{ name: "ok", bogus: 1 }, 400, { error: "unknown_field", message: "unknown or read-only field: bogus", field: "bogus" }],
    [{ name: "ok", path: "/x" }, 400, { error: "unknown_field", message: "unknown or read-only field: path", field: "path" }],
    [{ name: 5 }, 400, { error: "invalid_field", message: "name must be a string", field: "name" }],
    [{ name: "ok", parentId: "00000000-0000-4000-8000-000000000000" }, 404,
      { error: "group_not_found", message: 'parent group "00000000-0000-4000-8000-000000000000" not found' }],
  ])("refuses %j", async (body, status, error) => {
    const r = await realm();
    const res = await api.post(groups(r), body);
    expect([res.status, res.body]).toEqual([status, error]);
  });

  it("keeps sibling names unique (409), allows the same name under another parent", async () => {
    const r = await realm();
    const a = await group(r, { name: "A" });
    const b = await group(r, { name: "B" });
    const dup = await api.post(groups(r), { name: "A" });
    expect([dup.status, dup.body]).toEqual([409, { error: "conflict", message: 'a sibling group named "A" already exists', field: "name" }]);
    await group(r, { name: "Team", parentId: a.id });
    await group(r, { name: "Team", parentId: b.id });
    const dupChild = await api.post(groups(r), { name: "Team", parentId: a.id });
    expect(dupChild.status).toBe(409);
    // A parent of another realm is not found.
    const other = await realm();
    const cross = await api.post(groups(other), { name: "X", parentId: a.id });
    expect(cross.status).toBe(404);
  });

  it("lists the tree of top-level groups with nested subGroups", async () => {
    const r = await realm();
    const b = await group(r, { name: "b" });
    const a = await group(r, { name: "a" });
    const a1 = await group(r, { name: "a1", parentId: a.id });
    const a1x = await group(r, { name: "x", parentId: a1.id });
    const res = await api.get(groups(r));
    expect(res.status).toBe(200);
    const shape = (g: { name: string; path: string; subGroups: unknown[] }): unknown =>
      ({ name: g.name, path: g.path, subGroups: (g.subGroups as typeof g[]).map(shape) });
    expect(res.body.map(shape)).toEqual([
      { name: "a", path: "/a", subGroups: [{ name: "a1", path: "/a/a1", subGroups: [{ name: "x", path: "/a/a1/x", subGroups: [] }] }] },
      { name: "b", path: "/b", subGroups: [] },
    ]);
    expect(res.body[0].subGroups[0].subGroups[0].id).toBe(a1x.id);
    expect(res.body[1].id).toBe(b.id);
    expect(res.body[0]).not.toHaveProperty("memberCount");
  });

  it("gets one group with subGroups, memberCount and roleCount", async () => {
    const r = await realm();
    const g = await group(r, { name: "ops" });
    const child = await group(r, { name: "oncall", parentId: g.id });
    const u1 = await user(r, "ann");
    const u2 = await user(r, "ben");
    await api.put(`/admin/realms/${r}/users/${u1.id}/groups/${g.id}`);
    await api.put(`/admin/realms/${r}/users/${u2.id}/groups/${g.id}`);
    const res = await api.get(`${groups(r)}/${g.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: g.id, name: "ops", memberCount: 2, roleCount: 0 });
    expect(res.body.subGroups.map((s: { id: string }) => s.id)).toEqual([child.id]);
    const missing = await api.get(`${groups(r)}/00000000-0000-4000-8000-000000000000`);
    expect([missing.status, missing.body]).toEqual([404, {
      error: "group_not_found", message: 'group "00000000-0000-4000-8000-000000000000" not found',
    }]);
  });

  it("updates name and description; a rename rewrites the descendants' paths", async () => {
    const r = await realm();
    const top = await group(r, { name: "old" });
    const mid = await group(r, { name: "mid", parentId: top.id });
    const leaf = await group(r, { name: "leaf", parentId: mid.id });
    await group(r, { name: "taken" });
    const desc = await api.put(`${groups(r)}/${top.id}`, { description: "new words" });
    expect(desc.body).toMatchObject({ name: "old", description: "new words", path: "/old" });
    const res = await api.put(`${groups(r)}/${top.id}`, { name: "new" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "new", description: "new words", path: "/new" });
    expect(res.body.subGroups[0]).toMatchObject({ id: mid.id, path: "/new/mid" });
    expect((await api.get(`${groups(r)}/${leaf.id}`)).body.path).toBe("/new/mid/leaf");
    const clash = await api.put(`${groups(r)}/${top.id}`, { name: "taken" });
    expect([clash.status, clash.body]).toEqual([409, { error: "conflict", message: 'a sibling group named "taken" already exists', field: "name" }]);
    const ro = await api.put(`${groups(r)}/${top.id}`, { parentId: mid.id });
    expect([ro.status, ro.body.field]).toEqual([400, "parentId"]);
    const gone = await api.put(`${groups(r)}/00000000-0000-4000-8000-000000000000`, { name: "x" });
    expect(gone.status).toBe(404);
  });

  it("deletes a subtree with its memberships and returns the deleted group", async () => {
    const r = await realm();
    const top = await group(r, { name: "top" });
    const sub = await group(r, { name: "sub", parentId: top.id });
    const keep = await group(r, { name: "top2" }); // "top2" shares a prefix with "top" but is not in its subtree
    const u = await user(r, "cat");
    await api.put(`/admin/realms/${r}/users/${u.id}/groups/${sub.id}`);
    await api.put(`/admin/realms/${r}/users/${u.id}/groups/${keep.id}`);
    const del = await api.del(`${groups(r)}/${top.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: top.id, name: "top", path: "/top" });
    expect(del.body.subGroups.map((s: { id: string }) => s.id)).toEqual([sub.id]);
    expect((await api.get(`${groups(r)}/${sub.id}`)).status).toBe(404);
    expect((await api.get(groups(r))).body.map((g: { id: string }) => g.id)).toEqual([keep.id]);
    const mine = await api.get(`/admin/realms/${r}/users/${u.id}/groups`);
    expect(mine.body.map((g: { id: string }) => g.id)).toEqual([keep.id]);
    expect((await api.del(`${groups(r)}/${top.id}`)).status).toBe(404);
  });

  it("adds (idempotently), lists and removes memberships", async () => {
    const r = await realm();
    const g = await group(r, { name: "club" });
    const h = await group(r, { name: "guild" });
    const u = await user(r, "dan");
    const base = `/admin/realms/${r}/users/${u.id}/groups`;
    const add = await api.put(`${base}/${g.id}`);
    expect([add.status, add.body]).toEqual([200, { userId: u.id, groupId: g.id }]);
    const again = await api.put(`${base}/${g.id}`);
    expect([again.status, again.body]).toEqual([200, { userId: u.id, groupId: g.id }]);
    await api.put(`${base}/${h.id}`);
    const mine = await api.get(base);
    expect(mine.status).toBe(200);
    expect(mine.body.map((x: { path: string }) => x.path)).toEqual(["/club", "/guild"]);
    const members = await api.get(`${groups(r)}/${g.id}/members`);
    expect(members.status).toBe(200);
    expect(members.body).toEqual([expect.objectContaining({ id: u.id, username: "dan" })]);
    expect(members.body[0]).not.toHaveProperty("password");
    const rm = await api.del(`${base}/${g.id}`);
    expect([rm.status, rm.body]).toEqual([200, { userId: u.id, groupId: g.id }]);
    const rmAgain = await api.del(`${base}/${g.id}`);
    expect([rmAgain.status, rmAgain.body]).toEqual([404, {
      error: "membership_not_found", message: `membership of user "${u.id}" in group "${g.id}" not found`,
    }]);
    expect((await api.get(`${groups(r)}/${g.id}`)).body.memberCount).toBe(0);
  });

  it("lists members by username, case-insensitively, and follows a rename", async () => {
    const r = await realm();
    const g = await group(r, { name: "sorted" });
    const made: Record<string, string> = {};
    for (const name of ["zed", "amy", "Bob"]) {
      made[name] = (await user(r, name)).id;
      expect((await api.put(`/admin/realms/${r}/users/${made[name]}/groups/${g.id}`)).status).toBe(200);
    }
    const names = async () => (await api.get(`${groups(r)}/${g.id}/members`)).body.map((u: { username: string }) => u.username);
    expect(await names()).toEqual(["amy", "Bob", "zed"]);
    expect((await api.put(`/admin/realms/${r}/users/${made.amy}`, { username: "zoe" })).status).toBe(200);
    expect(await names()).toEqual(["Bob", "zed", "zoe"]);
  });

  it("keeps one membership when the same add races", async () => {
    const r = await realm();
    const g = await group(r, { name: "race" });
    const u = await user(r, "rex");
    const res = await Promise.all(Array.from({ length: 8 }, () => api.put(`/admin/realms/${r}/users/${u.id}/groups/${g.id}`)));
    expect(res.map((x) => x.status)).toEqual(Array(8).fill(200));
    expect((await api.get(`${groups(r)}/${g.id}`)).body.memberCount).toBe(1);
  });

  it("answers 404 for an unknown user or group on membership paths", async () => {
    const r = await realm();
    const g = await group(r, { name: "g" });
    const u = await user(r, "eve");
    const none = "00000000-0000-4000-8000-000000000000";
    const noUser = await api.put(`/admin/realms/${r}/users/${none}/groups/${g.id}`);
    expect([noUser.status, noUser.body]).toEqual([404, { error: "user_not_found", message: `user "${none}" not found` }]);
    const noGroup = await api.put(`/admin/realms/${r}/users/${u.id}/groups/${none}`);
    expect([noGroup.status, noGroup.body]).toEqual([404, { error: "group_not_found", message: `group "${none}" not found` }]);
    expect((await api.get(`/admin/realms/${r}/users/${none}/groups`)).status).toBe(404);
    expect((await api.get(`${groups(r)}/${none}/members`)).status).toBe(404);
    expect((await api.get(`/admin/realms/no-such-realm-g/groups`)).status).toBe(404);
  });

  it("pages members with first/max (default 100) and drops a deleted user's memberships", async () => {
    const r = await realm();
    const g = await group(r, { name: "big" });
    const joined: Array<{ id: string; username: string }> = [];
    for (let batch = 0; batch < 3; batch++) {
      const made = await Promise.all(Array.from({ length: 40 }, (_, i) => user(r, `m-${2 - batch}-${i}`)));
      for (const u of made) {
        expect((await api.put(`/admin/realms/${r}/users/${u.id}/groups/${g.id}`)).status).toBe(200);
        joined.push({ id: u.id, username: u.username });
      }
    }
    // Username order, as Keycloak lists members, not joining order (the last 40 to join come first).
    const byUsername = [...joined].sort((a, b) => (a.username < b.username ? -1 : 1)).map((u) => u.id);
    const all = (await api.get(`${groups(r)}/${g.id}/members?max=1000`)).body.map((u: { id: string }) => u.id) as string[];
    expect(all).toEqual(byUsername);
    const def = await api.get(`${groups(r)}/${g.id}/members`);
    expect(def.body).toHaveLength(100);
    expect(def.body.map((u: { id: string }) => u.id)).toEqual(all.slice(0, 100));
    const page = await api.get(`${groups(r)}/${g.id}/members?first=110&max=20`);
    expect(page.body.map((u: { id: string }) => u.id)).toEqual(all.slice(110));
    expect((await api.get(`${groups(r)}/${g.id}/members?first=500`)).body).toEqual([]);
    const zero = await api.get(`${groups(r)}/${g.id}/members?max=0`);
    expect([zero.status, zero.body]).toEqual([400, { error: "invalid_request", message: "max must be an integer between 1 and 1000", field: "max" }]);
    expect((await api.get(`${groups(r)}/${g.id}/members?first=-1`)).status).toBe(400);
    expect((await api.del(`/admin/realms/${r}/users/${all[0]}`)).status).toBe(204);
    expect((await api.get(`${groups(r)}/${g.id}`)).body.memberCount).toBe(119);
    // 240 sequential writes: FerretDB v1 in the cluster tier serialises and fsyncs each one.
  }, 180_000);

  it("records GROUP and GROUP_MEMBERSHIP admin events", async () => {
    const r = await realm({ adminEventsEnabled: true });
    const g = await group(r, { name: "audited" });
    const u = await user(r, "fay");
    await api.put(`${groups(r)}/${g.id}`, { description: "d" });
    await api.put(`/admin/realms/${r}/users/${u.id}/groups/${g.id}`);
    await api.put(`/admin/realms/${r}/users/${u.id}/groups/${g.id}`); // idempotent: no second event
    await api.del(`/admin/realms/${r}/users/${u.id}/groups/${g.id}`);
    await api.del(`${groups(r)}/${g.id}`);
    const events = await eventually(() => api.get(`/admin/realms/${r}/admin-events`),
      (x) => x.body.filter((e: { resourceType: string }) => e.resourceType !== "USER" && e.resourceType !== "REALM").length >= 5);
    const summary = events.body
      .filter((e: { resourceType: string }) => e.resourceType.startsWith("GROUP"))
      .map((e: { operationType: string; resourceType: string; resourcePath: string }) => [e.operationType, e.resourceType, e.resourcePath])
      .reverse();
    expect(summary).toEqual([
      ["CREATE", "GROUP", `groups/${g.id}`],
      ["UPDATE", "GROUP", `groups/${g.id}`],
      ["CREATE", "GROUP_MEMBERSHIP", `users/${u.id}/groups/${g.id}`],
      ["DELETE", "GROUP_MEMBERSHIP", `users/${u.id}/groups/${g.id}`],
      ["DELETE", "GROUP", `groups/${g.id}`],
    ]);
  });

  it("pages the top-level groups, searches names and attributes with their hierarchy, counts, and pages a group's children", async () => {
    const r = await realm();
    const names = (list: Array<{ name: string; subGroups: unknown[] }>): unknown[] =>
      list.map((g) => (g.subGroups.length ? { [g.name]: names(g.subGroups as Array<{ name: string; subGroups: unknown[] }>) } : g.name));
    const eng = await group(r, { name: "eng", attributes: { site: ["lisbon"] } });
    const backend = await group(r, { name: "backend", parentId: eng.id, attributes: { site: ["porto"], tier: ["1"] } });
    await group(r, { name: "db", parentId: backend.id });
    await group(r, { name: "frontend", parentId: eng.id });
    await group(r, { name: "sales", attributes: { site: ["porto"] } });
    await group(r, { name: "team" });
    const list = async (query: string) => {
      const res = await api.get(`${groups(r)}?${query}`);
      expect(res.status).toBe(200);
      return names(res.body);
    };
    // Without parameters the whole tree (spec 4.6); a page holds top-level groups by name, each whole.
    expect(await list("")).toEqual([{ eng: [{ backend: ["db"] }, "frontend"] }, "sales", "team"]);
    expect(await list("first=0&max=2")).toEqual([{ eng: [{ backend: ["db"] }, "frontend"] }, "sales"]);
    expect(await list("first=2")).toEqual(["team"]);
    // A name search keeps the way to each match and a match's whole subtree.
    expect(await list("search=END")).toEqual([{ eng: [{ backend: ["db"] }, "frontend"] }]);
    expect(await list("search=back")).toEqual([{ eng: [{ backend: ["db"] }] }]);
    expect(await list("search=s&max=1")).toEqual(["sales"]);
    expect(await list("search=Team&exact=true")).toEqual([]);
    expect(await list("search=team&exact=true")).toEqual(["team"]);
    // q reads the group's own attributes, every pair required.
    expect(await list("q=site:porto")).toEqual([{ eng: [{ backend: ["db"] }] }, "sales"]);
    expect(await list("q=site:porto%20tier:1")).toEqual([{ eng: [{ backend: ["db"] }] }]);
    expect(await list("q=site:madrid")).toEqual([]);

    const count = async (query: string) => (await api.get(`${groups(r)}/count?${query}`)).body;
    expect(await count("")).toEqual({ count: 6 });
    expect(await count("top=true")).toEqual({ count: 3 });
    expect(await count("search=end")).toEqual({ count: 2 });
    expect(await count("search=end&top=true")).toEqual({ count: 0 });

    const children = async (query: string) => {
      const res = await api.get(`${groups(r)}/${eng.id}/children?${query}`);
      expect(res.status).toBe(200);
      return names(res.body);
    };
    expect(await children("")).toEqual([{ backend: ["db"] }, "frontend"]);
    expect(await children("first=1&max=1")).toEqual(["frontend"]);
    expect(await children("search=FRONT")).toEqual(["frontend"]);

    const refused = async (path: string, field: string, message: string) => {
      const res = await api.get(path);
      expect([res.status, res.body]).toEqual([400, { error: "invalid_request", message, field }]);
    };
    await refused(`${groups(r)}?max=0`, "max", "max must be an integer between 1 and 1000");
    await refused(`${groups(r)}?max=1001`, "max", "max must be an integer between 1 and 1000");
    await refused(`${groups(r)}?first=-1`, "first", "first must be a non-negative integer");
    await refused(`${groups(r)}?exact=yes`, "exact", "exact must be true or false");
    await refused(`${groups(r)}?q=site`, "q", "q must be key:value pairs separated by spaces");
    await refused(`${groups(r)}?q=site:porto&search=s`, "q", "search and q cannot be combined");
    await refused(`${groups(r)}/count?top=1`, "top", "top must be true or false");
    const missing = await api.get(`${groups(r)}/00000000-0000-4000-8000-000000000000/children`);
    expect([missing.status, missing.body]).toEqual([404, { error: "group_not_found", message: 'group "00000000-0000-4000-8000-000000000000" not found' }]);
  });

  it("a realm deleted and re-created under the same name has no groups", async () => {
    const r = await realm();
    await group(r, { name: "ghost" });
    expect((await api.del(`/admin/realms/${r}`)).status).toBe(200);
    expect((await api.post("/admin/realms", { name: r })).status).toBe(201);
    expect((await api.get(groups(r))).body).toEqual([]);
    await group(r, { name: "ghost" });
  });
});

describe("the responses of this file", () => {
  it("match the OpenAPI document (status, media type, body schema)", () => {
    expect(expectResponsesDocumented(recorded)).toBeGreaterThan(0);
  });
});
