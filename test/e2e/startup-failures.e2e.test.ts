import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateMasterKey } from "../../services/kit/src/crypto/secret-box.js";
import { http } from "./support/http.js";
import { freePort } from "./support/free-port.js";
import { DIST, ROOT, startNode, waitForHttp } from "./support/process-runner.js";

/** A process run to its exit, its two streams kept apart: the contract is about stderr alone. */
interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runToExit(entry: string, env: Record<string, string>, timeoutMs = 60_000): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(DIST, entry)], {
      env: { PATH: process.env.PATH ?? "", TESSERA_LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => { stdout += b.toString(); });
    child.stderr.on("data", (b: Buffer) => { stderr += b.toString(); });
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`${entry} still running after ${timeoutMs} ms: ${stdout}${stderr}`)); }, timeoutMs);
    child.once("close", (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

/** A port held by another process's socket (here: this one's), for the "in use" refusal. */
async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return { port, server };
}

/** The startup-failure contract: exactly one line on stderr, no stack trace, exit 78. */
function expectOneLineFailure(run: Finished, line: string): void {
  expect(run.code).toBe(78);
  expect(run.stderr).toBe(`${line}\n`);
  expect(run.stderr).not.toMatch(/^\s+at /m);
}

const EMBEDDED = "gateway/src/main-embedded.js";
const SECRET_FILES = ["admin-api-key.sha256", "admin-account.created"];
const CHEAP_HASHING = { TESSERA_ARGON2_MEMORY_KIB: "4096", TESSERA_ARGON2_ITERATIONS: "1" };

// A first start that fails must not record the secrets it would have printed: the next start
// prints a key and a password that work.
describe("embedded start refused by a bad setting", () => {
  const cases: Array<[string, (port: number) => Record<string, string>, (port: number) => string]> = [
    ["a port in use", () => ({}), (port) => `tessera: configuration error: TESSERA_PORT: port ${port} is in use on 127.0.0.1 by another process; stop it, or choose another port`],
    ["a host that does not resolve", () => ({ TESSERA_HOST: "256.1.1.1" }),
      () => `tessera: configuration error: TESSERA_HOST: "256.1.1.1" does not resolve to an address (use an IP address of this machine, 0.0.0.0 or a resolvable host name)`],
    ["a short master key", () => ({ TESSERA_MASTER_KEY: "short" }),
      () => `tessera: configuration error: TESSERA_MASTER_KEY: must be 32 random bytes in base64url (43 characters; e.g. openssl rand -base64 32 | tr '+/' '-_' | tr -d '='), got 3 bytes`],
    ["a trust-proxy value that is not one", () => ({ TESSERA_TRUST_PROXY: "maybe" }),
      () => `tessera: configuration error: TESSERA_TRUST_PROXY: must be true, false, a hop count, or a comma-separated list of IP addresses, CIDRs, loopback, linklocal or uniquelocal, got "maybe"`],
  ];

  it.each(cases)("%s: one line naming it, exit 78, and the next start prints working credentials", async (_name, bad, line) => {
    const dataDir = mkdtempSync(join(tmpdir(), "tessera-badstart-"));
    const taken = await occupiedPort();
    let run: Finished;
    try {
      run = await runToExit(EMBEDDED, { TESSERA_PORT: String(taken.port), TESSERA_HOST: "127.0.0.1", TESSERA_DATA_DIR: dataDir, ...CHEAP_HASHING, ...bad(taken.port) });
    } finally {
      taken.server.close();
    }
    expectOneLineFailure(run, line(taken.port));
    expect(run.stdout).toBe("");
    for (const f of SECRET_FILES) expect(existsSync(join(dataDir, f))).toBe(false);

    const port = await freePort();
    const good = startNode(EMBEDDED, { TESSERA_PORT: String(port), TESSERA_HOST: "127.0.0.1", TESSERA_DATA_DIR: dataDir, TESSERA_LOG_LEVEL: "warn", ...CHEAP_HASHING }, "bad-start-then-good");
    try {
      await waitForHttp(`http://127.0.0.1:${port}/health/ready`, good, 90_000);
      await new Promise((r) => setTimeout(r, 200));
      const out = readFileSync(good.logFile, "utf8");
      const key = out.match(/X-Admin-API-Key: (tsk_[A-Za-z0-9_-]{43})'/)?.[1];
      const password = out.match(/password: (\S+)/)?.[1];
      expect(key).toBeDefined();
      expect(password).toBeDefined();
      expect((await http("GET", `http://127.0.0.1:${port}/admin/realms`, { headers: { "X-Admin-API-Key": key! } })).status).toBe(200);
      expect((await http("POST", `http://127.0.0.1:${port}/admin/auth/login`, { body: { username: "admin", password } })).status).toBe(200);
      for (const f of SECRET_FILES) expect(existsSync(join(dataDir, f))).toBe(true);
    } finally {
      expect(await good.stop()).toBe(0);
    }
  }, 120_000);

  it("a data directory that cannot be one names TESSERA_DATA_DIR", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "tessera-notadir-")), "plain-file");
    writeFileSync(file, "x");
    const run = await runToExit(EMBEDDED, { TESSERA_PORT: String(await freePort()), TESSERA_DATA_DIR: join(file, "data") });
    expectOneLineFailure(run, `tessera: configuration error: TESSERA_DATA_DIR: cannot use ${join(file, "data")}: ENOTDIR: not a directory, mkdir '${join(file, "data")}'`);
  });
});

describe("embedded second start and admin password recovery", () => {
  it("refuses a second start on a held data directory with one line, before touching it, and recovers a lost admin password", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "tessera-second-"));
    const port = await freePort();
    const env = { TESSERA_PORT: String(port), TESSERA_HOST: "127.0.0.1", TESSERA_DATA_DIR: dataDir, TESSERA_LOG_LEVEL: "warn", ...CHEAP_HASHING };
    const first = startNode(EMBEDDED, env, "second-start-holder");
    let generated: string | undefined;
    try {
      await waitForHttp(`http://127.0.0.1:${port}/health/ready`, first, 90_000);
      await new Promise((r) => setTimeout(r, 200));
      generated = readFileSync(first.logFile, "utf8").match(/password: (\S+)/)?.[1];
      expect(generated).toBeDefined();
      const files = readdirSync(dataDir).sort();

      const second = await runToExit(EMBEDDED, { ...env, TESSERA_PORT: String(await freePort()) });
      expectOneLineFailure(second, `tessera: configuration error: TESSERA_DATA_DIR: ${dataDir} is in use by another Tessera process; stop it, or give this one its own data directory`);
      expect(readdirSync(dataDir).sort()).toEqual(files);
      // `npm start` (scripts/start.mjs) tries the lock before it builds anything.
      const npmStart = await new Promise<Finished>((resolve) => {
        const child = spawn(process.execPath, [join(ROOT, "scripts", "start.mjs")], {
          cwd: ROOT, env: { PATH: process.env.PATH ?? "", TESSERA_DATA_DIR: dataDir }, stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (b: Buffer) => { stdout += b.toString(); });
        child.stderr.on("data", (b: Buffer) => { stderr += b.toString(); });
        child.once("close", (code) => resolve({ code, stdout, stderr }));
      });
      expectOneLineFailure(npmStart, `tessera: configuration error: TESSERA_DATA_DIR: ${dataDir} is in use by another Tessera process; stop it, or give this one its own data directory`);
      expect(npmStart.stdout).toBe("");
    } finally {
      expect(await first.stop()).toBe(0);
    }

    // The password is lost: a restart with only TESSERA_ADMIN_PASSWORD re-sets the account `admin`.
    const recovered = startNode(EMBEDDED, { ...env, TESSERA_ADMIN_PASSWORD: "Recovered-Passw0rd" }, "second-start-recover");
    try {
      await waitForHttp(`http://127.0.0.1:${port}/health/ready`, recovered, 90_000);
      const login = (password: string) => http("POST", `http://127.0.0.1:${port}/admin/auth/login`, { body: { username: "admin", password } });
      expect((await login("Recovered-Passw0rd")).status).toBe(200);
      const old = await login(generated!);
      expect(old.status).toBe(401);
      expect(old.body).toEqual({ error: "invalid_credentials", message: "invalid username or password" });
      await new Promise((r) => setTimeout(r, 200));
      expect(readFileSync(recovered.logFile, "utf8")).not.toContain("password:");
    } finally {
      expect(await recovered.stop()).toBe(0);
    }
  }, 180_000);
});

// Cluster mode: each process keeps the same contract (gateway/src/main.ts, the services' main.ts).
describe("cluster processes refused by a bad setting", () => {
  const clusterEnv = () => ({ TESSERA_ADMIN_API_KEY: "k".repeat(32), TESSERA_MASTER_KEY: generateMasterKey() });

  it("the gateway names a port in use", async () => {
    const taken = await occupiedPort();
    try {
      const run = await runToExit("gateway/src/main.js", { ...clusterEnv(), TESSERA_PORT: String(taken.port), TESSERA_HOST: "127.0.0.1" });
      expectOneLineFailure(run, `tessera: configuration error: TESSERA_PORT: port ${taken.port} is in use on 127.0.0.1 by another process; stop it, or choose another port`);
    } finally {
      taken.server.close();
    }
  });

  it("the gateway names a bad trust-proxy value and a missing API key", async () => {
    const proxy = await runToExit("gateway/src/main.js", { ...clusterEnv(), TESSERA_TRUST_PROXY: "10.0.0.0/33" });
    expectOneLineFailure(proxy, `tessera: configuration error: TESSERA_TRUST_PROXY: must be true, false, a hop count, or a comma-separated list of IP addresses, CIDRs, loopback, linklocal or uniquelocal, got "10.0.0.0/33"`);
    const key = await runToExit("gateway/src/main.js", { TESSERA_MASTER_KEY: generateMasterKey() });
    expectOneLineFailure(key, "tessera: configuration error: TESSERA_ADMIN_API_KEY: is required in cluster mode");
  });

  it("the gateway and a service name a bad internal transport setting", async () => {
    const gateway = await runToExit("gateway/src/main.js", { ...clusterEnv(), TESSERA_INTERNAL_TRANSPORT: "grpc" });
    expectOneLineFailure(gateway, `tessera: configuration error: TESSERA_INTERNAL_TRANSPORT: must be one of frames, connect, got "grpc"`);
    const token = await runToExit("services/token/src/main.js", {
      TESSERA_TOKEN_URL: `http://127.0.0.1:${await freePort()}`, TESSERA_MASTER_KEY: generateMasterKey(), TESSERA_INTERNAL_CONNECTIONS: "0",
    });
    expectOneLineFailure(token, "tessera: configuration error: TESSERA_INTERNAL_CONNECTIONS: must be between 1 and 16, got 0");
  });

  it.each(["directory", "token", "saml", "broker", "federation", "audit"])("the %s service names a short master key and an unreachable NATS", async (service) => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const base = { [`TESSERA_${service.toUpperCase()}_URL`]: url, TESSERA_DATA_DIR: mkdtempSync(join(tmpdir(), "tessera-svc-")) };
    const short = await runToExit(`services/${service}/src/main.js`, { ...base, TESSERA_NATS_URL: "nats://127.0.0.1:1", TESSERA_MASTER_KEY: "c2hvcnQ" });
    expectOneLineFailure(short, `tessera: configuration error: TESSERA_MASTER_KEY: must be 32 random bytes in base64url (43 characters; e.g. openssl rand -base64 32 | tr '+/' '-_' | tr -d '='), got 5 bytes`);
    const natsPort = await freePort();
    const nats = await runToExit(`services/${service}/src/main.js`, { ...base, TESSERA_NATS_URL: `nats://127.0.0.1:${natsPort}`, TESSERA_MASTER_KEY: generateMasterKey() });
    expect(nats.code).toBe(78);
    expect(nats.stderr).toMatch(new RegExp(`^tessera: configuration error: TESSERA_NATS_URL: cannot connect to nats://127\\.0\\.0\\.1:${natsPort}: [^\\n]+\\n$`));
  }, 60_000);
});
