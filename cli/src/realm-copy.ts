import { randomUUID } from "node:crypto";
import { CliError, EXIT } from "./exit-codes.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A realm export made into a copy under another name. The import keeps ids, and an id belongs to
 * one realm, so importing the same document twice is refused; the copy gets a fresh uuid for every
 * `id`, and every other value equal to a replaced id (a reference) follows it. Works on Tessera's
 * document (`realm` is an object) and Keycloak's (`realm` is the name).
 */
export function copyUnderName(doc: unknown, name: string): Record<string, unknown> {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw new CliError(EXIT.usage, "the realm document must be a JSON object");
  const ids = new Map<string, string>();
  collectIds(doc, ids);
  const copy = replaceIds(doc, ids) as Record<string, unknown>;
  if (typeof copy.realm === "string") copy.realm = name;
  else if (typeof copy.realm === "object" && copy.realm !== null && !Array.isArray(copy.realm)) (copy.realm as Record<string, unknown>).name = name;
  else throw new CliError(EXIT.usage, "the realm document has no realm section to rename");
  return copy;
}

function collectIds(value: unknown, ids: Map<string, string>): void {
  if (Array.isArray(value)) for (const v of value) collectIds(v, ids);
  else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === "id" && typeof v === "string" && UUID.test(v) && !ids.has(v)) ids.set(v, randomUUID());
      else collectIds(v, ids);
    }
  }
}

function replaceIds(value: unknown, ids: Map<string, string>): unknown {
  if (typeof value === "string") return ids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => replaceIds(v, ids));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceIds(v, ids)]));
  }
  return value;
}
