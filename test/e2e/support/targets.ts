import { startEmbeddedServer, type TestServer } from "./embedded-server.js";
import { describeTier } from "../../support/tier.js";
import { takeClusterRealms } from "./http.js";

/** What the global setup needs to start the suite's cluster. */
const CLUSTER_TIER = ["TESSERA_TEST_MONGODB_URI", "TESSERA_TEST_NATS_URL"];

export interface Target {
  mode: "embedded" | "cluster";
  start(name: string): Promise<TestServer>;
}

/**
 * The run modes an e2e file runs against: embedded always; cluster when the global setup started
 * one (TESSERA_TEST_MONGODB_URI and TESSERA_TEST_NATS_URL set), and otherwise the cluster mode is
 * reported as a skipped tier (describeTier). The cluster is shared by every file of the run, so
 * tests create their own realms with unique names. Call at a file's top level.
 */
export function targets(): Target[] {
  const list: Target[] = [{ mode: "embedded", start: (name) => startEmbeddedServer(name) }];
  const url = process.env.TESSERA_TEST_CLUSTER_URL;
  if (!url) {
    describeTier("this file in cluster mode (cluster tier)", CLUSTER_TIER, () => {
      it("runs this file's tests against the cluster as against the embedded suite", () => undefined);
    });
  } else {
    list.push({
      mode: "cluster",
      start: async () => ({
        url,
        apiKey: process.env.TESSERA_TEST_CLUSTER_API_KEY as string,
        adminUsername: "admin",
        adminPassword: process.env.TESSERA_TEST_CLUSTER_ADMIN_PASSWORD as string,
        mode: "cluster",
        // The cluster outlives the file; the realms the file made on it do not (see http.ts).
        async stop() {
          const headers = { "X-Admin-API-Key": process.env.TESSERA_TEST_CLUSTER_API_KEY as string };
          for (const name of takeClusterRealms()) {
            await fetch(`${url}/admin/realms/${encodeURIComponent(name)}`, { method: "DELETE", headers }).catch(() => undefined);
          }
        },
      }),
    });
  }
  return list;
}

/** Polls `fn` until it returns a value for which `ok` holds (events travel over the bus). */
export async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: T = await fn();
  while (!ok(last) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    last = await fn();
  }
  return last;
}
