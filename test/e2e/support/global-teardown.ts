import type { Cluster } from "../../cluster/launch-cluster.js";

export default async function globalTeardown(): Promise<void> {
  const cluster = (globalThis as { __tesseraCluster?: Cluster }).__tesseraCluster;
  if (cluster) await cluster.stop();
}
