import { adminEventMessage, type OperationType } from "../../../kit/src/events/admin-events.js";
import type { EventStamp, OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import type { RealmRecord } from "../domain/realm.js";

/**
 * A directory admin event without a representation (spec 6.2), under the write's stamp, for a
 * write that stages it in the outbox beside its own announcement (a user's or client's removal, a
 * password reset); none when the realm records none. The other admin writes stage theirs through
 * auditedWrite.
 */
export function directoryAdminEvent(realm: Pick<RealmRecord, "name" | "adminEventsEnabled">, operationType: OperationType, resourceType: string, path: string, stamp: EventStamp): OutgoingEvent[] {
  if (!realm.adminEventsEnabled) return [];
  return [adminEventMessage("directory", { realm: realm.name, operationType, resourceType, resourcePath: path }, stamp.time, stamp.id("admin-event"))];
}
