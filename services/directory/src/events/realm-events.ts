import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { RealmDeletedSchema, RealmUpdatedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import type { OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import { requestIdOption } from "../../../kit/src/context.js";
import type { RealmRecord } from "../domain/realm.js";

export const REALM_DELETED = "iam.directory.v1.realm.deleted";
export const REALM_UPDATED = "iam.directory.v1.realm.updated";

/** Drops every service's cached copy of the realm; staged with the update (RealmAdmin). */
export function realmUpdatedEvent(realm: Pick<RealmRecord, "_id" | "name">, id: string): OutgoingEvent {
  return {
    subject: REALM_UPDATED,
    payload: toBinary(RealmUpdatedSchema, create(RealmUpdatedSchema, { realmId: realm._id, realmName: realm.name })),
    id, ...requestIdOption(),
  };
}

/**
 * Every service drops the realm's data; staged with the deletion (RealmAdmin). A deleted realm's
 * admin events go with it (audit drops the realm's records), as in Keycloak, so no admin event is
 * published for the deletion itself; the gateway logs it with the actor.
 */
export function realmDeletedEvent(realm: Pick<RealmRecord, "_id" | "name">, at: number, id: string): OutgoingEvent {
  return {
    subject: REALM_DELETED,
    payload: toBinary(RealmDeletedSchema, create(RealmDeletedSchema, { realmId: realm._id, realmName: realm.name, deletedAt: timestampFromMs(at) })),
    id, ...requestIdOption(),
  };
}
