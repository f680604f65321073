import { create, toBinary } from "@bufbuild/protobuf";
import { PasswordChangedSchema, ServiceAccountChangedSchema, UserDeletedSchema, UserDisabledSchema } from "../../../../gen/iam/directory/v1/user_pb.js";
import { randomUUID } from "node:crypto";
import type { Clock } from "../../../kit/src/store/port.js";
import { adminEventMessage, type OperationType } from "../../../kit/src/events/admin-events.js";
import type { StagedEvents } from "../../../kit/src/events/audited-write.js";
import type { EventSink, OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import { requestIdOption } from "../../../kit/src/context.js";
import type { RealmRecord } from "../domain/realm.js";
import type { UserRecord } from "../domain/user.js";

export const USER_DELETED = "iam.directory.v1.user.deleted";
export const USER_DISABLED = "iam.directory.v1.user.disabled";
export const PASSWORD_CHANGED = "iam.directory.v1.password.changed";
export const SERVICE_ACCOUNT_CHANGED = "iam.directory.v1.service-account.changed";

/**
 * What the directory announces about users and groups (spec 6.2 admin events; bus events for the
 * other services). What is not staged with a write goes to the outbox's `send`, never to the bus
 * in the request. Representations are the Admin API views, which never hold a password or hash.
 */
export class UserEvents {
  constructor(private readonly sink: EventSink, private readonly clock: Clock) {}

  /** An admin event when the realm records them (spec 6.2), for an action done before it (an import, a mail sent). */
  async admin(realm: RealmRecord, operationType: OperationType, resourceType: string, resourcePath: string, representation?: unknown): Promise<void> {
    if (!realm.adminEventsEnabled) return;
    await this.sink.send([adminEventMessage("directory", {
      realm: realm.name, operationType, resourceType, resourcePath,
      ...(representation !== undefined ? { representation } : {}),
    }, this.clock.now(), randomUUID())]);
  }

  /** `user.deleted`, built for the outbox (UserRemoval stages it before the user goes). */
  deletedEvent(realm: Pick<RealmRecord, "_id" | "name">, userId: string, id: string): OutgoingEvent {
    return {
      subject: USER_DELETED,
      payload: toBinary(UserDeletedSchema, create(UserDeletedSchema, { realmId: realm._id, realmName: realm.name, userId })),
      id, ...requestIdOption(),
    };
  }

  /** `user.disabled`, built for the outbox (UserDisabling stages it before the write). */
  disabledEvent(realm: Pick<RealmRecord, "_id" | "name">, userId: string, id: string): OutgoingEvent {
    return {
      subject: USER_DISABLED,
      payload: toBinary(UserDisabledSchema, create(UserDisabledSchema, { realmId: realm._id, realmName: realm.name, userId })),
      id, ...requestIdOption(),
    };
  }

  /** `password.changed`, built for the outbox (PasswordChanges stages it before the password is stored). */
  passwordChangedEvent(realm: Pick<RealmRecord, "_id" | "name">, userId: string, temporary: boolean, id: string): OutgoingEvent {
    return {
      subject: PASSWORD_CHANGED,
      payload: toBinary(PasswordChangedSchema, create(PasswordChangedSchema, { realmId: realm._id, realmName: realm.name, userId, temporary })),
      id, ...requestIdOption(),
    };
  }

  /**
   * Staged with a write to a user's profile, role mappings or group memberships when the user is
   * a service account (the token service caches its client_credentials grants and claims), so a
   * crash cannot leave them cached until they expire; undefined for any other user, whose writes
   * announce nothing (and cost no outbox entry in a realm without admin events).
   */
  serviceAccountChange(realm: Pick<RealmRecord, "_id" | "name">, user: Pick<UserRecord, "_id" | "serviceAccountClientId">): StagedEvents | undefined {
    return user.serviceAccountClientId ? (stamp) => [serviceAccountChangedEvent(realm, user._id, stamp.id("event"))] : undefined;
  }

  /** Staged with a write to a group's role mappings, path or existence: any member may be a service account. */
  groupChange(realm: Pick<RealmRecord, "_id" | "name">): StagedEvents {
    return (stamp) => [serviceAccountChangedEvent(realm, "", stamp.id("event"))];
  }
}

/** `service-account.changed` for one service account, or (userId "") for any member of a group. */
function serviceAccountChangedEvent(realm: Pick<RealmRecord, "_id" | "name">, userId: string, id: string): OutgoingEvent {
  return {
    subject: SERVICE_ACCOUNT_CHANGED,
    payload: toBinary(ServiceAccountChangedSchema, create(ServiceAccountChangedSchema, { realmId: realm._id, realmName: realm.name, userId })),
    id, ...requestIdOption(),
  };
}
