import { fromBinary } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import { REALM_DELETED } from "./realm-events.js";

export interface RealmDataOwner {
  /** Deletes every record of the realm; idempotent (a redelivery finds nothing left). */
  deleteRealm(realmId: string): Promise<number>;
}

/**
 * The directory consumes its own realm.deleted (durable "directory-realm-deleted") and drops the
 * realm's users, credentials, groups and memberships. Records are keyed by the realm's id, which a
 * re-created realm never shares, so deleting by id is safe at any time and naturally idempotent.
 */
export function startRealmCascade(bus: Bus, owners: RealmDataOwner[], logger: Logger): Promise<Subscription> {
  return bus.subscribe({ durable: "directory-realm-deleted", subject: REALM_DELETED }, async (m) => {
    const e = fromBinary(RealmDeletedSchema, m.payload);
    let n = 0;
    for (const owner of owners) n += await owner.deleteRealm(e.realmId);
    logger.info({ realm: e.realmName, realm_id: e.realmId, deleted: n, request_id: m.requestId }, "realm data deleted");
  });
}
