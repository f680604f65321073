import { Counter, Registry, collectDefaultMetrics } from "prom-client";
import { LabelledHistogram } from "./labelled-metrics.js";

/** Service-side metrics (DESIGN 4): RPC durations plus counters the domain code increments. */
export interface Metrics {
  registry: Registry;
  /** Labels: service, method, outcome. */
  rpcDuration: LabelledHistogram;
  counter(name: string, help: string, labels?: readonly string[]): Counter<string>;
}

/** How often the event-loop lag metrics sample (prom-client's eventLoopMonitoringPrecision). */
export const EVENT_LOOP_SAMPLE_MS = 100;

export function createMetrics(options: { defaultMetrics?: boolean; registry?: Registry } = {}): Metrics {
  const registry = options.registry ?? new Registry();
  // The event-loop lag histogram samples with a timer; prom-client's default 10 ms woke the event
  // loop 100 times a second: 1% of a core on an idle server (perf: monitorEventLoopDelay's timer
  // was most of an idle process's CPU), and under password-grant load a cold wake-up for almost
  // every login (main-thread CPU per login about 0.05-0.1 ms lower at 1 s, 3 interleaved pairs).
  // At 100 ms the lag metrics still see every stall longer than that.
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const rpcDuration = new LabelledHistogram(
    "tessera_rpc_duration_seconds", "Duration of internal RPCs handled, by service and method",
    ["service", "method", "outcome"], [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registry,
  );
  const counters = new Map<string, Counter<string>>();
  return {
    registry,
    rpcDuration,
    counter(name, help, labels = []) {
      let c = counters.get(name);
      if (!c) {
        c = new Counter({ name, help, labelNames: [...labels], registers: [registry] });
        counters.set(name, c);
      }
      return c;
    },
  };
}
