import { readFileSync } from "node:fs";
import { adminApi, http, recordResponses, uniqueName } from "./support/http.js";
import { eventually, targets } from "./support/targets.js";
import type { TestServer } from "./support/embedded-server.js";
import { expectResponsesDocumented } from "./support/openapi-check.js";

// Every response this file receives is checked against the OpenAPI document at its end.
const recorded = recordResponses();

const PASSWORD = "a-long-admin-password-1";

// Administrators and what each may do (docs/security.md, "Administrators"), in every run mode.
describe.each(targets())("administrators ($mode)", (target) => {
  let server: TestServer;
  let api: ReturnType<typeof adminApi>;
  let acme: string;
  let other: string;
  const made: string[] = [];

  beforeAll(async () => {
    server = await target.start("administrators");
    api = adminApi(server.url, server.apiKey);
    acme = uniqueName("acme");
    other = uniqueName("other");
    for (const name of [acme, other]) expect((await api.post("/admin/realms", { name })).status).toBe(201);
  }, 90_000);
  afterAll(async () => {
    for (const id of made) await api.del(`/admin/admins/${id}`);
    await api.del(`/admin/realms/${acme}`);
    await api.del(`/admin/realms/${other}`);
    await server?.stop();
  });

  const create = async (body: Record<string, unknown>) => {
    const res = await api.post("/admin/admins", body);
    if (res.status === 201) made.push(res.body.id);
    return res;
  };
  const signIn = async (username: string, password = PASSWORD) => {
    const res = await http("POST", `${server.url}/admin/auth/login`, { body: { username, password } });
    expect(res.status).toBe(200);
    const headers = { Authorization: `Bearer ${res.body.accessToken}` };
    return {
      user: res.body.user,
      call: (method: string, path: string, body?: unknown) => http(method, `${server.url}${path}`, { headers, ...(body !== undefined ? { body } : {}) }),
    };
  };

  it("creates a realm admin that reads what its roles allow and is refused the rest with 403", async () => {
    const username = uniqueName("viewer").toLowerCase();
    const res = await create({ username, password: PASSWORD, realmAccess: [{ realm: acme, roles: ["view-users", "manage-clients"] }] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), username, createdAt: expect.any(String), serverAdmin: false,
      realmAccess: [{ realm: acme, roles: ["view-users", "manage-clients"] }],
    });
    expect(res.text).not.toContain(PASSWORD);

    const viewer = await signIn(username);
    expect(viewer.user).toEqual(res.body);
    expect((await viewer.call("GET", "/admin/auth/me")).body).toEqual(res.body);
    expect((await viewer.call("GET", `/admin/realms/${acme}/users`)).status).toBe(200);
    expect((await viewer.call("GET", `/admin/realms/${acme}/clients`)).status).toBe(200);
    const client = await viewer.call("POST", `/admin/realms/${acme}/clients`, { clientId: "made-by-viewer", redirectUris: ["https://app.example/cb"] });
    expect(client.status).toBe(201);

    const write = await viewer.call("POST", `/admin/realms/${acme}/users`, { username: "someone" });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ error: "forbidden", message: `this needs manage-users (or realm-admin) in realm "${acme}"` });
    expect((await viewer.call("GET", `/admin/realms/${acme}/events`)).status).toBe(403);
    expect((await viewer.call("PUT", `/admin/realms/${acme}`, { displayName: "x" })).status).toBe(403);
    expect((await viewer.call("GET", `/admin/realms/${acme}/export`)).status).toBe(403);
    // Nothing in another realm, not even reading it, and nothing of the server's.
    const elsewhere = await viewer.call("GET", `/admin/realms/${other}/users`);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body).toEqual({ error: "forbidden", message: `this needs view-users (or realm-admin) in realm "${other}"` });
    expect((await viewer.call("POST", "/admin/realms", { name: uniqueName("mine") })).body).toEqual({ error: "forbidden", message: "this needs a server admin" });
    expect((await viewer.call("GET", "/admin/admins")).status).toBe(403);
    expect((await viewer.call("DELETE", `/admin/realms/${acme}`)).status).toBe(403);
    // The realm list shows it its own realm only; a refused body is never parsed (403 before 400).
    const realms = await viewer.call("GET", "/admin/realms");
    expect(realms.status).toBe(200);
    expect(realms.body.map((r: { name: string }) => r.name)).toEqual([acme]);
    expect((await viewer.call("GET", `/admin/realms?search=${acme.slice(0, 6)}&first=0&max=5`)).body.map((r: { name: string }) => r.name)).toEqual([acme]);
    expect((await viewer.call("GET", `/admin/realms?first=1`)).body).toEqual([]);
  });

  it("applies a change of roles to tokens already issued, and a password change or deletion ends the sign-ins", async () => {
    const username = uniqueName("changer").toLowerCase();
    const res = await create({ username, password: PASSWORD, realmAccess: [{ realm: acme, roles: ["view-realm"] }] });
    const admin = await signIn(username);
    expect((await admin.call("GET", `/admin/realms/${acme}/users`)).status).toBe(403);

    const raised = await api.put(`/admin/admins/${res.body.id}`, { realmAccess: [{ realm: acme, roles: ["realm-admin"] }, { realm: other, roles: ["view-events"] }] });
    expect(raised.status).toBe(200);
    expect(raised.body.realmAccess).toEqual([{ realm: acme, roles: ["realm-admin"] }, { realm: other, roles: ["view-events"] }]);
    // Through this gateway at once; through another replica within its 5 s session check.
    expect((await eventually(() => admin.call("GET", `/admin/realms/${acme}/users`), (r) => r.status === 200, 8_000)).status).toBe(200);
    expect((await admin.call("POST", `/admin/realms/${acme}/users`, { username: "made-by-owner" })).status).toBe(201);
    expect((await admin.call("GET", `/admin/realms/${other}/events`)).status).toBe(200);

    const moved = await api.put(`/admin/admins/${res.body.id}`, { password: "another-long-password-2" });
    expect(moved.status).toBe(200);
    expect(moved.body.realmAccess).toEqual(raised.body.realmAccess);
    expect((await eventually(() => admin.call("GET", `/admin/realms/${acme}/users`), (r) => r.status === 401, 8_000)).status).toBe(401);
    const again = await signIn(username, "another-long-password-2");

    expect((await api.del(`/admin/admins/${res.body.id}`)).status).toBe(204);
    made.splice(made.indexOf(res.body.id), 1);
    expect((await eventually(() => again.call("GET", `/admin/realms/${acme}/users`), (r) => r.status === 401, 8_000)).status).toBe(401);
    expect((await api.get(`/admin/admins/${res.body.id}`)).status).toBe(404);
    expect((await http("POST", `${server.url}/admin/auth/login`, { body: { username, password: "another-long-password-2" } })).status).toBe(401);

    // No realm's admin events hold these changes; the server's log does, without a password.
    if (server.process) {
      const logFile = server.process.logFile;
      // The log is written asynchronously: wait for the last line.
      const text = await eventually(async () => readFileSync(logFile, "utf8"), (t) => t.includes("administrator deleted"), 5_000);
      const lines = text.split("\n").filter((l) => l.includes(res.body.id)).map((l) => JSON.parse(l) as { msg: string; actor: { type: string } });
      expect(lines.map((l) => [l.msg, l.actor.type])).toEqual([
        ["administrator created", "api-key"], ["administrator changed", "api-key"], ["administrator changed, password too", "api-key"], ["administrator deleted", "api-key"],
      ]);
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain("another-long-password-2");
    }
  });

  it("validates what it is given and keeps one server admin", async () => {
    const bad = async (body: Record<string, unknown>) => (await create(body)).body;
    expect(await bad({ username: "Upper", password: PASSWORD })).toMatchObject({ error: "invalid_request", field: "username" });
    expect(await bad({ username: uniqueName("short").toLowerCase(), password: "short" })).toEqual({ error: "invalid_request", message: "password must be at least 12 characters", field: "password" });
    expect(await bad({ username: uniqueName("r").toLowerCase(), password: PASSWORD, realmAccess: [{ realm: acme, roles: ["superuser"] }] }))
      .toMatchObject({ error: "invalid_request", field: "realmAccess[0].roles" });
    expect(await bad({ username: uniqueName("r").toLowerCase(), password: PASSWORD, realmAccess: [{ realm: "Not A Realm", roles: ["view-users"] }] }))
      .toMatchObject({ error: "invalid_request", field: "realmAccess[0].realm" });
    expect(await bad({ username: uniqueName("r").toLowerCase(), password: PASSWORD, passwordHash: "x" })).toMatchObject({ error: "unknown_field", field: "passwordHash" });
    const name = uniqueName("twice").toLowerCase();
    expect((await create({ username: name, password: PASSWORD })).status).toBe(201);
    const dup = await create({ username: name, password: PASSWORD });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: "admin_exists", message: `an admin named "${name}" already exists`, field: "username" });

    // The listing pages by username and finds a part of it.
    const listed = await api.get(`/admin/admins?search=${name.slice(0, 12)}&max=10`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((a: { username: string }) => a.username)).toEqual([name]);
    expect((await api.get("/admin/admins?max=0")).status).toBe(400);

    // The bootstrap admin is the only server admin here: it cannot be deleted or demoted.
    const bootstrap = (await api.get(`/admin/admins?search=${server.adminUsername}`)).body.find((a: { username: string }) => a.username === server.adminUsername);
    expect(bootstrap.serverAdmin).toBe(true);
    const last = await api.del(`/admin/admins/${bootstrap.id}`);
    expect(last.status).toBe(409);
    expect(last.body).toEqual({ error: "last_server_admin", message: "the last server admin cannot be removed or demoted", field: "serverAdmin" });
    expect((await api.put(`/admin/admins/${bootstrap.id}`, { serverAdmin: false })).status).toBe(409);

    // A second server admin may demote the first, not itself.
    const second = await create({ username: uniqueName("root").toLowerCase(), password: PASSWORD, serverAdmin: true });
    const root = await signIn(second.body.username);
    expect((await root.call("GET", "/admin/admins")).status).toBe(200);
    const own = await root.call("PUT", `/admin/admins/${second.body.id}`, { serverAdmin: false });
    expect(own.status).toBe(409);
    expect(own.body.error).toBe("own_role");
    expect((await root.call("DELETE", `/admin/admins/${second.body.id}`)).body.error).toBe("own_account");
    expect((await api.put(`/admin/admins/${second.body.id}`, { serverAdmin: false })).status).toBe(200);
    expect((await eventually(() => root.call("GET", "/admin/admins"), (r) => r.status === 403, 8_000)).status).toBe(403);
  });

  it("drops a deleted realm's grants, so a realm made again under its name grants nothing", async () => {
    const realm = uniqueName("gone");
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const res = await create({ username: uniqueName("owner").toLowerCase(), password: PASSWORD, realmAccess: [{ realm, roles: ["realm-admin"] }, { realm: acme, roles: ["view-users"] }] });
    expect((await api.del(`/admin/realms/${realm}`)).status).toBe(200);
    expect((await api.get(`/admin/admins/${res.body.id}`)).body.realmAccess).toEqual([{ realm: acme, roles: ["view-users"] }]);
    expect((await api.post("/admin/realms", { name: realm })).status).toBe(201);
    const owner = await signIn(res.body.username);
    expect((await owner.call("GET", `/admin/realms/${realm}`)).status).toBe(403);
    await api.del(`/admin/realms/${realm}`);
  });
});

afterAll(() => expectResponsesDocumented(recorded));
