import { RESERVED_CLAIMS, TOKEN_FLAGS } from "../validation/mapper-types.js";
import { PLUGIN_KINDS, type PluginKind, type TesseraPlugin } from "./plugin-api.js";

/** What is wrong with a plugin's export, in words that follow `plugin "<name>"`. */
export class PluginProblem extends Error {}

const ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
// Semantic versioning 2.0.0's shape (major.minor.patch, optional pre-release and build).
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const CONFIG_KEY = /^[A-Za-z0-9._-]{1,128}$/;
/** The keys Tessera reads itself from every plugin mapper's config. */
const OWN_MAPPER_KEYS = new Set([...TOKEN_FLAGS, "claim.name"]);

const EXTENSION_OF: Record<PluginKind, keyof TesseraPlugin> = {
  "event-listener": "eventListener",
  "protocol-mapper": "protocolMapper",
  authenticator: "authenticator",
};

type Loose = Record<string, unknown>;

/**
 * Checks a module's plugin export against the interface (plugin-api.ts) at boot, so a mistake
 * stops the process with its reason rather than failing at the first event or token.
 */
export function validatePlugin(exported: unknown): TesseraPlugin {
  if (!isObject(exported)) throw new PluginProblem("does not export a plugin (a default export, or an export named plugin, with id, version and kinds)");
  const p = exported;
  if (typeof p.id !== "string" || !ID.test(p.id)) throw new PluginProblem(`has an invalid id ${show(p.id)} (lower-case letters, digits and dashes, at most 64)`);
  if (typeof p.version !== "string" || !VERSION.test(p.version)) throw new PluginProblem(`(id ${p.id}) has an invalid version ${show(p.version)} (semantic versioning, e.g. 1.0.0)`);
  const kinds = p.kinds;
  if (!Array.isArray(kinds) || kinds.length === 0) throw new PluginProblem(`(id ${p.id}) must list its kinds: one or more of ${PLUGIN_KINDS.join(", ")}`);
  for (const k of kinds) {
    if (!PLUGIN_KINDS.includes(k as PluginKind)) throw new PluginProblem(`(id ${p.id}) has an unknown kind ${show(k)} (one of ${PLUGIN_KINDS.join(", ")})`);
  }
  if (new Set(kinds).size !== kinds.length) throw new PluginProblem(`(id ${p.id}) lists a kind twice`);
  for (const kind of PLUGIN_KINDS) {
    const field = EXTENSION_OF[kind];
    const listed = kinds.includes(kind);
    if (listed && p[field] === undefined) throw new PluginProblem(`(id ${p.id}) lists kind ${kind} but exports no ${field}`);
    if (!listed && p[field] !== undefined) throw new PluginProblem(`(id ${p.id}) exports ${field} but does not list kind ${kind}`);
  }
  if (p.init !== undefined && typeof p.init !== "function") throw new PluginProblem(`(id ${p.id}) has an init that is not a function`);
  const at = (field: string) => `(id ${p.id}) has an invalid ${field}:`;
  if (p.eventListener !== undefined) checkListener(p.eventListener, at("eventListener"));
  if (p.protocolMapper !== undefined) checkMapper(p.protocolMapper, at("protocolMapper"));
  if (p.authenticator !== undefined) checkAuthenticator(p.authenticator, at("authenticator"));
  return exported as unknown as TesseraPlugin;
}

function checkListener(v: unknown, at: string): void {
  if (!isObject(v)) throw new PluginProblem(`${at} not an object`);
  for (const f of ["onLoginEvent", "onAdminEvent"]) {
    if (v[f] !== undefined && typeof v[f] !== "function") throw new PluginProblem(`${at} ${f} is not a function`);
  }
  if (v.onLoginEvent === undefined && v.onAdminEvent === undefined) throw new PluginProblem(`${at} it has neither onLoginEvent nor onAdminEvent`);
}

function checkMapper(v: unknown, at: string): void {
  if (!isObject(v)) throw new PluginProblem(`${at} not an object`);
  if (typeof v.map !== "function") throw new PluginProblem(`${at} map is not a function`);
  const claim = v.defaultClaimName;
  if (typeof claim !== "string" || claim === "" || claim.split(".").some((s) => s === "")) {
    throw new PluginProblem(`${at} defaultClaimName must be a claim name like "a" or "a.b", got ${show(claim)}`);
  }
  if (RESERVED_CLAIMS.has(claim.split(".")[0] as string)) throw new PluginProblem(`${at} defaultClaimName must not be the protocol claim "${claim}"`);
  checkKeys(v, at, (k) => OWN_MAPPER_KEYS.has(k) ? `${k}, a setting of every mapper` : undefined);
}

function checkAuthenticator(v: unknown, at: string): void {
  if (!isObject(v)) throw new PluginProblem(`${at} not an object`);
  if (typeof v.authenticate !== "function") throw new PluginProblem(`${at} authenticate is not a function`);
  if (typeof v.displayName !== "string" || v.displayName === "") throw new PluginProblem(`${at} displayName must be a non-empty string`);
  for (const f of ["identifies", "credential"]) {
    if (v[f] !== undefined && typeof v[f] !== "boolean") throw new PluginProblem(`${at} ${f} must be true or false`);
  }
  checkKeys(v, at, () => undefined);
}

/** `configKeys` and `requiredConfigKeys`: names Tessera can store, the required ones among the keys. */
function checkKeys(v: Loose, at: string, reserved: (k: string) => string | undefined): void {
  const keys = v.configKeys ?? [];
  const required = v.requiredConfigKeys ?? [];
  if (!Array.isArray(keys) || keys.some((k) => typeof k !== "string" || !CONFIG_KEY.test(k))) {
    throw new PluginProblem(`${at} configKeys must be a list of names of letters, digits, ".", "_" and "-"`);
  }
  for (const k of keys as string[]) {
    const why = reserved(k);
    if (why) throw new PluginProblem(`${at} configKeys must not name ${why}`);
  }
  if (!Array.isArray(required) || required.some((k) => !(keys as unknown[]).includes(k))) {
    throw new PluginProblem(`${at} requiredConfigKeys must be a list of names from configKeys`);
  }
}

function isObject(v: unknown): v is Loose {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function show(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}...` : v);
  return v === undefined ? "(missing)" : typeof v;
}
