import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describeTier } from "../support/tier.js";
import { ROOT } from "../e2e/support/process-runner.js";
import { freePort } from "../e2e/support/free-port.js";
import { generateMasterKey } from "../../services/kit/src/crypto/secret-box.js";

/**
 * The container image's steps, run without a container engine. No registry is reachable here,
 * so no base image (node:20-bookworm-slim) can be pulled and buildah/podman cannot build the
 * Dockerfile (docs/deployment.md). Instead: the build stage's assembly script
 * (deploy/docker/assemble-app.sh, which the Dockerfile runs) fills a folder as /app, and the
 * image's ENTRYPOINT and HEALTHCHECK run from it as an unprivileged user that cannot write to it,
 * as the read-only root file system would enforce.
 * TESSERA_TEST_IMAGE_STEPS=1 enables it (.ci/run sets it): assembling compiles the code once
 * more and prunes a copy of node_modules, about 20 s.
 */
const NOBODY = 65534;

interface Started { child: ChildProcess; output: () => string; exited: Promise<number | null> }

function startAs(app: string, args: string[], env: Record<string, string>): Started {
  const asNobody = process.getuid?.() === 0;
  const cmd = asNobody ? "setpriv" : join(app, "entrypoint.sh");
  const argv = asNobody
    ? ["--reuid", String(NOBODY), "--regid", String(NOBODY), "--clear-groups", join(app, "entrypoint.sh"), ...args]
    : args;
  const child = spawn(cmd, argv, { cwd: "/", env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout?.on("data", (d) => { out += d; });
  child.stderr?.on("data", (d) => { out += d; });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitFor(url: string, proc: Started, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.child.exitCode !== null) throw new Error(`exited ${proc.child.exitCode}:\n${proc.output()}`);
    try { if ((await fetch(url)).status === 200) return; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer 200:\n${proc.output()}`);
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p); else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

function healthcheck(app: string, pid: number, env: Record<string, string>): number | null {
  return spawnSync(process.execPath, [join(app, "healthcheck.mjs"), String(pid)], { env: { PATH: process.env.PATH ?? "", ...env } }).status;
}

let work: string;
let app: string;

/** Assembles once for the file; both tiers below use it, the file's afterAll removes it. */
function assemble(): void {
  if (work) return;
  work = mkdtempSync(join(tmpdir(), "tessera-image-"));
  chmodSync(work, 0o755);
  app = join(work, "app");
  // Compiles with the image's tsconfig as the Dockerfile does (not a copy of the tests' dist).
  const r = spawnSync(join(ROOT, "deploy", "docker", "assemble-app.sh"), [app], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`assemble-app.sh failed: ${r.stderr}`);
}

function dataDir(): string {
  const data = join(work, `data-${randomBytes(3).toString("hex")}`);
  mkdirSync(data);
  if (process.getuid?.() === 0) chownSync(data, NOBODY, NOBODY);
  return data;
}

afterAll(() => { if (work) rmSync(work, { recursive: true, force: true }); });

describeTier("Container image steps", ["TESSERA_TEST_IMAGE_STEPS"], () => {
  beforeAll(assemble, 180_000);

  it("holds production dependencies only, the compiled code without tests, and the templates", () => {
    const has = (p: string) => existsSync(join(app, p));
    expect(["express", "better-sqlite3", "@node-rs/argon2", "mongoose", "nats", "nunjucks"].filter((p) => !has(`node_modules/${p}`))).toEqual([]);
    expect(["jest", "typescript", "@bufbuild/buf", "openid-client", "argon2", "autocannon", "playwright-core"].filter((p) => has(`node_modules/${p}`))).toEqual([]);
    expect(has("node_modules/better-sqlite3/build/Release/better_sqlite3.node")).toBe(true);
    expect([has("dist/gateway/src/main.js"), has("dist/gateway/src/main-embedded.js"), has("dist/services/token/src/main.js"), has("dist/gen")]).toEqual([true, true, true, true]);
    expect(has("dist/test")).toBe(false);
    expect(listFiles(join(app, "dist")).filter((f) => /\.test\.|test-kit|test-harness|contract|under-test/.test(f))).toEqual([]);
    expect(has("gateway/src/pages/templates/login.njk")).toBe(true);
    expect(has("dist/console/admin.html")).toBe(true);
  });

  it("runs `embedded` as an unprivileged user from the unwritable app folder: health, a token, a clean SIGTERM", async () => {
    const before = listFiles(app);
    const port = await freePort();
    const apiKey = `k-${randomBytes(16).toString("hex")}`;
    const data = dataDir();
    const env = { TESSERA_PORT: String(port), TESSERA_HOST: "127.0.0.1", TESSERA_DATA_DIR: data, TESSERA_ADMIN_API_KEY: apiKey, NODE_ENV: "production" };
    const proc = startAs(app, ["embedded"], env);
    try {
      const url = `http://127.0.0.1:${port}`;
      await waitFor(`${url}/health/ready`, proc);
      expect(healthcheck(app, proc.child.pid as number, env)).toBe(0);
      const admin = { "x-admin-api-key": apiKey, "content-type": "application/json" };
      const realm = `img${randomBytes(3).toString("hex")}`;
      expect((await fetch(`${url}/admin/realms`, { method: "POST", headers: admin, body: JSON.stringify({ name: realm }) })).status).toBe(201);
      const client = await fetch(`${url}/admin/realms/${realm}/clients`, { method: "POST", headers: admin, body: JSON.stringify({ clientId: "svc", grantTypes: ["client_credentials"] }) });
      expect(client.status).toBe(201);
      const { secret } = await client.json() as { secret: string };
      const token = await fetch(`${url}/realms/${realm}/protocol/openid-connect/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`svc:${secret}`).toString("base64")}` },
        body: "grant_type=client_credentials",
      });
      expect(token.status).toBe(200);
      expect((await token.json() as { token_type: string }).token_type).toBe("Bearer");
      // The hosted pages' templates are read from the folder.
      expect((await fetch(`${url}/realms/${realm}/protocol/openid-connect/auth?client_id=nope&response_type=code`)).status).toBe(400);
      // The admin console's document and its script, built into the folder.
      const consoleDoc = await fetch(`${url}/admin/console`);
      expect(consoleDoc.status).toBe(200);
      const script = /src="(\/resources\/console\/assets\/[^"]+\.js)"/.exec(await consoleDoc.text())![1]!;
      expect((await fetch(`${url}${script}`)).status).toBe(200);
      proc.child.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
      expect(readdirSync(data).some((f) => f.endsWith(".db"))).toBe(true);
      expect(listFiles(app)).toEqual(before);
    } finally {
      proc.child.kill("SIGKILL");
    }
  }, 90_000);

  it("refuses to start a cluster process without its settings, naming them (exit 78)", async () => {
    const proc = startAs(app, ["gateway"], { TESSERA_PORT: String(await freePort()) });
    expect(await proc.exited).toBe(78);
    expect(proc.output()).toContain("TESSERA_ADMIN_API_KEY");
  });

  it("prints its usage for `help`", () => {
    const r = spawnSync(join(app, "entrypoint.sh"), ["help"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("directory|token|saml|broker|federation|audit");
  });
});

describeTier("Container image steps: a service process", ["TESSERA_TEST_IMAGE_STEPS", "TESSERA_TEST_MONGODB_URI", "TESSERA_TEST_NATS_URL"], () => {
  beforeAll(assemble, 180_000);

  it("runs `token`: /health, /health/ready and /metrics over HTTP/1.1 (as the kubelet and Prometheus ask), the HEALTHCHECK, a clean SIGTERM", async () => {
    const port = await freePort();
    const env = {
      TESSERA_STORE: "mongodb",
      TESSERA_MONGODB_URI: process.env.TESSERA_TEST_MONGODB_URI as string,
      TESSERA_MONGODB_DB_PREFIX: `img${randomBytes(3).toString("hex")}`,
      TESSERA_NATS_URL: process.env.TESSERA_TEST_NATS_URL as string,
      TESSERA_MASTER_KEY: generateMasterKey(),
      TESSERA_ADMIN_API_KEY: `k-${randomBytes(16).toString("hex")}`,
      TESSERA_TOKEN_URL: `http://127.0.0.1:${port}`,
      TESSERA_DIRECTORY_URL: `http://127.0.0.1:${await freePort()}`,
      TESSERA_KEY_CHECK_INTERVAL_SECONDS: "0",
    };
    const proc = startAs(app, ["token"], env);
    try {
      const url = `http://127.0.0.1:${port}`;
      await waitFor(`${url}/health`, proc);
      const health = await fetch(`${url}/health`);
      expect(await health.json()).toEqual({ status: "ok", service: "token" });
      const ready = await fetch(`${url}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: "ok", service: "token", ready: true, store: { up: true }, bus: { up: true } });
      const metrics = await fetch(`${url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain("process_cpu_seconds_total");
      expect((await fetch(`${url}/nope`)).status).toBe(404);
      expect(healthcheck(app, proc.child.pid as number, env)).toBe(0);
      proc.child.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
    } finally {
      proc.child.kill("SIGKILL");
    }
  }, 90_000);
});
