import type { Counter } from "prom-client";
import type { Logger } from "pino";
import type { Metrics } from "../metrics.js";
import type { PluginKind } from "./plugin-api.js";

export type CallOutcome = "ok" | "error" | "timeout";
export type CallResult<T> = { ok: true; value: T } | { ok: false; outcome: Exclude<CallOutcome, "ok"> };

/** How much of a plugin's error message the log keeps: enough to diagnose, never a dump. */
const MAX_ERROR_CHARS = 300;

/**
 * Runs plugin code with a timeout and error isolation (docs/plugins.md): a call that throws,
 * rejects or does not settle within the limit fails alone, is logged without its arguments (they
 * hold user data) and counted in `tessera_plugin_calls_total{plugin,kind,outcome}`. A call past its
 * limit keeps running (JavaScript cannot cancel it) but nothing waits for it, and its late
 * rejection is swallowed so it can never become an unhandled rejection that ends the process.
 */
export class PluginCalls {
  private readonly calls: Counter<string> | undefined;

  constructor(readonly timeoutMs: number, private readonly logger: Logger, metrics?: Metrics) {
    this.calls = metrics?.counter("tessera_plugin_calls_total", "Calls into plugins, by plugin, kind and outcome (ok, error, timeout)", ["plugin", "kind", "outcome"]);
  }

  /**
   * `check` says what is wrong with a returned value (a mapper's value that is not JSON), if
   * anything: such a value fails the call as a throw would.
   */
  async run<T>(plugin: string, kind: PluginKind, fn: () => T | Promise<T>, check?: (value: T) => string | undefined): Promise<CallResult<T>> {
    let timer: NodeJS.Timeout | undefined;
    let settled: CallResult<T>;
    try {
      const work = Promise.resolve().then(fn);
      const timeout = new Promise<"timeout">((resolve) => { timer = setTimeout(() => resolve("timeout"), this.timeoutMs); });
      const first = await Promise.race([work.then((value) => ({ value })), timeout]);
      if (first === "timeout") {
        work.catch(() => undefined);
        settled = { ok: false, outcome: "timeout" };
        this.logger.warn({ plugin, kind, outcome: "timeout", timeoutMs: this.timeoutMs }, "plugin call timed out; its result is ignored");
      } else {
        const problem = check?.(first.value);
        if (problem === undefined) settled = { ok: true, value: first.value };
        else {
          settled = { ok: false, outcome: "error" };
          this.logger.warn({ plugin, kind, outcome: "error", error: problem }, "plugin call returned an invalid result");
        }
      }
    } catch (e) {
      settled = { ok: false, outcome: "error" };
      this.logger.warn({ plugin, kind, outcome: "error", error: describe(e) }, "plugin call failed");
    } finally {
      clearTimeout(timer);
    }
    this.count(plugin, kind, settled.ok ? "ok" : settled.outcome);
    return settled;
  }

  private count(plugin: string, kind: PluginKind, outcome: CallOutcome): void {
    this.calls?.inc({ plugin, kind, outcome });
  }
}

function describe(e: unknown): string {
  const text = e instanceof Error ? `${e.name}: ${e.message}` : typeof e === "string" ? e : "a non-Error value was thrown";
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}...` : text;
}
