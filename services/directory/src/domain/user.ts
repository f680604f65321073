import type { JsonValue } from "@bufbuild/protobuf";
import type { Doc } from "../../../kit/src/store/port.js";
import { jsonTimestamp } from "../../../kit/src/json-timestamp.js";
import { orderedActions, type UserRequiredAction } from "../../../kit/src/validation/required-actions.js";

/**
 * A realm user as stored (spec 2.2). `usernameKey` / `emailKey` are the lower-cased forms that
 * carry the case-insensitive unique indexes (realmId + key). `emailKey` is `none:<id>` for a user
 * without email, because a unique field must hold a distinct value in every document (store port).
 */
export interface UserRecord extends Doc {
  realmId: string;
  username: string;
  usernameKey: string;
  email: string;
  emailKey: string;
  firstName: string;
  lastName: string;
  enabled: boolean;
  emailVerified: boolean;
  requirePasswordReset: boolean;
  /**
   * Keycloak's per-user required actions other than UPDATE_PASSWORD, which is
   * `requirePasswordReset` itself (one fact, stored once: userRequiredActions joins them).
   * Absent on users stored before the field existed: none.
   */
  requiredActions?: UserRequiredAction[];
  /** Set for a client's service-account user (spec 1.11): the client's clientId. */
  serviceAccountClientId: string;
  /** Free-form user attributes (string lists), read by attribute mappers. */
  attributes: Record<string, string[]>;
  createdAt: number;
  updatedAt: number;
  /**
   * The federation link of a user an LDAP provider imported (federated-users.ts): the provider's
   * id, the entry's stable id (entryUUID, objectGUID) and its DN. Absent for a local user.
   */
  federationProviderId?: string;
  federationExternalId?: string;
  federationDn?: string;
  /** The entry left LDAP and a sync disabled the user for it; the entry's return enables it again. */
  federationMissing?: boolean;
}

/** Create fields of spec 2.2 plus the migration flags; absent means "use the default". */
export interface UserCreateInput {
  username?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  enabled?: boolean;
  emailVerified?: boolean;
  requirePasswordReset?: boolean;
  /** Keycloak's names, any order (checked by requiredActionFields); UPDATE_PASSWORD is requirePasswordReset. */
  requiredActions?: string[];
  password?: string;
  /** As received (a JSON object of string lists); checked by checkAttributes. Replaces all on update. */
  attributes?: JsonValue;
}

/** Update fields of spec 4.2 (all optional, partial) plus the migration flags. */
export type UserUpdateInput = Omit<UserCreateInput, "password">;

/** Prefix of `emailKey` for a user without email (see UserRecord). */
export const NO_EMAIL_PREFIX = "none:";

export function emailKeyOf(id: string, email: string): string {
  return email ? email.toLowerCase() : `${NO_EMAIL_PREFIX}${id}`;
}

/** The user's required actions as Keycloak lists them: the stored ones and UPDATE_PASSWORD, in priority order. */
export function userRequiredActions(u: Pick<UserRecord, "requiredActions" | "requirePasswordReset">): UserRequiredAction[] {
  return orderedActions([...(u.requiredActions ?? []), ...(u.requirePasswordReset ? ["UPDATE_PASSWORD"] : [])]);
}

/** The user as the Admin API shows it (spec 2.2): never a password or hash (they live elsewhere). */
export function userView(u: UserRecord) {
  return {
    id: u._id,
    username: u.username,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    enabled: u.enabled,
    emailVerified: u.emailVerified,
    requirePasswordReset: u.requirePasswordReset,
    requiredActions: userRequiredActions(u),
    createdAt: jsonTimestamp(u.createdAt),
    updatedAt: jsonTimestamp(u.updatedAt),
    // Keycloak shows attributes only when there are some; a user without any keeps spec 2.2's shape.
    ...(u.attributes && Object.keys(u.attributes).length ? { attributes: u.attributes } : {}),
    // Keycloak's `federationLink`: the id of the provider the user came from.
    ...(u.federationProviderId ? { federationLink: u.federationProviderId } : {}),
  };
}
