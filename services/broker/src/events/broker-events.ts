import type { Bus } from "../../../kit/src/bus/port.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { publishLoginEvent } from "../../../kit/src/events/login-events.js";
import type { RealmRef } from "../domain/realm-ref.js";

/**
 * The broker's login event types (Keycloak's names); each has an _ERROR form. The last two are
 * Keycloak's client-initiated account linking: its start, then the link made at the callback.
 */
export type BrokerEventType =
  | "IDENTITY_PROVIDER_LOGIN" | "IDENTITY_PROVIDER_FIRST_LOGIN" | "IDENTITY_PROVIDER_LINK_ACCOUNT"
  | "CLIENT_INITIATED_ACCOUNT_LINKING" | "FEDERATED_IDENTITY_LINK";

export interface BrokerEvent {
  type: BrokerEventType | `${BrokerEventType}_ERROR`;
  alias: string;
  userId?: string;
  clientId?: string;
  sessionId?: string;
  error?: string;
  ipAddress?: string;
  /** Never a secret, code or token (DESIGN 4). */
  details?: Record<string, string>;
}

/** Login events of brokered logins (spec 6.1), only when the realm's eventsEnabled; they carry the alias as identity_provider. */
export class BrokerEvents {
  constructor(private readonly bus: Bus, private readonly clock: Clock) {}

  async record(realm: RealmRef, e: BrokerEvent): Promise<void> {
    if (!realm.eventsEnabled) return;
    await publishLoginEvent(this.bus, "broker", {
      realm: realm.name, type: e.type, retentionSeconds: realm.eventsExpiration,
      details: { identity_provider: e.alias, ...(e.details ?? {}) },
      ...(e.userId ? { userId: e.userId } : {}),
      ...(e.clientId ? { clientId: e.clientId } : {}),
      ...(e.sessionId ? { sessionId: e.sessionId } : {}),
      ...(e.error ? { error: e.error } : {}),
      ...(e.ipAddress ? { ipAddress: e.ipAddress } : {}),
    }, this.clock.now());
  }
}
