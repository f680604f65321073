import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { describeTier } from "../support/tier.js";
import { freePort } from "../e2e/support/free-port.js";
import { generateMasterKey } from "../../services/kit/src/crypto/secret-box.js";

/**
 * The container image itself (TESSERA_TEST_IMAGE names it), run with buildah: .ci/run builds the
 * Dockerfile with `buildah bud`, on stand-ins for the official Node images made from Debian
 * packages (deploy/docker/local-base-images.sh), since no container registry is reachable here.
 * Containers run with `--isolation chroot`: podman's runtime cannot set rlimits in this sandbox
 * (crun: setrlimit RLIMIT_NPROC: Operation not permitted), so the network is the host's and the
 * read-only root is not enforced; the image's user is checked not to be able to write to /app.
 * TESSERA_TEST_IMAGE_STORAGE is buildah's storage driver holding the image (default vfs, which
 * works without overlay support, as .ci/run builds it).
 */
const STORAGE = ["--storage-driver", process.env.TESSERA_TEST_IMAGE_STORAGE || "vfs"];

function buildah(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync("buildah", [...STORAGE, ...args], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The node process a `buildah run` started (its descendant whose command line names `entry`). */
function nodeUnder(root: number, entry: string): number | undefined {
  const children = new Map<number, number[]>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch { /* gone */ }
  }
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    try { if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(entry)) return pid; } catch { /* gone */ }
    queue.push(...(children.get(pid) ?? []));
  }
  return undefined;
}

async function waitFor(url: string, status: number, proc: ChildProcess, output: () => string): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`exited ${proc.exitCode}: ${output()}`);
    try { if ((await fetch(url)).status === status) return; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer ${status}: ${output()}`);
}

describeTier("Container image (buildah)", ["TESSERA_TEST_IMAGE"], () => {
  const image = process.env.TESSERA_TEST_IMAGE as string;
  const containers: string[] = [];
  afterAll(() => { for (const c of containers) buildah("rm", c); });

  function container(env: Record<string, string>): string {
    const from = buildah("from", image);
    expect(from.status).toBe(0);
    const ctr = from.stdout.trim().split("\n").pop()!;
    containers.push(ctr);
    expect(buildah("config", ...Object.entries(env).flatMap(([k, v]) => ["--env", `${k}=${v}`]), ctr).status).toBe(0);
    return ctr;
  }
  function run(ctr: string, args: string[]): { proc: ChildProcess; output: () => string; exited: Promise<number | null> } {
    const proc = spawn("buildah", [...STORAGE, "run", "--isolation", "chroot", "--user", "1000:1000", ctr, "--", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    proc.stdout?.on("data", (d) => { out += d; });
    proc.stderr?.on("data", (d) => { out += d; });
    return { proc, output: () => out, exited: new Promise((r) => proc.once("exit", (code) => r(code))) };
  }

  it("is configured as the Dockerfile says: uid 1000, the entrypoint, embedded by default, a HEALTHCHECK, OCI labels", () => {
    const r = buildah("inspect", "--type", "image", image);
    expect(r.status).toBe(0);
    const info = JSON.parse(r.stdout);
    const config = info.Docker?.config ?? info.OCIv1.config;
    expect([config.User, config.Entrypoint, config.Cmd, config.ExposedPorts]).toEqual(["1000:1000", ["/app/entrypoint.sh"], ["embedded"], { "8080/tcp": {} }]);
    expect(config.Env).toEqual(expect.arrayContaining(["NODE_ENV=production", "TESSERA_DATA_DIR=/data", "TESSERA_PORT=8080"]));
    expect(Object.keys(config.Volumes ?? {}).sort()).toEqual(["/data", "/tmp"]);
    expect(config.Healthcheck?.Test).toEqual(["CMD", "node", "/app/healthcheck.mjs"]);
    expect(config.Labels).toMatchObject({ "org.opencontainers.image.title": "Tessera", "org.opencontainers.image.licenses": "Apache-2.0" });
  });

  it("runs `embedded` as uid 1000: ready, a client_credentials token, the HEALTHCHECK, a clean SIGTERM; /app is not writable", async () => {
    const port = await freePort();
    const apiKey = `k-${randomBytes(16).toString("hex")}`;
    const ctr = container({ TESSERA_PORT: String(port), TESSERA_HOST: "127.0.0.1", TESSERA_ADMIN_API_KEY: apiKey });
    expect(await run(ctr, ["sh", "-c", "touch /app/x"]).exited).not.toBe(0);
    expect(await run(ctr, ["sh", "-c", "touch /data/x && touch /tmp/x"]).exited).toBe(0);
    const c = run(ctr, ["/app/entrypoint.sh", "embedded"]);
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitFor(`${url}/health/ready`, 200, c.proc, c.output);
      const admin = { "x-admin-api-key": apiKey, "content-type": "application/json" };
      expect((await fetch(`${url}/admin/realms`, { method: "POST", headers: admin, body: JSON.stringify({ name: "img" }) })).status).toBe(201);
      const client = await fetch(`${url}/admin/realms/img/clients`, { method: "POST", headers: admin, body: JSON.stringify({ clientId: "svc", grantTypes: ["client_credentials"] }) });
      const { secret } = await client.json() as { secret: string };
      const token = await fetch(`${url}/realms/img/protocol/openid-connect/token`, {
        method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`svc:${secret}`).toString("base64")}` },
        body: "grant_type=client_credentials",
      });
      expect(token.status).toBe(200);
      const pid = nodeUnder(c.proc.pid!, "main-embedded.js");
      expect(pid).toBeDefined();
      expect(await run(ctr, ["node", "/app/healthcheck.mjs", String(pid)]).exited).toBe(0);
      process.kill(pid!, "SIGTERM");
      expect(await c.exited).toBe(0);
      expect(c.output()).toContain("SIGTERM received, draining in-flight requests");
    } finally {
      c.proc.kill("SIGKILL");
    }
  }, 120_000);

  it("runs `gateway`: /health answers, /health/ready is 503 with no service reachable, SIGTERM drains", async () => {
    const port = await freePort();
    const ctr = container({ TESSERA_PORT: String(port), TESSERA_HOST: "127.0.0.1", TESSERA_ADMIN_API_KEY: `k-${randomBytes(16).toString("hex")}`, TESSERA_MASTER_KEY: generateMasterKey() });
    const c = run(ctr, ["/app/entrypoint.sh", "gateway"]);
    try {
      await waitFor(`http://127.0.0.1:${port}/health`, 200, c.proc, c.output);
      expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(503);
      const pid = nodeUnder(c.proc.pid!, "gateway/src/main.js");
      process.kill(pid!, "SIGTERM");
      expect(await c.exited).toBe(0);
    } finally {
      c.proc.kill("SIGKILL");
    }
  }, 120_000);
});
