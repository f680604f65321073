import type { HeldGroup } from "./effective-access.js";
import type { GroupRecord } from "./group.js";

/** A user's own attributes and, when they are read, those of the user's groups (see inheritedGroupAttributes). */
export interface AttributeHolder {
  attributes: Record<string, string[]>;
  groupAttributes?: Array<Record<string, string[]>>;
}

/**
 * A user attribute as Keycloak's user attribute mapper reads it (KeycloakModelUtils.resolveAttribute):
 * the user's own values; without them, those of the first of the user's groups that has the
 * attribute, itself or through an ancestor. `aggregate` ("Aggregate attribute values") joins the
 * user's values and every group's, each value once.
 */
export function resolveAttribute(s: AttributeHolder, name: string, aggregate: boolean): string[] {
  const own = s.attributes[name] ?? [];
  if (own.length && !aggregate) return own;
  const fromGroups = (s.groupAttributes ?? []).map((g) => g[name] ?? []).filter((v) => v.length);
  if (!aggregate) return fromGroups[0] ?? [];
  return [...new Set([own, ...fromGroups].flat())];
}

/**
 * Each of the user's own groups' attributes merged with its ancestors' (Keycloak resolves a group's
 * attribute up its parent chain until a group has values), in group path order.
 */
export function inheritedGroupAttributes(groups: HeldGroup[]): Array<Record<string, string[]>> {
  const byId = new Map(groups.map((g) => [g.group._id, g.group]));
  return groups.filter((g) => g.direct).sort((a, b) => (a.group.path < b.group.path ? -1 : a.group.path > b.group.path ? 1 : 0)).map(({ group }) => {
    const chain: GroupRecord[] = [];
    for (let g: GroupRecord | undefined = group; g && !chain.includes(g); g = g.parentId ? byId.get(g.parentId) : undefined) chain.push(g);
    const merged: Record<string, string[]> = {};
    for (const g of chain.reverse()) for (const [k, v] of Object.entries(g.attributes ?? {})) if (v.length) merged[k] = v;
    return merged;
  });
}
