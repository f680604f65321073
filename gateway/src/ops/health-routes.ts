import { getHeapStatistics } from "node:v8";
import { toJson } from "@bufbuild/protobuf";
import type { Registry } from "prom-client";
import { ServiceHealthSchema, type ServiceHealth } from "../../../gen/iam/kit/v1/kit_pb.js";
import type { RouteTable } from "../http/route-table.js";
import type { RpcClients } from "../rpc-clients.js";

const PROBE_TIMEOUT_MS = 3000;

/** Operational endpoints (spec 4.20). */
export function addHealthRoutes(table: RouteTable, rpc: RpcClients, registries: Registry[]): void {
  table
    .add("GET", "/health", "public", async () => ({ status: 200, body: { status: "ok" } }))
    .add("GET", "/health/ready", "public", async () => {
      const probes: Array<[string, () => Promise<{ health?: ServiceHealth }>]> = [
        ["directory", () => rpc.directory.health({}, { timeoutMs: PROBE_TIMEOUT_MS })],
        ["token", () => rpc.token.health({}, { timeoutMs: PROBE_TIMEOUT_MS })],
        ["saml", () => rpc.saml.health({}, { timeoutMs: PROBE_TIMEOUT_MS })],
        ["broker", () => rpc.broker.health({}, { timeoutMs: PROBE_TIMEOUT_MS })],
        ["federation", () => rpc.federation.health({}, { timeoutMs: PROBE_TIMEOUT_MS })],
        ["audit", () => rpc.audit.health({}, { timeoutMs: PROBE_TIMEOUT_MS })],
      ];
      const services: Record<string, unknown> = {};
      let ready = true;
      await Promise.all(probes.map(async ([name, probe]) => {
        try {
          const h = (await probe()).health;
          if (!h?.ready) ready = false;
          services[name] = h ? toJson(ServiceHealthSchema, h, { alwaysEmitImplicit: true }) : { ready: false };
        } catch (e) {
          ready = false;
          services[name] = { service: name, ready: false, detail: e instanceof Error ? e.message : "unreachable" };
        }
      }));
      const heap = process.memoryUsage().heapUsed;
      const limit = getHeapStatistics().heap_size_limit;
      return {
        status: ready ? 200 : 503,
        body: {
          status: ready ? "ok" : "unavailable",
          gateway: { heapUsedBytes: heap, heapLimitBytes: limit, heapUsedRatio: heap / limit },
          services,
        },
      };
    })
    .add("GET", "/metrics", "public", async (_req, res) => {
      const bodies = await Promise.all(registries.map((r) => r.metrics()));
      res.setHeader("Content-Type", registries[0]?.contentType ?? "text/plain; version=0.0.4; charset=utf-8");
      res.status(200).send(bodies.join("\n"));
    });
}
