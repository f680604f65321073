import type { Doc } from "../../../kit/src/store/port.js";

/** A realm role (`clientId` "") or a client role (`clientId` = the client's record id) (spec 2.4). */
export interface RoleRecord extends Doc {
  realmId: string;
  clientId: string;
  name: string;
  description: string;
  createdAt: number;
  /** Ids of the roles it contains (Keycloak's composite role); absent or empty: not a composite. */
  composites?: string[];
}

export type HolderType = "user" | "group";

/**
 * A role granted to a user or group (spec 4.5, 4.6). `clientId` repeats the role's client ("" for
 * realm roles) so one client's mappings are listed and deleted without a join.
 */
export interface RoleMappingRecord extends Doc {
  realmId: string;
  holderType: HolderType;
  holderId: string;
  roleId: string;
  clientId: string;
}

/** The realm role every realm has, needed for OIDC offline tokens (Keycloak's default role). */
export const OFFLINE_ACCESS_ROLE = "offline_access";

export function roleView(r: RoleRecord, clientSlug = "") {
  return {
    id: r._id, name: r.name, description: r.description, clientRole: r.clientId !== "", clientId: clientSlug,
    composite: (r.composites?.length ?? 0) > 0,
  };
}
