import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI_BIN, CliRunner } from "./support/cli-runner.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";
import { freePort } from "./support/free-port.js";
import { adminApi, uniqueName } from "./support/http.js";
import { describeTier } from "../support/tier.js";

// The `tessera` command line (docs/cli.md), the built bin run as a child process against an
// embedded server, each run with its own profile file. Exit codes: 0 ok, 1 the server answered an
// error, 2 usage, 3 unreachable, 4 not logged in or credential refused.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const mode = (path: string) => statSync(path).mode & 0o777;
/** A table's header cells (columns are padded with two spaces or more). */
const header = (stdout: string) => stdout.split("\n")[0]!.split(/\s{2,}/);

describe("tessera CLI (embedded)", () => {
  let server: TestServer;
  let dir: string;
  let cli: CliRunner;
  let realm: string;
  beforeAll(async () => {
    server = await startEmbeddedServer("cli");
    dir = mkdtempSync(join(tmpdir(), "tessera-cli-"));
    cli = new CliRunner(join(dir, "profile", "config.json"), dir);
    realm = uniqueName("cli");
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe("login", () => {
    it("checks the Admin API key, then keeps it in a 0600 profile in a 0700 folder", async () => {
      const res = await cli.run("login", "--url", `${server.url}/`, "--api-key", server.apiKey);
      expect(res).toEqual({ code: 0, stdout: `logged in to ${server.url}; profile saved to ${cli.configPath}\n`, stderr: "" });
      expect(mode(cli.configPath)).toBe(0o600);
      expect(mode(join(dir, "profile"))).toBe(0o700);
      expect(JSON.parse(readFileSync(cli.configPath, "utf8"))).toEqual({ url: server.url, apiKey: server.apiKey });
      expect(await cli.json("realms", "list")).toEqual([]);
    });

    it("logs in with username and password, keeping the admin token and never the password", async () => {
      const byPassword = cli.with({ TESSERA_CONFIG: join(dir, "password-profile.json") });
      const res = await byPassword.run("login", "--url", server.url, "--username", server.adminUsername, "--password", server.adminPassword);
      expect(res.code).toBe(0);
      const text = readFileSync(byPassword.configPath, "utf8");
      expect(mode(byPassword.configPath)).toBe(0o600);
      const jwt = /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/;
      const saved = JSON.parse(text) as { accessToken: string };
      expect(saved).toEqual({ url: server.url, accessToken: expect.stringMatching(jwt), refreshToken: expect.stringMatching(jwt), username: "admin" });
      expect(text).not.toContain(server.adminPassword);
      expect(await byPassword.json("realms", "list")).toEqual([]);

      // Logout ends the sign-in on the server: a copy of the saved token is refused afterwards.
      const out = await byPassword.run("logout");
      expect(out).toEqual({ code: 0, stdout: `signed out of ${server.url}\ncredential removed from ${byPassword.configPath}\n`, stderr: "" });
      const copy = await fetch(`${server.url}/admin/realms`, { headers: { authorization: `Bearer ${saved.accessToken}` } });
      expect(copy.status).toBe(401);
    });

    it("refuses a wrong password with exit 4 and leaves no profile behind", async () => {
      const other = cli.with({ TESSERA_CONFIG: join(dir, "refused.json") });
      const res = await other.run("login", "--url", server.url, "--username", "admin", "--password", "not-the-password");
      expect(res).toEqual({ code: 4, stdout: "", stderr: "tessera: 401 (invalid_credentials): invalid username or password\n" });
      expect(() => statSync(other.configPath)).toThrow(/ENOENT/);
    });
  });

  describe("resources", () => {
    it("creates, lists, reads, updates and deletes a realm", async () => {
      const created = await cli.json("realms", "create", "--name", realm, "--display-name", "CLI Realm", "--data", '{"adminEventsEnabled":true}');
      expect(created).toMatchObject({ id: expect.stringMatching(UUID), name: realm, displayName: "CLI Realm", enabled: true, adminEventsEnabled: true });
      const doomed = uniqueName("cli-doomed");
      // The read before the update: run beside it, it may see either version.
      const [list, got] = await Promise.all([
        cli.json<Array<{ name: string }>>("realms", "list"), cli.json("realms", "get", realm), cli.json("realms", "create", "--name", doomed),
      ]);
      const updated = await cli.json("realms", "update", realm, "--data", '{"displayName":"Renamed"}');
      // The other realm is created meanwhile; the list may or may not hold it yet.
      expect(list.map((r) => r.name).filter((n) => n !== doomed)).toEqual([realm]);
      expect(got).toEqual(created);
      expect(updated).toMatchObject({ id: created.id, name: realm, displayName: "Renamed", adminEventsEnabled: true });

      const [table, deleted] = await Promise.all([cli.run("realms", "list"), cli.json("realms", "delete", doomed)]);
      expect(table.code).toBe(0);
      expect(header(table.stdout)).toEqual(["NAME", "DISPLAYNAME", "ENABLED", "CREATEDAT"]);
      expect(table.stdout.split("\n").find((l) => l.startsWith(realm))!.split(/\s{2,}/)).toEqual([realm, "Renamed", "true", created.createdAt]);
      expect(deleted).toMatchObject({ name: doomed });
      expect((await cli.run("realms", "get", doomed)).code).toBe(1);
    });

    it("creates, lists, reads, updates and deletes a user", async () => {
      const user = await cli.json("users", "create", "-r", realm, "--username", "ana", "--password", "Ana-password-1",
        "--email", "ana@example.test", "--first-name", "Ana", "--last-name", "Lima");
      expect(user).toMatchObject({ id: expect.stringMatching(UUID), username: "ana", email: "ana@example.test", firstName: "Ana", lastName: "Lima", enabled: true, emailVerified: false });
      expect(JSON.stringify(user)).not.toContain("Ana-password-1");
      const [list, table, got] = await Promise.all([
        cli.json("users", "list", "-r", realm), cli.run("users", "list", "--realm", realm), cli.json("users", "get", "-r", realm, user.id),
      ]);
      expect(list).toEqual({ total: 1, users: [user] });
      expect(header(table.stdout)).toEqual(["ID", "USERNAME", "EMAIL", "ENABLED"]);
      expect(table.stdout.split("\n")[1]!.split(/\s{2,}/)).toEqual([user.id, "ana", "ana@example.test", "true"]);
      expect(got).toEqual(user);
      expect(await cli.json("users", "update", "-r", realm, user.id, "--data", '{"firstName":"Ana Maria","enabled":false}'))
        .toMatchObject({ id: user.id, username: "ana", firstName: "Ana Maria", lastName: "Lima", enabled: false });

      expect(await cli.run("users", "delete", "-r", realm, user.id)).toEqual({ code: 0, stdout: "", stderr: `deleted user ${user.id}\n` });
      expect(await cli.run("users", "get", "-r", realm, user.id))
        .toEqual({ code: 1, stdout: "", stderr: `tessera: 404 (user_not_found): user "${user.id}" not found\n` });
    });

    it("creates, lists, reads, updates and deletes a client", async () => {
      const client = await cli.json("clients", "create", "-r", realm, "--client-id", "web", "--client-type", "PUBLIC",
        "--redirect-uri", "https://app.example.test/cb", "--redirect-uri", "https://app.example.test/cb2", "--grant-type", "authorization_code");
      expect(client).toMatchObject({ clientId: "web", clientType: "PUBLIC", enabled: true, redirectUris: ["https://app.example.test/cb", "https://app.example.test/cb2"], grantTypes: ["authorization_code"] });
      const [list, table, got] = await Promise.all([
        cli.json<Array<{ clientId: string }>>("clients", "list", "-r", realm), cli.run("clients", "list", "-r", realm), cli.json("clients", "get", "-r", realm, "web"),
      ]);
      // After the listings, which must see "web" alone beside the realm's account console client.
      const svc = await cli.json("clients", "create", "-r", realm, "--data", '{"clientId":"svc","grantTypes":["client_credentials"]}');
      expect(list.map((c) => c.clientId)).toEqual(["account-console", "web"]);
      expect(header(table.stdout)).toEqual(["CLIENTID", "NAME", "CLIENTTYPE", "ENABLED"]);
      expect(got).toEqual(client);
      expect(await cli.json("clients", "update", "-r", realm, "web", "--data", '{"name":"Web app"}')).toMatchObject({ clientId: "web", name: "Web app", clientType: "PUBLIC" });
      expect(svc).toMatchObject({ clientId: "svc", clientType: "CONFIDENTIAL", secret: expect.stringMatching(/^[\w-]{20,}$/) });
      expect(await cli.run("clients", "delete", "-r", realm, "svc")).toEqual({ code: 0, stdout: "", stderr: "deleted client svc\n" });
    });

    it("creates, lists, reads and deletes a realm role; roles have no update", async () => {
      const [editor] = await Promise.all([
        cli.json("roles", "create", "-r", realm, "--name", "editor", "--description", "edits"), cli.json("roles", "create", "-r", realm, "--name", "doomed"),
      ]);
      expect(editor).toEqual({ id: expect.stringMatching(UUID), name: "editor", description: "edits", clientRole: false, composite: false });
      const [list, table, got] = await Promise.all([
        cli.json<Array<{ name: string }>>("roles", "list", "-r", realm), cli.run("roles", "list", "-r", realm), cli.json("roles", "get", "-r", realm, "editor"),
      ]);
      expect(list.map((r) => r.name).sort()).toEqual(["doomed", "editor", "offline_access"]);
      expect(header(table.stdout)).toEqual(["NAME", "DESCRIPTION"]);
      expect(got).toEqual(editor);
      const [deleted, update] = await Promise.all([cli.run("roles", "delete", "-r", realm, "doomed"), cli.run("roles", "update", "-r", realm, "editor")]);
      expect(deleted).toEqual({ code: 0, stdout: "", stderr: "deleted role doomed\n" });
      expect(update).toEqual({ code: 2, stdout: "", stderr: "tessera: unknown command 'update' (Did you mean create?) (see: tessera roles --help)\n" });
    });

    it("creates, lists, reads, updates and deletes groups, a sub-group under its parent", async () => {
      const staff = await cli.json("groups", "create", "-r", realm, "--name", "staff");
      expect(staff).toMatchObject({ id: expect.stringMatching(UUID), name: "staff", path: "/staff", subGroups: [] });
      const [admins, scratch] = await Promise.all([
        cli.json("groups", "create", "-r", realm, "--name", "admins", "--parent-id", staff.id), cli.json("groups", "create", "-r", realm, "--name", "scratch"),
      ]);
      expect(admins).toMatchObject({ name: "admins", parentId: staff.id, path: "/staff/admins" });
      const [deleted, tree, table, got, updated] = await Promise.all([
        cli.json("groups", "delete", "-r", realm, scratch.id),
        cli.json<Array<{ name: string; subGroups: Array<{ name: string }> }>>("groups", "list", "-r", realm), cli.run("groups", "list", "-r", realm),
        cli.json("groups", "get", "-r", realm, admins.id), cli.json("groups", "update", "-r", realm, admins.id, "--data", '{"description":"runs things"}'),
      ]);
      expect(deleted).toMatchObject({ id: scratch.id, name: "scratch" });
      expect(tree.filter((g) => g.name !== "scratch").map((g) => [g.name, g.subGroups.map((s) => s.name)])).toEqual([["staff", ["admins"]]]);
      expect(header(table.stdout)).toEqual(["ID", "NAME", "PATH"]);
      expect(got).toMatchObject({ id: admins.id, path: "/staff/admins" });
      expect(updated).toMatchObject({ name: "admins", description: "runs things" });
      expect((await cli.json<Array<{ name: string }>>("groups", "list", "-r", realm)).map((g) => g.name)).toEqual(["staff"]);
      // A name search shows the match with the way to it.
      const found = await cli.json<Array<{ name: string; subGroups: Array<{ name: string }> }>>("groups", "list", "-r", realm, "--search", "ADM", "--max", "5");
      expect(found.map((g) => [g.name, g.subGroups.map((s) => s.name)])).toEqual([["staff", ["admins"]]]);
    });

    it("creates, pages, reads, updates and deletes an authentication flow; the API's field error on stderr", async () => {
      const steps = [
        { type: "username-password", requirement: "REQUIRED" },
        { type: "otp", requirement: "CONDITIONAL", condition: { type: "condition-user-role", config: { role: "editor" } } },
      ];
      const file = join(dir, "flow.json");
      writeFileSync(file, JSON.stringify({ alias: "otp for editors", description: "cli", steps }));
      const created = await cli.json<{ id: string }>("authentication-flows", "create", "-r", realm, "--file", file);
      expect(created).toEqual({ id: expect.stringMatching(UUID), alias: "otp for editors", description: "cli", builtIn: false, steps, createdAt: expect.any(String), updatedAt: expect.any(String) });
      const [page, table, got, updated] = await Promise.all([
        cli.json<Array<{ alias: string }>>("authentication-flows", "list", "-r", realm, "--first", "1", "--max", "5"),
        cli.run("authentication-flows", "list", "-r", realm),
        cli.json("authentication-flows", "get", "-r", realm, created.id),
        cli.json("authentication-flows", "update", "-r", realm, created.id, "--data", '{"description":"changed"}'),
      ]);
      expect(page.map((f) => f.alias)).toEqual(["direct grant", "otp for editors"]);
      expect(header(table.stdout)).toEqual(["ID", "ALIAS", "DESCRIPTION", "BUILTIN"]);
      expect(got).toMatchObject({ id: created.id, alias: "otp for editors" });
      expect(updated).toMatchObject({ id: created.id, description: "changed", steps });
      const bad = await cli.run("authentication-flows", "create", "-r", realm, "--data", JSON.stringify({ alias: "x", steps: [steps[0], { type: "otp", requirement: "CONDITIONAL" }] }));
      expect(bad).toEqual({ code: 1, stdout: "", stderr: "tessera: 400 (invalid_request): steps[1].condition is required with requirement CONDITIONAL [field: steps[1].condition]\n" });
      expect(await cli.run("authentication-flows", "delete", "-r", realm, created.id)).toMatchObject({ code: 0 });
      expect((await cli.json<Array<{ alias: string }>>("authentication-flows", "list", "-r", realm)).map((f) => f.alias)).toEqual(["browser", "direct grant"]);
    });

    it("creates, searches, reads, updates and deletes an administrator with realm grants", async () => {
      const created = await cli.json<{ id: string }>("admins", "create", "--username", "cli-viewer", "--password", "a-long-admin-password",
        "--grant", `${realm}=view-users,manage-clients`, "--grant", "other=realm-admin");
      expect(created).toEqual({
        id: expect.stringMatching(UUID), username: "cli-viewer", createdAt: expect.stringMatching(ISO), serverAdmin: false,
        realmAccess: [{ realm, roles: ["view-users", "manage-clients"] }, { realm: "other", roles: ["realm-admin"] }],
      });
      // The read runs before the update: run together, the read could see the update.
      const [found, table, got] = await Promise.all([
        cli.json<Array<{ username: string }>>("admins", "list", "--search", "VIEW", "--max", "5"),
        cli.run("admins", "list"),
        cli.json("admins", "get", created.id),
      ]);
      const updated = await cli.json("admins", "update", created.id, "--data", JSON.stringify({ realmAccess: [{ realm, roles: ["realm-admin"] }] }));
      expect(found.map((a) => a.username)).toEqual(["cli-viewer"]);
      expect(header(table.stdout)).toEqual(["ID", "USERNAME", "SERVERADMIN", "CREATEDAT"]);
      expect(got).toEqual(created);
      expect(updated).toEqual({ ...created, realmAccess: [{ realm, roles: ["realm-admin"] }] });
      expect(await cli.run("admins", "create", "--username", "x-admin", "--grant", "no-roles")).toEqual({
        code: 2, stdout: "", stderr: "tessera: --grant takes realm=role[,role...], got \"no-roles\"\n",
      });
      expect(await cli.run("admins", "delete", created.id)).toEqual({ code: 0, stdout: "", stderr: `deleted admin ${created.id}\n` });
    });

    it("prints YAML with -o yaml", async () => {
      const res = await cli.run("roles", "get", "-r", realm, "editor", "-o", "yaml");
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/^id: [0-9a-f-]{36}\nname: editor\ndescription: edits\nclientRole: false\ncomposite: false\n$/);
    });
  });

  describe("realm export and import", () => {
    it("exports to a file and imports it as a copy under another name", async () => {
      const file = join(dir, "export.json");
      expect(await cli.run("realms", "export", realm, "--file", file)).toEqual({ code: 0, stdout: "", stderr: `exported realm ${realm} to ${file}\n` });
      expect(mode(file)).toBe(0o644);
      const doc = JSON.parse(readFileSync(file, "utf8"));
      expect(doc).toMatchObject({ formatVersion: 1, realm: { name: realm, displayName: "Renamed" } });
      expect(doc.roles.map((r: { name: string }) => r.name).sort()).toEqual(["editor", "offline_access"]);

      const copy = `${realm}-copy`;
      const imported = await cli.json("realms", "import", "--file", file, "--name", copy);
      expect(imported).toMatchObject({ name: copy, displayName: "Renamed", importReport: [] });
      const [role, client, groups, again] = await Promise.all([
        cli.json("roles", "get", "-r", copy, "editor"), cli.json("clients", "get", "-r", copy, "web"),
        cli.json<Array<{ id: string; path: string }>>("groups", "list", "-r", copy), cli.run("realms", "import", "--file", file),
      ]);
      expect(role).toMatchObject({ name: "editor", description: "edits" });
      expect(client).toMatchObject({ clientId: "web", name: "Web app", redirectUris: ["https://app.example.test/cb", "https://app.example.test/cb2"] });
      expect(groups.map((g) => g.path)).toEqual(["/staff"]);
      expect(groups[0]!.id).not.toBe(doc.groups[0].id);
      expect(again).toEqual({ code: 1, stdout: "", stderr: `tessera: 409 (conflict): realm "${realm}" already exists [field: name]\n` });
    });

    it("keeps an export with secrets owner-only, even over an existing readable file", async () => {
      const file = join(dir, "secrets.json");
      writeFileSync(file, "{}", { mode: 0o644 });
      expect((await cli.run("realms", "export", realm, "--include-secrets", "--file", file)).code).toBe(0);
      expect(mode(file)).toBe(0o600);
    });

    it("names the problems of a document the server refuses", async () => {
      const file = join(dir, "bad-export.json");
      const doc = JSON.parse(readFileSync(join(dir, "export.json"), "utf8"));
      writeFileSync(file, JSON.stringify({ ...doc, realm: { ...doc.realm, name: uniqueName("cli-bad") }, colour: "red" }));
      expect(await cli.run("realms", "import", "--file", file))
        .toEqual({ code: 1, stdout: "", stderr: 'tessera: 400 (invalid_document): the document has 1 problem ($: Unrecognized key: "colour")\n' });
    });
  });

  describe("users import from CSV", () => {
    const csv = [
      "username,email,firstName,lastName,password,enabled",
      "bo,bo@example.test,Bo,Berg,Bo-password-12,true",
      ",nobody@example.test,No,Body,No-password-12,true",
      'carl,carl@example.test,"Carl, Jr","Say ""hi""",Carl-password-12,no',
      "",
    ].join("\n");

    it("imports the good rows, reports the bad one by its line, and exits 1; no bar off a terminal", async () => {
      const file = join(dir, "users.csv");
      writeFileSync(file, csv);
      const res = await cli.run("users", "import", "-r", realm, "--file", file);
      expect(res).toEqual({ code: 1, stdout: "imported 2, skipped 0, failed 1 of 3\n  line 3: invalid_request: username is required\n", stderr: "" });
      const list = await cli.json<{ users: Array<Record<string, unknown>> }>("users", "list", "-r", realm);
      expect(list.users.map(({ username, email, firstName, lastName, enabled }) => ({ username, email, firstName, lastName, enabled }))).toEqual([
        { username: "bo", email: "bo@example.test", firstName: "Bo", lastName: "Berg", enabled: true },
        { username: "carl", email: "carl@example.test", firstName: "Carl, Jr", lastName: 'Say "hi"', enabled: false },
      ]);
    });

    it("answers --json with the counts and each error's line", async () => {
      const file = join(dir, "again.csv");
      writeFileSync(file, "username,password\nbo,Bo-password-12\ndee,Dee-password-12\n");
      const res = await cli.run("users", "import", "-r", realm, "--file", file, "--json");
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout)).toEqual({
        imported: 1, skipped: 1, failed: 0,
        errors: [{ index: 0, line: 2, username: "bo", error: "conflict", message: 'username "bo" already exists' }],
      });
    });

    it("refuses a boolean cell that is neither true nor false before sending anything", async () => {
      const file = join(dir, "typo.csv");
      writeFileSync(file, "username,enabled\nevan,true\nfay,ture\n");
      expect(await cli.run("users", "import", "-r", realm, "--file", file))
        .toEqual({ code: 2, stdout: "", stderr: `tessera: ${file} line 3: enabled must be true or false, not "ture"\n` });
      expect((await cli.json<{ total: number }>("users", "list", "-r", realm)).total).toBe(3);
    });

    // TESSERA_TEST_SCRIPT names util-linux `script`, which runs the CLI on a pseudo-terminal.
    describeTier("terminal tier", ["TESSERA_TEST_SCRIPT"], () => {
      it("draws a progress bar when run on a terminal (script)", async () => {
        const file = join(dir, "tty.csv");
        writeFileSync(file, "username\ntty-1\ntty-2\ntty-3\n");
        const command = [process.execPath, CLI_BIN, "users", "import", "-r", realm, "--file", file, "--batch", "1"].map((a) => `'${a}'`).join(" ");
        const res = spawnSync(process.env.TESSERA_TEST_SCRIPT as string, ["-qec", command, "/dev/null"], { env: cli.env(), encoding: "utf8" });
        expect(res.status).toBe(0);
        expect(res.stdout).toContain(`\rimporting users [${"#".repeat(30)}] 3/3 100%\r\n`);
        expect(res.stdout).toContain("imported 3, skipped 0, failed 0 of 3\r\n");
      });
    });
  });

  describe("events tail", () => {
    it("prints an admin event recorded after it started following, until it is stopped", async () => {
      const tail = cli.start("events", "tail", "-r", realm, "--admin", "--interval", "0.2");
      try {
        await tail.waitFor("stderr", /following admin events/);
        expect(tail.stderr).toBe(`following admin events of realm ${realm} (Ctrl-C stops)\n`);
        const user = (await adminApi(server.url, server.apiKey).post(`/admin/realms/${realm}/users`, { username: "tailed" })).body as { id: string };
        const [line] = await tail.waitFor("stdout", /^.*\n/);
        expect(line!.trimEnd().split("  ")).toEqual([expect.stringMatching(ISO), "CREATE", "USER", `users/${user.id}`]);
      } finally {
        expect(await tail.stop()).toEqual({ code: null, signal: "SIGTERM" });
      }
      expect(tail.stdout.split("\n").length).toBe(2);
    });
  });

  describe("errors: one line on stderr and a fixed exit code", () => {
    it("exits 2 on usage errors, before anything is sent", async () => {
      const name = uniqueName("cli-never");
      const [bogus, noRealm, xml, badUrl] = await Promise.all([
        cli.run("realms", "create", "--bogus"), cli.run("users", "list"), cli.run("realms", "create", "--name", name, "-o", "xml"),
        cli.with({ TESSERA_URL: "localhost:8080" }).run("realms", "list"),
      ]);
      expect(badUrl).toEqual({ code: 2, stdout: "", stderr: "tessera: TESSERA_URL must be an http or https URL: localhost:8080\n" });
      expect(bogus).toEqual({ code: 2, stdout: "", stderr: "tessera: unknown option '--bogus' (see: tessera realms create --help)\n" });
      expect(noRealm).toEqual({ code: 2, stdout: "", stderr: "tessera: required option '-r, --realm <realm>' not specified (see: tessera users list --help)\n" });
      expect(xml).toEqual({
        code: 2, stdout: "", stderr: "tessera: option '-o, --output <format>' argument 'xml' is invalid. Allowed choices are table, json, yaml. (see: tessera realms create --help)\n",
      });
      expect((await cli.run("realms", "get", name)).code).toBe(1);
    });

    it("exits 4 when the key is refused or there is no profile", async () => {
      const [wrongKey, wrongLogin, noProfile] = await Promise.all([
        cli.with({ TESSERA_API_KEY: "wrong-key" }).run("realms", "list"), cli.run("login", "--url", server.url, "--api-key", "wrong-key"),
        cli.with({ TESSERA_CONFIG: join(dir, "none.json") }).run("realms", "list"),
      ]);
      expect(wrongKey).toEqual({ code: 4, stdout: "", stderr: "tessera: 401 (unauthorized): invalid API key\n" });
      expect(wrongLogin).toEqual({ code: 4, stdout: "", stderr: "tessera: 401 (unauthorized): invalid API key\n" });
      expect(JSON.parse(readFileSync(cli.configPath, "utf8")).apiKey).toBe(server.apiKey);
      expect(noProfile).toEqual({ code: 4, stdout: "", stderr: "tessera: not logged in: run tessera login --url <url> --api-key <key>\n" });
    });

    it("exits 1 with the server's message on a 404", async () => {
      expect(await cli.run("realms", "get", "no-such-realm"))
        .toEqual({ code: 1, stdout: "", stderr: 'tessera: 404 (realm_not_found): realm "no-such-realm" not found\n' });
    });

    it("exits 3 when the server cannot be reached", async () => {
      const url = `http://127.0.0.1:${await freePort()}`;
      expect(await cli.with({ TESSERA_URL: url }).run("realms", "list"))
        .toEqual({ code: 3, stdout: "", stderr: `tessera: cannot reach ${url}: ECONNREFUSED\n` });
    });
  });

  describe("completion", () => {
    it("prints a bash script that completes subcommands and options", async () => {
      const res = await cli.run("completion", "bash");
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(`"") words="login logout realms users clients roles groups client-scopes identity-providers federation saml-sps admins authentication-flows events token health completion --help --version" ;;`);
      expect(res.stdout).toContain('"users") words="list get create update delete import" ;;');
      const complete = (line: string) => spawnSync("bash", ["-c", `${res.stdout}\nCOMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _tessera; echo "\${COMPREPLY[*]}"`], { encoding: "utf8" }).stdout;
      expect(complete("tessera us")).toBe("users\n");
      expect(complete("tessera users i")).toBe("import\n");
      expect(complete("tessera realms export demo --inc")).toBe("--include-users --include-secrets\n");
    });

    it("refuses another shell with exit 2", async () => {
      expect(await cli.run("completion", "fish")).toEqual({ code: 2, stdout: "", stderr: "tessera: the shell must be bash or zsh\n" });
    });
  });
});
