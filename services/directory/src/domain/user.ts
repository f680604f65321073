import type { Doc } from "../../../kit/src/store/port.js";

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
  /** Set for a client's service-account user (spec 1.11): the client's clientId. */
  serviceAccountClientId: string;
  /** Free-form user attributes (string lists), read by attribute mappers. */
  attributes: Record<string, string[]>;
  createdAt: number;
  updatedAt: number;
}
