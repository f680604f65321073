import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError } from "../../../services/kit/src/config.js";
import { lockDataDir } from "./data-dir-lock.js";
import { startEmbedded } from "./run-embedded.js";

const LOCK_MODULE = fileURLToPath(new URL("./data-dir-lock.js", import.meta.url));

/** Another process holding `dir`: resolves once it says it holds the lock. */
async function holder(dir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--input-type=module", "-e",
    `const { lockDataDir } = await import(${JSON.stringify(LOCK_MODULE)}); lockDataDir(${JSON.stringify(dir)}); console.log("locked"); setInterval(() => {}, 1000);`,
  ], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (b: Buffer) => { if (b.toString().includes("locked")) resolve(); });
    child.once("exit", (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
  return child;
}

function refusal(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

// The embedded data directory's lock (DESIGN 2: one process per data dir) against real processes:
// the kernel's file lock is what is tested, so a killed holder is a real crash.
describe("data directory lock", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "tessera-lock-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a second holder in this process until the first releases it", () => {
    const first = lockDataDir(dir);
    const e = refusal(() => lockDataDir(dir));
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as ConfigError).variable).toBe("TESSERA_DATA_DIR");
    expect((e as Error).message).toBe(`TESSERA_DATA_DIR: ${dir} is in use by another Tessera process; stop it, or give this one its own data directory`);
    first.release();
    lockDataDir(dir).release();
  });

  it("refuses while another process holds it, and is free the moment that process is killed", async () => {
    const child = await holder(dir);
    try {
      expect(refusal(() => lockDataDir(dir))).toBeInstanceOf(ConfigError);
    } finally {
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
    }
    // No stale lock to judge: the kernel dropped it with the process.
    lockDataDir(dir).release();
  });

  it("creates a missing data directory, and startEmbedded refuses a directory a running suite holds", async () => {
    const nested = join(dir, "a", "b");
    lockDataDir(nested).release();
    const env = { TESSERA_DATA_DIR: nested, TESSERA_PORT: "0", TESSERA_LOG_LEVEL: "silent", TESSERA_ADMIN_API_KEY: "k".repeat(32) };
    const suite = await startEmbedded(env);
    try {
      await expect(startEmbedded(env)).rejects.toThrow(`TESSERA_DATA_DIR: ${nested} is in use by another Tessera process`);
    } finally {
      await suite.close();
    }
    // Released on close: the directory starts again.
    await (await startEmbedded(env)).close();
  }, 60_000);
});
