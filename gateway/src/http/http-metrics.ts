import type { Server } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { Gauge, type Registry } from "prom-client";
import { LabelledCounter, LabelledHistogram } from "../../../services/kit/src/labelled-metrics.js";

/** Gateway HTTP metrics (spec 4.20; DESIGN 4): request counts, durations, active connections. */
export class HttpMetrics {
  private readonly requests: LabelledCounter;
  private readonly duration: LabelledHistogram;
  private readonly connections: Gauge;

  constructor(registry: Registry) {
    this.requests = new LabelledCounter("http_requests_total", "HTTP requests handled by the gateway", ["method", "route", "status"], registry);
    this.duration = new LabelledHistogram(
      "http_request_duration_seconds", "HTTP request duration in seconds", ["method", "route", "status"],
      [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registry,
    );
    this.connections = new Gauge({
      name: "http_active_connections", help: "Open HTTP connections to the gateway", registers: [registry],
    });
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
    this.requests.labels(method, route, code).inc();
    this.duration.labels(method, route, code).observe(Number(process.hrtime.bigint() - started) / 1e9);
  }

  track(server: Server): void {
    server.on("connection", (socket) => {
      this.connections.inc();
      socket.once("close", () => this.connections.dec());
    });
  }
}
