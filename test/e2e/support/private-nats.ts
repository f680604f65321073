import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.js";

export interface PrivateNats {
  url: string;
  stop(): Promise<void>;
  /** Kills the server (SIGKILL, as an outage), keeping its port and JetStream store for `resume`. */
  pause(): Promise<void>;
  /** Starts the server again on the same port and store, as after an outage. */
  resume(): Promise<void>;
}

/**
 * A JetStream-enabled nats-server of one test file's own, for a cluster that must not share
 * durables with the suite's cluster: two clusters on one server share every durable consumer of
 * the "IAM" stream, so each would take some of the other's events (their audit services, their
 * token services).
 */
export async function startPrivateNats(): Promise<PrivateNats> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), "tessera-nats-"));
  const spawnServer = (): ChildProcess => spawn("nats-server", ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir], { stdio: "ignore" });
  let server = spawnServer();
  const end = async (signal: NodeJS.Signals) => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server.once("exit", r));
      server.kill(signal);
      await exited;
    }
  };
  await waitForPort(port, 15_000);
  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      await end("SIGTERM");
      rmSync(storeDir, { recursive: true, force: true });
    },
    async pause() {
      await end("SIGKILL");
    },
    async resume() {
      server = spawnServer();
      await waitForPort(port, 15_000);
    },
  };
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, "127.0.0.1", () => { s.end(); resolve(true); });
      s.on("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`nats-server did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
