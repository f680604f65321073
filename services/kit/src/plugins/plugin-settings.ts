import { ConfigError, int, optStr, type Env } from "../config.js";

/** How plugins are named and run (docs/plugins.md); read with the other common settings. */
export interface PluginSettings {
  /** Package names or paths, in TESSERA_PLUGINS's order (the order listeners hear events in). */
  names: string[];
  /** Where names resolve from (Node's resolution: `<dir>/node_modules`, then up); default the cwd. */
  dir: string | undefined;
  /** The limit of every plugin call, ms. */
  timeoutMs: number;
}

export const DEFAULT_PLUGIN_TIMEOUT_MS = 2000;

/**
 * TESSERA_PLUGINS is a comma-separated list; blanks around entries are ignored. An empty entry or
 * a name given twice is a mistake an operator should hear about at boot, not a plugin silently
 * loaded once.
 */
export function readPluginSettings(env: Env): PluginSettings {
  const raw = optStr(env, "TESSERA_PLUGINS");
  const names = raw === undefined ? [] : raw.split(",").map((n) => n.trim());
  if (names.some((n) => n === "")) throw new ConfigError("TESSERA_PLUGINS", `must be a comma-separated list of package names or paths, got "${raw}" (an empty entry)`);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new ConfigError("TESSERA_PLUGINS", `names "${twice}" twice`);
  return {
    names,
    dir: optStr(env, "TESSERA_PLUGIN_DIR"),
    timeoutMs: int(env, "TESSERA_PLUGIN_TIMEOUT_MS", DEFAULT_PLUGIN_TIMEOUT_MS, 1, 60_000),
  };
}
