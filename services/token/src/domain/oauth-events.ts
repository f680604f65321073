import { randomUUID } from "node:crypto";
import { loginEventMessage, type LoginEventInput } from "../../../kit/src/events/login-events.js";
import type { EventSink, EventStamp, OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { OAuthRealm } from "./realm-settings.js";

export interface OAuthEvent {
  type: string;
  clientId?: string;
  userId?: string;
  sessionId?: string;
  ipAddress?: string;
  error?: string;
  /** Never a secret, code or token (DESIGN 4). */
  details?: Record<string, string>;
}

/**
 * Login events of the protocol endpoints (spec 6.1), only when the realm's eventsEnabled. Handed
 * to the outbox, never published in the request: a grant that has rotated a refresh token or
 * revoked a grant answers success while the bus is down, and its event goes out once it is back.
 */
export class OAuthEvents {
  constructor(private readonly sink: EventSink, private readonly clock: Clock) {}

  async record(realm: OAuthRealm, e: OAuthEvent): Promise<void> {
    if (!realm.eventsEnabled) return;
    await this.sink.send([loginEventMessage("token", input(realm, e), this.clock.now(), randomUUID())]);
  }

  /** The event as `record` would publish it, for a write that stages it in the outbox; none when the realm records none. */
  message(realm: OAuthRealm, e: OAuthEvent, stamp: EventStamp): OutgoingEvent[] {
    if (!realm.eventsEnabled) return [];
    return [loginEventMessage("token", input(realm, e), stamp.time, stamp.id("login-event"))];
  }
}

function input(realm: OAuthRealm, e: OAuthEvent): LoginEventInput {
  return {
    realm: realm.name, type: e.type, retentionSeconds: realm.eventsExpiration,
    ...(e.clientId ? { clientId: e.clientId } : {}),
    ...(e.userId ? { userId: e.userId } : {}),
    ...(e.sessionId ? { sessionId: e.sessionId } : {}),
    ...(e.ipAddress ? { ipAddress: e.ipAddress } : {}),
    ...(e.error ? { error: e.error } : {}),
    ...(e.details ? { details: e.details } : {}),
  };
}
