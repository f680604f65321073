import type { Bus } from "../../../kit/src/bus/port.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { publishAdminEvent, type OperationType } from "../../../kit/src/events/admin-events.js";
import type { RealmRecord } from "../domain/realm.js";

/**
 * Admin events of the directory's realm-scoped resources (spec 6.2): recorded only when the realm
 * has adminEventsEnabled, published with ack before the reply. Callers pass representations
 * already stripped of secrets.
 */
export class DirectoryAdminEvents {
  constructor(private readonly bus: Bus, private readonly clock: Clock) {}

  async record(realm: RealmRecord, operationType: OperationType, resourceType: string, path: string, representation?: unknown): Promise<void> {
    if (!realm.adminEventsEnabled) return;
    await publishAdminEvent(this.bus, "directory", {
      realm: realm.name, operationType, resourceType,
      resourcePath: path,
      ...(representation !== undefined ? { representation } : {}),
    }, this.clock.now());
  }
}
