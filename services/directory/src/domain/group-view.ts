import type { GroupRecord } from "./group.js";
import { jsonTimestamp } from "../../../kit/src/json-timestamp.js";

export interface GroupView {
  id: string;
  name: string;
  description: string;
  parentId: string;
  path: string;
  /** Absent when there are none, as a user's (the spec's shape). */
  attributes?: Record<string, string[]>;
  subGroups: GroupView[];
  memberCount?: number;
  roleCount?: number;
  createdAt: string;
  updatedAt: string;
}

export function groupView(g: GroupRecord, subGroups: GroupView[] = []): GroupView {
  return {
    id: g._id,
    name: g.name,
    description: g.description,
    parentId: g.parentId,
    path: g.path,
    ...(g.attributes && Object.keys(g.attributes).length ? { attributes: g.attributes } : {}),
    subGroups,
    createdAt: jsonTimestamp(g.createdAt),
    updatedAt: jsonTimestamp(g.updatedAt),
  };
}

/**
 * Builds the tree (spec 2.5: top-level groups with nested children, named `subGroups` as in
 * Keycloak) from groups of one realm. `rootParentId` is "" for the realm's tree, or a group's id
 * for its subtree. Siblings are ordered by name.
 */
export function groupTree(groups: GroupRecord[], rootParentId: string): GroupView[] {
  const byParent = new Map<string, GroupRecord[]>();
  for (const g of groups) {
    const list = byParent.get(g.parentId) ?? [];
    list.push(g);
    byParent.set(g.parentId, list);
  }
  const build = (parentId: string): GroupView[] =>
    (byParent.get(parentId) ?? [])
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((g) => groupView(g, build(g._id)));
  return build(rootParentId);
}
