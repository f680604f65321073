import { getHeapStatistics } from "node:v8";
import { create } from "@bufbuild/protobuf";
import { ServiceHealthSchema, type ServiceHealth } from "../../../gen/iam/kit/v1/kit_pb.js";
import type { Store } from "./store/port.js";
import type { Bus } from "./bus/port.js";

/** Heap use above this ratio of the heap limit makes a service not ready. */
const HEAP_READY_LIMIT = 0.95;

/** Reachability of the store and bus plus heap use: the body of every service's Health RPC. */
export async function checkHealth(service: string, store: Store, bus: Bus): Promise<ServiceHealth> {
  const [s, b] = await Promise.all([probe(() => store.ping()), probe(() => bus.ping())]);
  const heap = process.memoryUsage().heapUsed;
  const ratio = heap / getHeapStatistics().heap_size_limit;
  return create(ServiceHealthSchema, {
    service,
    ready: s.up && b.up && ratio < HEAP_READY_LIMIT,
    store: s,
    bus: b,
    heapUsedRatio: ratio,
    heapUsedBytes: BigInt(heap),
  });
}

async function probe(fn: () => Promise<void>): Promise<{ up: boolean; detail: string }> {
  try {
    await withTimeout(fn(), 2000);
    return { up: true, detail: "ok" };
  } catch (e) {
    return { up: false, detail: e instanceof Error ? e.message : String(e) };
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    p.then((v) => { clearTimeout(t); resolve(v); }, (e) => { clearTimeout(t); reject(e); });
  });
}
