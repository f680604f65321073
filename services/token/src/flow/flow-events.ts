import { randomUUID } from "node:crypto";
import { loginEventMessage, type LoginEventInput } from "../../../kit/src/events/login-events.js";
import type { EventSink, EventStamp, OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { FlowRealm } from "./flow-realms.js";
import type { StepContext } from "./flow-kit.js";
import type { LoginTransactionRecord } from "./login-transaction.js";

export interface FlowEvent {
  type: string;
  clientId?: string;
  userId?: string | undefined;
  sessionId?: string | undefined;
  error?: string;
  /** Never a secret, code, password or token (DESIGN 4). */
  details?: Record<string, string>;
}

/**
 * Login events of the browser flow (spec 2.7, 6.1; README "Login events" lists the types), only
 * when the realm's eventsEnabled. Client, IP address (the gateway's view of the browser) and the
 * Keycloak-style details (auth_method, redirect_uri, username) come from the transaction.
 * Handed to the outbox: a login that has committed answers while the bus is down.
 */
export class FlowEvents {
  constructor(private readonly sink: EventSink, private readonly clock: Clock) {}

  async record(realm: FlowRealm, ctx: StepContext, tx: LoginTransactionRecord | null, e: FlowEvent): Promise<void> {
    if (!realm.eventsEnabled) return;
    await this.sink.send([loginEventMessage("token", this.input(realm, ctx, tx, e), this.clock.now(), randomUUID())]);
  }

  /** The event as `record` would publish it, for a write that stages it in the outbox; none when the realm records none. */
  message(realm: FlowRealm, ctx: StepContext, tx: LoginTransactionRecord | null, e: FlowEvent, stamp: EventStamp): OutgoingEvent[] {
    if (!realm.eventsEnabled) return [];
    return [loginEventMessage("token", this.input(realm, ctx, tx, e), stamp.time, stamp.id("login-event"))];
  }

  private input(realm: FlowRealm, ctx: StepContext, tx: LoginTransactionRecord | null, e: FlowEvent): LoginEventInput {
    // Keycloak's auth_method names the protocol the login serves.
    const details: Record<string, string> = { auth_method: tx?.kind === "saml" ? "saml" : "openid-connect" };
    if (tx?.request?.redirectUri) details.redirect_uri = tx.request.redirectUri;
    if (tx?.username) details.username = tx.username;
    if (tx?.kind === "device") details.auth_type = "device";
    if (tx?.identityProvider) details.identity_provider = tx.identityProvider;
    if (tx?.credentialType) details.credential_type = tx.credentialType;
    Object.assign(details, e.details ?? {});
    const userId = e.userId ?? tx?.userId;
    const sessionId = e.sessionId ?? tx?.ssoSessionId;
    return {
      realm: realm.name, type: e.type, retentionSeconds: realm.eventsExpiration, details,
      ...((e.clientId ?? tx?.clientId) ? { clientId: e.clientId ?? tx?.clientId } : {}),
      ...(userId ? { userId } : {}),
      ...(sessionId ? { sessionId } : {}),
      ...(ctx.ipAddress ? { ipAddress: ctx.ipAddress } : {}),
      ...(e.error ? { error: e.error } : {}),
    };
  }
}
