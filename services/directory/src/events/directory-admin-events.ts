import { adminEventMessage, type OperationType } from "../../../kit/src/events/admin-events.js";
import type { OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import type { RealmRecord } from "../domain/realm.js";

/**
 * Admin events of the directory's realm-scoped resources (spec 6.2), built for the outbox: only
 * when the realm has adminEventsEnabled. The other admin writes build theirs in auditedWrite.
 */
export class DirectoryAdminEvents {
  /** The event of a removal staging it in the outbox with its announcement; none when the realm records none. */
  message(realm: RealmRecord, operationType: OperationType, resourceType: string, path: string, id: string, now: number): OutgoingEvent[] {
    if (!realm.adminEventsEnabled) return [];
    return [adminEventMessage("directory", { realm: realm.name, operationType, resourceType, resourcePath: path }, now, id)];
  }
}
