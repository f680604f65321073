import type { Server } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { labelledChildren } from "../../../services/kit/src/metrics.js";

/** Gateway HTTP metrics (spec 4.20; DESIGN 4): request counts, durations, active connections. */
export class HttpMetrics {
  private readonly requests: Counter<"method" | "route" | "status">;
  private readonly duration: Histogram<"method" | "route" | "status">;
  private readonly connections: Gauge;
  private readonly requestsOf: (...values: string[]) => Counter.Internal;
  private readonly durationOf: (...values: string[]) => Histogram.Internal<"method" | "route" | "status">;

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: "http_requests_total", help: "HTTP requests handled by the gateway",
      labelNames: ["method", "route", "status"] as const, registers: [registry],
    });
    this.duration = new Histogram({
      name: "http_request_duration_seconds", help: "HTTP request duration in seconds",
      labelNames: ["method", "route", "status"] as const, registers: [registry],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    });
    this.connections = new Gauge({
      name: "http_active_connections", help: "Open HTTP connections to the gateway", registers: [registry],
    });
    this.requestsOf = labelledChildren((...v) => this.requests.labels(...v));
    this.durationOf = labelledChildren((...v) => this.duration.labels(...v));
  }

  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const started = process.hrtime.bigint();
      res.on("finish", () => {
        // The route pattern, never the raw path: ids in paths would explode label cardinality.
        this.record(req.method, (req.route?.path as string | undefined) ?? "unmatched", res.statusCode, started);
      });
      next();
    };
  }

  /** One finished request; `started` from process.hrtime.bigint(). */
  record(method: string, route: string, status: number, started: bigint): void {
    // Label order as declared: method, route, status.
    const code = String(status);
    this.requestsOf(method, route, code).inc();
    this.durationOf(method, route, code).observe(Number(process.hrtime.bigint() - started) / 1e9);
  }

  track(server: Server): void {
    server.on("connection", (socket) => {
      this.connections.inc();
      socket.once("close", () => this.connections.dec());
    });
  }
}
