import { pino } from "pino";
import { PLUGIN_TYPE_PREFIX } from "../validation/mapper-types.js";
import type { AuthenticatorStep, EventListener, MapperInput, ProtocolMapper, StepInput, StepResult, TesseraPlugin } from "./plugin-api.js";
import { PluginCalls } from "./plugin-calls.js";
import { DEFAULT_PLUGIN_TIMEOUT_MS } from "./plugin-settings.js";

/** A plugin as loaded: its export, validated, and where it came from (TESSERA_PLUGINS's entry). */
export interface LoadedPlugin {
  plugin: TesseraPlugin;
  source: string;
}

/** What a failed, hanging or malformed authenticator answers in its place: the step fails. */
export const STEP_FAILED: StepResult = { outcome: "failure", error: "authentication step failed" };

/**
 * The plugins this process loaded, by extension point (plugin-api.ts): protocol mapper types and
 * authenticator step types are both `plugin:<id>`. Every call goes through PluginCalls (timeout,
 * isolation, metrics); inputs are copied, so a plugin cannot change what the server holds.
 */
export class PluginRegistry {
  private readonly byId: Map<string, TesseraPlugin>;

  constructor(readonly loaded: readonly LoadedPlugin[], readonly calls: PluginCalls) {
    this.byId = new Map(loaded.map((l) => [l.plugin.id, l.plugin]));
  }

  /** No plugins: what a process without TESSERA_PLUGINS (and a unit test) runs with. */
  static empty(): PluginRegistry {
    return new PluginRegistry([], new PluginCalls(DEFAULT_PLUGIN_TIMEOUT_MS, pino({ level: "silent" })));
  }

  mapperTypes(): string[] {
    return this.loaded.filter((l) => l.plugin.protocolMapper).map((l) => PLUGIN_TYPE_PREFIX + l.plugin.id);
  }

  mapper(type: string): ProtocolMapper | undefined {
    return this.extension(type)?.protocolMapper;
  }

  authenticatorTypes(): string[] {
    return this.loaded.filter((l) => l.plugin.authenticator).map((l) => PLUGIN_TYPE_PREFIX + l.plugin.id);
  }

  authenticator(type: string): AuthenticatorStep | undefined {
    return this.extension(type)?.authenticator;
  }

  /**
   * The authenticator step types as a flow validator describes step types: what each identifies
   * or checks and the config it takes (for the flow step registry's registerStepType).
   */
  stepTypes(): Array<{ type: string; identifies: boolean; credential: boolean; condition: false; configKeys: string[]; required: string[] }> {
    return this.loaded.flatMap(({ plugin: { id, authenticator: a } }) => (a ? [{
      type: PLUGIN_TYPE_PREFIX + id, identifies: a.identifies ?? false, credential: a.credential ?? false, condition: false as const,
      configKeys: [...(a.configKeys ?? [])], required: [...(a.requiredConfigKeys ?? [])],
    }] : []));
  }

  listeners(): Array<{ pluginId: string; listener: EventListener }> {
    return this.loaded.flatMap((l) => (l.plugin.eventListener ? [{ pluginId: l.plugin.id, listener: l.plugin.eventListener }] : []));
  }

  /**
   * The claim value of the mapper type `type`, or undefined when it has none: the mapper returned
   * undefined, or failed (threw, timed out, returned what JSON cannot carry). A failed mapper
   * leaves its claim out and the token is still issued (docs/plugins.md, "Isolation").
   */
  async runMapper(type: string, input: MapperInput): Promise<unknown> {
    const mapper = this.mapper(type);
    if (!mapper) return undefined;
    const id = type.slice(PLUGIN_TYPE_PREFIX.length);
    const copy = structuredClone(input);
    const res = await this.calls.run(id, "protocol-mapper", () => mapper.map(copy), jsonProblem);
    // Through JSON: what the token carries is exactly what a later resolution would give.
    return res.ok && res.value !== undefined ? JSON.parse(JSON.stringify(res.value)) : undefined;
  }

  /**
   * Runs the step type `type` for a flow interpreter. A failed call or a malformed answer is the
   * step's failure (STEP_FAILED): a broken plugin never lets a login through.
   */
  async runAuthenticator(type: string, input: StepInput): Promise<StepResult> {
    const step = this.authenticator(type);
    if (!step) return STEP_FAILED;
    const id = type.slice(PLUGIN_TYPE_PREFIX.length);
    const copy = structuredClone(input);
    const res = await this.calls.run(id, "authenticator", () => step.authenticate(copy), stepResultProblem);
    return res.ok ? res.value : STEP_FAILED;
  }

  private extension(type: string): TesseraPlugin | undefined {
    return type.startsWith(PLUGIN_TYPE_PREFIX) ? this.byId.get(type.slice(PLUGIN_TYPE_PREFIX.length)) : undefined;
  }
}

function jsonProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? `a ${typeof value} is not a JSON value` : undefined;
  } catch (e) {
    return `the value is not JSON: ${(e as Error).message}`;
  }
}

const FIELD_TYPES = new Set(["text", "password", "number"]);

function stepResultProblem(r: StepResult): string | undefined {
  const v = r as unknown as Record<string, unknown> | null;
  if (typeof v !== "object" || v === null) return "the result is not an object";
  switch (v.outcome) {
    case "success":
      return undefined;
    case "failure":
      return typeof v.error === "string" && v.error !== "" ? undefined : "a failure needs an error";
    case "challenge": {
      const page = v.page as { title?: unknown; message?: unknown; fields?: unknown } | undefined;
      if (!page || typeof page.title !== "string" || (page.message !== undefined && typeof page.message !== "string")) return "a challenge needs a page with a title";
      const fields = page.fields;
      if (!Array.isArray(fields) || fields.some((f: { name?: unknown; label?: unknown; type?: unknown }) =>
        typeof f?.name !== "string" || typeof f.label !== "string" || !FIELD_TYPES.has(f.type as string))) {
        return "a challenge page's fields need a name, a label and a type (text, password or number)";
      }
      return undefined;
    }
    default:
      return "outcome must be success, failure or challenge";
  }
}
