import { IamError } from "../../../kit/src/errors.js";
import type { GroupRecord } from "./group.js";

export const DEFAULT_GROUPS_MAX = 100;
export const MAX_GROUPS_MAX = 1000;

/** The optional parameters of Keycloak's GET /groups and GET /groups/{id}/children. */
export interface GroupQuery {
  first?: number;
  max?: number;
  search?: string;
  exact?: boolean;
  /** Keycloak's attribute query: `key:value` pairs separated by spaces, all required. */
  q?: string;
}

/** `first` and `max` as skip and limit; `max` defaults to 100 and is at most 1000. */
export function groupPage(first: number | undefined, max: number | undefined): { skip: number; limit: number } {
  if (first !== undefined && (!Number.isInteger(first) || first < 0)) throw IamError.invalid("first", "first must be a non-negative integer");
  if (max !== undefined && (!Number.isInteger(max) || max < 1 || max > MAX_GROUPS_MAX)) {
    throw IamError.invalid("max", `max must be an integer between 1 and ${MAX_GROUPS_MAX}`);
  }
  return { skip: first ?? 0, limit: max ?? DEFAULT_GROUPS_MAX };
}

/** Whether a group's name matches `search`: contained in it, case-insensitively, or equal to it with `exact`. */
export function nameMatcher(search: string, exact: boolean): (g: GroupRecord) => boolean {
  if (search.length > 255) throw IamError.invalid("search", "search has at most 255 characters");
  const lower = search.toLowerCase();
  return exact ? (g) => g.name === search : (g) => g.name.toLowerCase().includes(lower);
}

/**
 * Keycloak's `q` for groups: `key:value` pairs separated by spaces (a value may hold `:`); a group
 * matches when each key's values on the group itself include the value exactly.
 */
export function attributeMatcher(q: string): (g: GroupRecord) => boolean {
  const bad = () => IamError.invalid("q", "q must be key:value pairs separated by spaces");
  if (q.length > 1024) throw IamError.invalid("q", "q has at most 1024 characters");
  const pairs = q.split(/\s+/).filter(Boolean).map((term) => {
    const at = term.indexOf(":");
    if (at < 1) throw bad();
    return [term.slice(0, at), term.slice(at + 1)] as const;
  });
  if (!pairs.length) throw bad();
  return (g) => pairs.every(([k, v]) => (g.attributes?.[k] ?? []).includes(v));
}

/**
 * The groups a search result shows: each matched group with its whole subtree, and the ancestors
 * that lead to it (Keycloak's populated hierarchy), from all the realm's groups.
 */
export function withHierarchy(all: GroupRecord[], matches: (g: GroupRecord) => boolean): GroupRecord[] {
  const byId = new Map(all.map((g) => [g._id, g]));
  const keep = new Set<string>();
  const matchedPaths: string[] = [];
  for (const g of all) {
    if (!matches(g)) continue;
    matchedPaths.push(`${g.path}/`);
    for (let a: GroupRecord | undefined = g; a && !keep.has(a._id); a = a.parentId ? byId.get(a.parentId) : undefined) keep.add(a._id);
  }
  // A descendant of a match is kept whole: its path starts with the match's path and "/".
  for (const g of all) if (!keep.has(g._id) && matchedPaths.some((p) => g.path.startsWith(p))) keep.add(g._id);
  return all.filter((g) => keep.has(g._id));
}
