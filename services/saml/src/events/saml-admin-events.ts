import type { Bus } from "../../../kit/src/bus/port.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { publishAdminEvent, type OperationType } from "../../../kit/src/events/admin-events.js";
import type { RealmRef } from "../domain/realm-ref.js";

/** Resource types of the saml service's admin events. */
export const SAML_SERVICE_PROVIDER = "SAML_SERVICE_PROVIDER";
export const SAML_SIGNING_KEY = "SAML_SIGNING_KEY";

/**
 * Admin events of the saml service (spec 6.2), recorded when the realm's adminEventsEnabled is true
 * and published with ack before the reply (DESIGN 4).
 */
export class SamlAdminEvents {
  constructor(private readonly bus: Bus, private readonly clock: Clock) {}

  async record(realm: RealmRef, operationType: OperationType, resourceType: string, resourcePath: string, representation?: unknown): Promise<void> {
    if (!realm.adminEventsEnabled) return;
    await publishAdminEvent(this.bus, "saml", {
      realm: realm.name, operationType, resourceType, resourcePath,
      ...(representation !== undefined ? { representation } : {}),
    }, this.clock.now());
  }
}
