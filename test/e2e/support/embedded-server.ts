import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.js";
import { testServerEnv } from "./test-credentials.js";
import { startNode, waitForHttp, type RunningProcess } from "./process-runner.js";

export interface TestServer {
  url: string;
  apiKey: string;
  adminUsername: string;
  adminPassword: string;
  mode: "embedded" | "cluster";
  /** The process to signal, when the test owns one. */
  process?: RunningProcess;
  stop(): Promise<void>;
}

/**
 * Starts `npm start`'s entry point (the embedded suite) on an ephemeral port, with a fresh data
 * dir and known credentials, and waits for /health/ready. `nodeArgs` go before the entry (a preload).
 */
export async function startEmbeddedServer(name: string, extraEnv: Record<string, string> = {}, opts: { nodeArgs?: string[] } = {}): Promise<TestServer> {
  const port = await freePort();
  const { apiKey, adminPassword, env } = testServerEnv(extraEnv);
  const dataDir = mkdtempSync(join(tmpdir(), "tessera-e2e-"));
  const proc = startNode("gateway/src/main-embedded.js", {
    TESSERA_PORT: String(port),
    TESSERA_DATA_DIR: dataDir,
    ...env,
  }, `embedded-${name}`, opts.nodeArgs ? { nodeArgs: opts.nodeArgs } : {});
  const url = `http://localhost:${port}`;
  // Generous: under a loaded machine a cold start (argon2 bootstrap, SQLite files) can take a while.
  await waitForHttp(`${url}/health/ready`, proc, 90_000);
  return {
    url, apiKey, adminUsername: "admin", adminPassword, mode: "embedded", process: proc,
    async stop() { await proc.stop(); },
  };
}
