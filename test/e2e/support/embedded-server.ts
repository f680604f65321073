import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { freePort } from "./free-port.js";
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
 * dir and known credentials, and waits for /health/ready.
 */
export async function startEmbeddedServer(name: string, extraEnv: Record<string, string> = {}): Promise<TestServer> {
  const port = await freePort();
  const apiKey = extraEnv.TESSERA_ADMIN_API_KEY ?? `test-key-${randomBytes(12).toString("hex")}`;
  const adminPassword = extraEnv.TESSERA_ADMIN_PASSWORD ?? `pw-${randomBytes(12).toString("hex")}`;
  const dataDir = mkdtempSync(join(tmpdir(), "tessera-e2e-"));
  const proc = startNode("gateway/src/main-embedded.js", {
    TESSERA_PORT: String(port),
    TESSERA_HOST: "127.0.0.1",
    TESSERA_DATA_DIR: dataDir,
    TESSERA_ADMIN_API_KEY: apiKey,
    TESSERA_ADMIN_USERNAME: "admin",
    TESSERA_ADMIN_PASSWORD: adminPassword,
    TESSERA_LOG_LEVEL: "info",
    // Cheap hashing keeps e2e fast; the benchmark uses the production parameters.
    TESSERA_ARGON2_MEMORY_KIB: "4096",
    TESSERA_ARGON2_ITERATIONS: "1",
    ...extraEnv,
  }, `embedded-${name}`);
  const url = `http://localhost:${port}`;
  await waitForHttp(`${url}/health/ready`, proc);
  return {
    url, apiKey, adminUsername: "admin", adminPassword, mode: "embedded", process: proc,
    async stop() { await proc.stop(); },
  };
}
