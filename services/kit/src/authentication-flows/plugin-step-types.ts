import type { PluginRegistry } from "../plugins/plugin-registry.js";
import { PLUGIN_PREFIX } from "./flow-model.js";
import { registerStepType } from "./flow-step-registry.js";

/**
 * Makes each loaded plugin's authenticator a flow step type `plugin:<id>`, with the config keys
 * (and required keys) it declares, so the directory validates flows naming it as it validates
 * built-in steps and the token service's interpreters run it. Called once the plugins are loaded,
 * in every process of both run modes (plugin-loader.ts): a step whose plugin is not loaded stays
 * an unknown type (a 400 at validation) and a flow stored before fails closed (flow-plan.ts).
 */
export function registerPluginStepTypes(plugins: PluginRegistry): void {
  for (const t of plugins.stepTypes()) {
    registerStepType(t.type.slice(PLUGIN_PREFIX.length), {
      identifies: t.identifies, credential: t.credential, condition: false, configKeys: t.configKeys, required: t.required,
    });
  }
}
