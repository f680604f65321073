import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { TesseraApiError, createTesseraClient, loginAdmin, unwrap } from "../../sdk/typescript/src/index.js";
import { uniqueName } from "./support/http.js";
import { targets } from "./support/targets.js";
import { OpenApiValidator } from "../support/openapi-validator.js";
import type { TestServer } from "./support/embedded-server.js";

/**
 * The generated TypeScript Admin REST client (sdk/typescript) against a started server, as its
 * README shows it: authenticate with the admin API key, create a realm and read it back.
 */
describe.each(targets())("TypeScript Admin REST client ($mode)", (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await target.start("sdk-typescript");
  }, 90_000);
  afterAll(async () => server?.stop());

  it("creates a realm and reads it back with the admin API key", async () => {
    const client = createTesseraClient({ baseUrl: server.url, apiKey: server.apiKey });
    const name = uniqueName("sdk");
    const created = unwrap(await client.POST("/admin/realms", { body: { name, displayName: "From the SDK" } }));
    expect([created.name, created.displayName, created.enabled]).toEqual([name, "From the SDK", true]);

    const read = await client.GET("/admin/realms/{realmName}", { params: { path: { realmName: name } } });
    expect(read.response.status).toBe(200);
    expect(read.data).toEqual(created);
    // What the client typed is what the document says the server answers.
    expect(new OpenApiValidator().problems({
      method: "GET", path: `/admin/realms/${name}`, status: 200, contentType: read.response.headers.get("content-type") ?? "", body: read.data,
    })).toEqual([]);

    const list = unwrap(await client.GET("/admin/realms"));
    expect(list.map((r) => r.name)).toContain(name);
    expect(unwrap(await client.DELETE("/admin/realms/{realmName}", { params: { path: { realmName: name } } })).name).toBe(name);
  });

  it("throws the server's error, code and field through unwrap", async () => {
    const client = createTesseraClient({ baseUrl: server.url, apiKey: server.apiKey });
    const missing = await client.GET("/admin/realms/{realmName}", { params: { path: { realmName: "no-such-realm" } } });
    expect(missing.response.status).toBe(404);
    expect(() => unwrap(missing)).toThrow(TesseraApiError);
    const bad = await client.POST("/admin/realms", { body: { name: uniqueName("sdk"), enabled: "yes" as unknown as boolean } });
    try {
      unwrap(bad);
      throw new Error("unwrap did not throw");
    } catch (e) {
      expect(e).toBeInstanceOf(TesseraApiError);
      expect([(e as TesseraApiError).status, (e as TesseraApiError).error, (e as TesseraApiError).field]).toEqual([400, "invalid_field", "enabled"]);
    }
    const anonymous = await createTesseraClient({ baseUrl: server.url }).GET("/admin/realms");
    expect(anonymous.response.status).toBe(401);
    // A refused document carries its problems, each at its JSON path.
    const refused = await client.POST("/admin/realms/import", { body: { formatVersion: 1, realm: { name: "" } } as never });
    try {
      unwrap(refused);
      throw new Error("unwrap did not throw");
    } catch (e) {
      const err = e as TesseraApiError;
      expect([err.status, err.error]).toEqual([400, "invalid_document"]);
      expect(err.problems.length).toBeGreaterThan(0);
      expect(err.problems.every((p) => p.path.startsWith("$") && p.message.length > 0)).toBe(true);
    }
  });

  it("authenticates with an admin bearer token from loginAdmin", async () => {
    const { accessToken, expiresIn } = await loginAdmin(server.url, server.adminUsername, server.adminPassword);
    expect(expiresIn).toBeGreaterThan(0);
    const client = createTesseraClient({ baseUrl: `${server.url}/`, accessToken: () => accessToken });
    const me = unwrap(await client.GET("/admin/auth/me"));
    expect(me.username).toBe(server.adminUsername);
    expect((await client.GET("/admin/realms")).response.status).toBe(200);
  });

  it("works as the npm package the workspace packs, imported by name from another project", async () => {
    // The repository's root (this file runs from dist/test/e2e).
    const root = fileURLToPath(new URL("../../../", import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), "tessera-sdk-pack-"));
    try {
      // `npm pack` runs the package's prepack (its own tsc build) and writes the tarball npm would publish.
      const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", dir, "-w", "@tessera/admin-client"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as Array<{ filename: string; files: Array<{ path: string }> }>;
      expect(packed[0]!.files.map((f) => f.path).sort()).toEqual([
        "README.md", "dist/csv.d.ts", "dist/csv.js", "dist/index.d.ts", "dist/index.js", "dist/schema.d.ts", "dist/schema.js", "dist/user-file.d.ts",
        "dist/user-file.js", "openapi.json", "package.json", "src/csv.ts", "src/index.ts", "src/schema.ts", "src/user-file.ts",
      ]);
      // A project with the package unpacked into its node_modules, and the package's one dependency.
      const installed = join(dir, "app/node_modules/@tessera/admin-client");
      mkdirSync(installed, { recursive: true });
      execFileSync("tar", ["-xzf", join(dir, packed[0]!.filename), "-C", installed, "--strip-components=1"]);
      symlinkSync(join(root, "node_modules/openapi-fetch"), join(dir, "app/node_modules/openapi-fetch"));
      const name = uniqueName("sdk-pkg");
      writeFileSync(join(dir, "app/main.mjs"), [
        'import { createTesseraClient, unwrap } from "@tessera/admin-client";',
        "const client = createTesseraClient({ baseUrl: process.env.URL, apiKey: process.env.KEY });",
        `unwrap(await client.POST("/admin/realms", { body: { name: "${name}" } }));`,
        `const read = unwrap(await client.GET("/admin/realms/{realmName}", { params: { path: { realmName: "${name}" } } }));`,
        "console.log(read.name, read.enabled);",
      ].join("\n"));
      const out = execFileSync(process.execPath, ["main.mjs"], { cwd: join(dir, "app"), env: { ...process.env, URL: server.url, KEY: server.apiKey }, encoding: "utf8" });
      expect(out).toBe(`${name} true\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
