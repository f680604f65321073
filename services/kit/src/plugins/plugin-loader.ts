import { statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Logger } from "pino";
import { ConfigError, type Env } from "../config.js";
import type { Metrics } from "../metrics.js";
import type { PluginContext, PluginLog } from "./plugin-api.js";
import { PluginCalls } from "./plugin-calls.js";
import { PluginRegistry, type LoadedPlugin } from "./plugin-registry.js";
import type { PluginSettings } from "./plugin-settings.js";
import { registerPluginStepTypes } from "../authentication-flows/plugin-step-types.js";
import { PluginProblem, validatePlugin } from "./plugin-validation.js";

const SETTING = "TESSERA_PLUGINS";

/**
 * Loads the plugins TESSERA_PLUGINS names (docs/plugins.md), at boot, in every process: each
 * service uses the extension points it owns (the directory protocol mappers, the audit service
 * event listeners, the flow interpreters authenticator steps), and a bad plugin stops every
 * process alike. A name resolves as Node resolves a bare specifier from TESSERA_PLUGIN_DIR (or the
 * working directory): `<dir>/node_modules/<name>`, then up; a name starting with `.` or `/` is a
 * path. A plugin that cannot be found, loaded or validated, whose id another plugin has, or whose
 * init fails is a ConfigError naming TESSERA_PLUGINS and the plugin: exit 78.
 */
export async function openPlugins(settings: PluginSettings, env: Env, logger: Logger, metrics?: Metrics): Promise<PluginRegistry> {
  const calls = new PluginCalls(settings.timeoutMs, logger.child({ part: "plugins" }), metrics);
  if (settings.names.length === 0) return new PluginRegistry([], calls);
  const base = pluginBase(settings.dir);
  const loaded: LoadedPlugin[] = [];
  for (const name of settings.names) {
    const plugin = await importPlugin(name, base);
    const same = loaded.find((l) => l.plugin.id === plugin.id);
    if (same) throw new ConfigError(SETTING, `plugin "${name}" has the id "${plugin.id}" of plugin "${same.source}"; plugin ids must be unique`);
    loaded.push({ plugin, source: name });
  }
  const frozenEnv = Object.freeze({ ...env });
  for (const { plugin, source } of loaded) {
    if (!plugin.init) continue;
    const init = plugin.init.bind(plugin);
    const context: PluginContext = { env: frozenEnv, log: pluginLog(logger.child({ plugin: plugin.id })) };
    const res = await calls.run(plugin.id, plugin.kinds[0]!, () => init(context));
    if (!res.ok) {
      throw new ConfigError(SETTING, `plugin "${source}" (id ${plugin.id}) failed to initialise (${res.outcome === "timeout" ? `no answer within TESSERA_PLUGIN_TIMEOUT_MS, ${settings.timeoutMs} ms` : "it threw; see the log"})`);
    }
  }
  for (const { plugin, source } of loaded) logger.info({ plugin: plugin.id, version: plugin.version, kinds: plugin.kinds, source }, "plugin loaded");
  const registry = new PluginRegistry(loaded, calls);
  registerPluginStepTypes(registry);
  return registry;
}

/** TESSERA_PLUGIN_DIR, checked: a directory that is not one would make every name "not found". */
function pluginBase(dir: string | undefined): string {
  if (dir === undefined) return process.cwd();
  const abs = resolve(dir);
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch { /* reported below */ }
  if (!isDir) throw new ConfigError("TESSERA_PLUGIN_DIR", `${abs} is not a directory`);
  return abs;
}

async function importPlugin(name: string, base: string) {
  let file: string;
  try {
    // Resolved as if required by a module in `base`: bare names search its node_modules upwards.
    file = createRequire(join(base, "noop.js")).resolve(name);
  } catch {
    throw new ConfigError(SETTING, `plugin "${name}" cannot be found from ${base} (install it there, or set TESSERA_PLUGIN_DIR to the directory holding its node_modules)`);
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (e) {
    throw new ConfigError(SETTING, `plugin "${name}" failed to load: ${firstLine(e)}`);
  }
  try {
    return validatePlugin(module.default ?? module.plugin);
  } catch (e) {
    if (e instanceof PluginProblem) throw new ConfigError(SETTING, `plugin "${name}" ${e.message}`);
    throw e;
  }
}

function pluginLog(logger: Logger): PluginLog {
  return {
    info: (message, fields) => logger.info(fields ?? {}, message),
    warn: (message, fields) => logger.warn(fields ?? {}, message),
    error: (message, fields) => logger.error(fields ?? {}, message),
  };
}

function firstLine(e: unknown): string {
  const text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return text.split("\n")[0]!.slice(0, 300);
}
