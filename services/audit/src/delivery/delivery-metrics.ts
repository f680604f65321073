import { Counter, Gauge, Histogram } from "prom-client";
import type { Metrics } from "../../../kit/src/metrics.js";

/** Webhook delivery metrics on the service's registry (DESIGN 4, "Logging and metrics"). */
export class DeliveryMetrics {
  readonly attempts: Counter<string>;
  readonly duration: Histogram<string>;
  readonly depth: Gauge<string>;

  constructor(metrics: Metrics, depthOf: () => Map<string, number>) {
    this.attempts = metrics.counter("tessera_webhook_attempts_total", "Webhook delivery attempts by result (delivered, failed, dead)", ["result"]);
    this.duration = new Histogram({
      name: "tessera_webhook_delivery_duration_seconds", help: "Time of webhook delivery attempts, request to response",
      labelNames: ["outcome"], buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [metrics.registry],
    });
    // Read at scrape time: the deliveries each webhook has claimed, waiting or in flight.
    this.depth = new Gauge({
      name: "tessera_webhook_queue_depth", help: "Webhook deliveries queued or in flight in this process, by webhook id",
      labelNames: ["webhook"], registers: [metrics.registry],
      collect() {
        this.reset();
        for (const [webhook, n] of depthOf()) this.set({ webhook }, n);
      },
    });
  }
}
