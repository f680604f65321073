import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { ConfigError } from "../config.js";
import { createMetrics } from "../metrics.js";
import { openPlugins } from "./plugin-loader.js";
import { readPluginSettings } from "./plugin-settings.js";

/** The repository root (this file runs from dist/services/kit/src/plugins). */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../..");
const EXAMPLE = join(ROOT, "examples", "plugins", "tessera-plugin-example");
const silent = pino({ level: "silent" });

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tessera-plugins-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An npm package under `<dir>/node_modules/<name>` whose index.js is `source`. */
function pkg(name: string, source: string): void {
  const at = join(dir, "node_modules", name);
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, "package.json"), JSON.stringify({ name, version: "1.0.0", type: "module", exports: { ".": "./index.js" } }));
  writeFileSync(join(at, "index.js"), source);
}

const mapperPlugin = (id: string) =>
  `export default { id: ${JSON.stringify(id)}, version: "1.0.0", kinds: ["protocol-mapper"], protocolMapper: { defaultClaimName: "c", map: () => 1 } };`;

async function load(env: Record<string, string>) {
  return openPlugins(readPluginSettings({ TESSERA_PLUGIN_DIR: dir, ...env }), env, silent, createMetrics());
}

async function refusal(env: Record<string, string>): Promise<ConfigError> {
  const e = await load(env).then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(ConfigError);
  return e as ConfigError;
}

describe("plugin loader", () => {
  it("loads the example plugin by package name from TESSERA_PLUGIN_DIR, and by path", async () => {
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(EXAMPLE, join(dir, "node_modules", "tessera-plugin-example"), "dir");
    const byName = await load({ TESSERA_PLUGINS: "tessera-plugin-example" });
    expect(byName.loaded.map((l) => [l.plugin.id, l.plugin.version, l.source])).toEqual([["example", "1.0.0", "tessera-plugin-example"]]);
    expect([byName.mapperTypes(), byName.authenticatorTypes(), byName.listeners().map((l) => l.pluginId)])
      .toEqual([["plugin:example"], ["plugin:example"], ["example"]]);
    const byPath = await openPlugins(readPluginSettings({ TESSERA_PLUGINS: EXAMPLE }), {}, silent);
    expect(byPath.mapper("plugin:example")?.defaultClaimName).toBe("tessera_example");
    expect(byPath.mapper("plugin:other")).toBeUndefined();
  });

  it("publishes the interface as tessera/plugin: the types' source and the compiled module exist", () => {
    const exports = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, Record<string, string>> }).exports["./plugin"]!;
    expect(exports).toEqual({ types: "./services/kit/src/plugins/plugin-api.ts", default: "./dist/services/kit/src/plugins/plugin-api.js" });
    for (const file of Object.values(exports)) expect(existsSync(join(ROOT, file))).toBe(true);
  });

  it("loads nothing without TESSERA_PLUGINS", async () => {
    expect((await load({})).loaded).toEqual([]);
  });

  it("refuses a package that cannot be found, naming TESSERA_PLUGINS and the plugin", async () => {
    const e = await refusal({ TESSERA_PLUGINS: "no-such-plugin" });
    expect(e.message).toBe(`TESSERA_PLUGINS: plugin "no-such-plugin" cannot be found from ${dir} (install it there, or set TESSERA_PLUGIN_DIR to the directory holding its node_modules)`);
  });

  it("refuses a package that fails to load", async () => {
    pkg("broken", "throw new Error('cannot start');");
    expect((await refusal({ TESSERA_PLUGINS: "broken" })).message).toBe(`TESSERA_PLUGINS: plugin "broken" failed to load: Error: cannot start`);
  });

  it("refuses a module without a plugin export", async () => {
    pkg("bare", "export const x = 1;");
    expect((await refusal({ TESSERA_PLUGINS: "bare" })).message)
      .toBe(`TESSERA_PLUGINS: plugin "bare" does not export a plugin (a default export, or an export named plugin, with id, version and kinds)`);
  });

  it.each([
    ["an invalid id", `export default { id: "Bad Id", version: "1.0.0", kinds: ["event-listener"] };`, `has an invalid id "Bad Id" (lower-case letters, digits and dashes, at most 64)`],
    ["an invalid version", `export default { id: "p", version: "one", kinds: ["event-listener"] };`, `(id p) has an invalid version "one" (semantic versioning, e.g. 1.0.0)`],
    ["no kinds", `export default { id: "p", version: "1.0.0", kinds: [] };`, `(id p) must list its kinds: one or more of event-listener, protocol-mapper, authenticator`],
    ["an unknown kind", `export default { id: "p", version: "1.0.0", kinds: ["theme"] };`, `(id p) has an unknown kind "theme" (one of event-listener, protocol-mapper, authenticator)`],
    ["a kind without its extension", `export default { id: "p", version: "1.0.0", kinds: ["protocol-mapper"] };`, `(id p) lists kind protocol-mapper but exports no protocolMapper`],
    ["an extension without its kind", `export default { id: "p", version: "1.0.0", kinds: ["event-listener"], eventListener: { onLoginEvent() {} }, authenticator: {} };`,
      `(id p) exports authenticator but does not list kind authenticator`],
    ["a listener with no handler", `export const plugin = { id: "p", version: "1.0.0", kinds: ["event-listener"], eventListener: {} };`,
      `(id p) has an invalid eventListener: it has neither onLoginEvent nor onAdminEvent`],
    ["a mapper writing a protocol claim", `export default { id: "p", version: "1.0.0", kinds: ["protocol-mapper"], protocolMapper: { defaultClaimName: "iss", map() {} } };`,
      `(id p) has an invalid protocolMapper: defaultClaimName must not be the protocol claim "iss"`],
    ["a mapper claiming a token switch", `export default { id: "p", version: "1.0.0", kinds: ["protocol-mapper"], protocolMapper: { defaultClaimName: "c", configKeys: ["id.token.claim"], map() {} } };`,
      `(id p) has an invalid protocolMapper: configKeys must not name id.token.claim, a setting of every mapper`],
    ["an authenticator without authenticate", `export default { id: "p", version: "1.0.0", kinds: ["authenticator"], authenticator: { displayName: "x" } };`,
      `(id p) has an invalid authenticator: authenticate is not a function`],
  ])("refuses a plugin with %s", async (_what, source, problem) => {
    pkg("bad", source);
    expect((await refusal({ TESSERA_PLUGINS: "bad" })).message).toBe(`TESSERA_PLUGINS: plugin "bad" ${problem}`);
  });

  it("refuses two plugins with one id", async () => {
    pkg("first", mapperPlugin("same"));
    pkg("second", mapperPlugin("same"));
    expect((await refusal({ TESSERA_PLUGINS: "first, second" })).message)
      .toBe(`TESSERA_PLUGINS: plugin "second" has the id "same" of plugin "first"; plugin ids must be unique`);
  });

  it("refuses a plugin whose init throws or hangs, and gives init the environment", async () => {
    pkg("fails", `export default { id: "fails", version: "1.0.0", kinds: ["event-listener"], eventListener: { onLoginEvent() {} }, init(c) { throw new Error("needs " + c.env.X); } };`);
    expect((await refusal({ TESSERA_PLUGINS: "fails", X: "y" })).message).toBe(`TESSERA_PLUGINS: plugin "fails" (id fails) failed to initialise (it threw; see the log)`);
    pkg("hangs", `export default { id: "hangs", version: "1.0.0", kinds: ["event-listener"], eventListener: { onLoginEvent() {} }, init: () => new Promise(() => {}) };`);
    expect((await refusal({ TESSERA_PLUGINS: "hangs", TESSERA_PLUGIN_TIMEOUT_MS: "50" })).message)
      .toBe(`TESSERA_PLUGINS: plugin "hangs" (id hangs) failed to initialise (no answer within TESSERA_PLUGIN_TIMEOUT_MS, 50 ms)`);
  });

  it("refuses a TESSERA_PLUGIN_DIR that is not a directory", async () => {
    const e = await openPlugins(readPluginSettings({ TESSERA_PLUGINS: "x", TESSERA_PLUGIN_DIR: join(dir, "missing") }), {}, silent).catch((err: unknown) => err);
    expect((e as ConfigError).message).toBe(`TESSERA_PLUGIN_DIR: ${join(dir, "missing")} is not a directory`);
  });
});

describe("plugin settings", () => {
  it("reads the list, the directory and the timeout", () => {
    expect(readPluginSettings({})).toEqual({ names: [], dir: undefined, timeoutMs: 2000 });
    expect(readPluginSettings({ TESSERA_PLUGINS: " a , ./b ", TESSERA_PLUGIN_DIR: "/opt/p", TESSERA_PLUGIN_TIMEOUT_MS: "500" }))
      .toEqual({ names: ["a", "./b"], dir: "/opt/p", timeoutMs: 500 });
  });

  it.each([
    [{ TESSERA_PLUGINS: "a,,b" }, `TESSERA_PLUGINS: must be a comma-separated list of package names or paths, got "a,,b" (an empty entry)`],
    [{ TESSERA_PLUGINS: "a,a" }, `TESSERA_PLUGINS: names "a" twice`],
    [{ TESSERA_PLUGIN_TIMEOUT_MS: "0" }, "TESSERA_PLUGIN_TIMEOUT_MS: must be between 1 and 60000, got 0"],
    [{ TESSERA_PLUGIN_TIMEOUT_MS: "2s" }, `TESSERA_PLUGIN_TIMEOUT_MS: must be an integer, got "2s"`],
  ])("refuses %j", (env, message) => {
    expect(() => readPluginSettings(env)).toThrow(message);
  });
});
