import type { Bus } from "../../../kit/src/bus/port.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { adminEventMessage, publishAdminEvent, type OperationType } from "../../../kit/src/events/admin-events.js";
import type { OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import type { RealmRecord } from "../domain/realm.js";

/**
 * Admin events of the directory's realm-scoped resources (spec 6.2): recorded only when the realm
 * has adminEventsEnabled, published with ack before the reply. Callers pass representations
 * already stripped of secrets.
 */
export class DirectoryAdminEvents {
  constructor(private readonly bus: Bus, private readonly clock: Clock) {}

  /** The event as `record` would publish it, for a removal staging it in the outbox; none when the realm records none. */
  message(realm: RealmRecord, operationType: OperationType, resourceType: string, path: string, id: string, now: number): OutgoingEvent[] {
    if (!realm.adminEventsEnabled) return [];
    return [adminEventMessage("directory", { realm: realm.name, operationType, resourceType, resourcePath: path }, now, id)];
  }

  async record(realm: RealmRecord, operationType: OperationType, resourceType: string, path: string, representation?: unknown): Promise<void> {
    if (!realm.adminEventsEnabled) return;
    await publishAdminEvent(this.bus, "directory", {
      realm: realm.name, operationType, resourceType,
      resourcePath: path,
      ...(representation !== undefined ? { representation } : {}),
    }, this.clock.now());
  }
}
