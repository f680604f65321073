import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { launchCluster, type Cluster } from "../../cluster/launch-cluster.js";
import { ARTIFACTS, ROOT } from "./process-runner.js";

/**
 * Starts one cluster (a process per service, MongoDB-wire store, NATS JetStream) for the whole run
 * when the environment names the servers; the cluster-mode e2e tier uses it.
 */
export default async function globalSetup(): Promise<void> {
  // The second phase of `npm test` (scripts/run-tests.mjs) runs files that start their own servers.
  if (process.env.TESSERA_TEST_NO_SHARED_CLUSTER === "1") return;
  const mongoUri = process.env.TESSERA_TEST_MONGODB_URI;
  const natsUrl = process.env.TESSERA_TEST_NATS_URL;
  if (!mongoUri || !natsUrl) {
    process.stdout.write("\n[e2e] cluster tier not run: TESSERA_TEST_MONGODB_URI and TESSERA_TEST_NATS_URL are not both set\n");
    return;
  }
  // The example plugin, so the plugins e2e runs in cluster mode too: its mapper type exists only
  // where a scope names it, and its listener writes the run's events to this file.
  mkdirSync(ARTIFACTS, { recursive: true });
  const pluginEvents = join(ARTIFACTS, "cluster-plugin-events.jsonl");
  rmSync(pluginEvents, { force: true });
  const plugins = { TESSERA_PLUGINS: join(ROOT, "examples", "plugins", "tessera-plugin-example"), TESSERA_EXAMPLE_EVENTS_FILE: pluginEvents };
  // Loopback outbound fetches: the brokering e2e runs its upstream providers on 127.0.0.1.
  const cluster = await launchCluster({ mongoUri, natsUrl, name: "e2e", env: { TESSERA_OUTBOUND_ALLOW_LOOPBACK: "true", ...plugins } });
  (globalThis as { __tesseraCluster?: Cluster }).__tesseraCluster = cluster;
  process.env.TESSERA_TEST_CLUSTER_URL = cluster.url;
  process.env.TESSERA_TEST_CLUSTER_API_KEY = cluster.apiKey;
  process.env.TESSERA_TEST_CLUSTER_ADMIN_PASSWORD = cluster.adminPassword;
  process.env.TESSERA_TEST_CLUSTER_DIRECTORY_URL = cluster.env.TESSERA_DIRECTORY_URL as string;
  process.env.TESSERA_TEST_CLUSTER_PLUGIN_EVENTS = pluginEvents;
  process.stdout.write(`\n[e2e] cluster tier: gateway ${cluster.url}\n`);
}
