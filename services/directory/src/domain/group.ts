import type { Doc } from "../../../kit/src/store/port.js";

/**
 * A group (spec 2.5). `parentId` is "" for a top-level group; `path` is "/a/b" (names of the
 * ancestors and itself), unique per realm, which makes sibling names unique and subtree queries a
 * prefix match on `path`.
 */
export interface GroupRecord extends Doc {
  realmId: string;
  name: string;
  description: string;
  parentId: string;
  path: string;
  /** Keycloak's group attributes; absent on groups written before they existed. */
  attributes?: Record<string, string[]>;
  createdAt: number;
  updatedAt: number;
}
