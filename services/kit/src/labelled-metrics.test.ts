import { describe, expect, it } from "@jest/globals";
import { Counter, Histogram, Registry, type RegistryContentType } from "prom-client";
import { LabelledCounter, LabelledHistogram } from "./labelled-metrics.js";

const BOUNDS = [0.001, 0.01, 0.1, 1];
const SAMPLES: Array<[string[], number]> = [
  [["POST", "/token", "200"], 0.0004],
  [["POST", "/token", "200"], 0.001], // on a bound: counted in that bucket (le is inclusive)
  [["POST", "/token", "200"], 0.05],
  [["POST", "/token", "401"], 0.002],
  [["GET", "/certs", "200"], 3], // above every bound: +Inf only
  [["POST", "/token", "200"], 0.7],
];

function registryFor(contentType: RegistryContentType): Registry<RegistryContentType> {
  const registry = new Registry<RegistryContentType>();
  registry.setContentType(contentType);
  return registry;
}

/** The exposition prom-client's own metrics give for the same calls: the format ours must keep. */
async function promClientExposition(contentType: RegistryContentType): Promise<string> {
  const registry = registryFor(contentType);
  const counter = new Counter({ name: "http_requests_total", help: "requests", labelNames: ["method", "route", "status"], registers: [registry] });
  const histogram = new Histogram({ name: "http_request_duration_seconds", help: "durations", labelNames: ["method", "route", "status"], buckets: BOUNDS, registers: [registry] });
  for (const [labels, v] of SAMPLES) {
    counter.labels(...labels).inc();
    histogram.labels(...labels).observe(v);
  }
  return registry.metrics();
}

async function labelledExposition(contentType: RegistryContentType): Promise<string> {
  const registry = registryFor(contentType);
  const counter = new LabelledCounter("http_requests_total", "requests", ["method", "route", "status"], registry);
  const histogram = new LabelledHistogram("http_request_duration_seconds", "durations", ["method", "route", "status"], BOUNDS, registry);
  for (const [labels, v] of SAMPLES) {
    counter.labels(...labels).inc();
    histogram.labels(...labels).observe(v);
  }
  return registry.metrics();
}

describe("LabelledCounter and LabelledHistogram", () => {
  it("expose exactly what prom-client's Counter and Histogram expose for the same calls", async () => {
    const ours = await labelledExposition(Registry.PROMETHEUS_CONTENT_TYPE);
    expect(ours).toBe(await promClientExposition(Registry.PROMETHEUS_CONTENT_TYPE));
    expect(ours).toContain('http_request_duration_seconds_bucket{le="0.001",method="POST",route="/token",status="200"} 2');
    expect(ours).toContain('http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/certs",status="200"} 1');
    expect(ours).toContain('http_request_duration_seconds_sum{method="POST",route="/token",status="200"} 0.7514');
    expect(ours).toContain('http_requests_total{method="POST",route="/token",status="200"} 4');
  });

  it("also in the OpenMetrics format (counter names get _total once)", async () => {
    expect(await labelledExposition(Registry.OPENMETRICS_CONTENT_TYPE)).toBe(await promClientExposition(Registry.OPENMETRICS_CONTENT_TYPE));
  });

  it("hands out one child per label set and refuses a wrong number of label values", () => {
    const h = new LabelledHistogram("d", "d", ["a", "b"], BOUNDS, new Registry());
    expect(h.labels("x", "y")).toBe(h.labels("x", "y"));
    expect(h.labels("x", "y")).not.toBe(h.labels("x", "z"));
    expect(() => h.labels("x")).toThrow("d takes 2 label values, got 1");
  });

  it("ignores a value that is not a finite number instead of poisoning the sum", async () => {
    const registry = new Registry();
    const h = new LabelledHistogram("d", "d", ["a"], BOUNDS, registry);
    h.labels("x").observe(Number.NaN);
    h.labels("x").observe(0.5);
    expect(await registry.metrics()).toContain('d_sum{a="x"} 0.5\nd_count{a="x"} 1');
  });

  it("starts from zero after reset, as prom-client's do", async () => {
    const registry = new Registry();
    const c = new LabelledCounter("c", "c", ["a"], registry);
    c.labels("x").inc(3);
    registry.resetMetrics();
    expect(await registry.metrics()).toBe("# HELP c c\n# TYPE c counter\n");
  });
});
