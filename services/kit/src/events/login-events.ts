import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { randomUUID } from "node:crypto";
import { LoginEventSchema } from "../../../../gen/iam/audit/v1/audit_pb.js";
import { currentContext, requestIdOption } from "../context.js";
import type { Bus } from "../bus/port.js";
import type { OutgoingEvent } from "../bus/outbox.js";
import type { ServiceName } from "../module.js";

export interface LoginEventInput {
  realm: string;
  type: string;
  clientId?: string;
  userId?: string;
  sessionId?: string;
  ipAddress?: string;
  error?: string;
  /** Never a secret, code or token (DESIGN 4). */
  details?: Record<string, string>;
  /** The realm's eventsExpiration, seconds. */
  retentionSeconds: number;
}

export function loginEventSubject(service: ServiceName): string {
  return `iam.${service}.v1.login-event.recorded`;
}

/**
 * Publishes a login event (spec 6.1) and waits for the bus to accept it: for tests of its
 * consumers. A service hands its events to the outbox instead (`Outbox.send`), so that no request
 * waits on the bus. The event carries its own expiry so audit needs no realm lookup.
 */
export async function publishLoginEvent(bus: Bus, service: ServiceName, input: LoginEventInput, now: number): Promise<void> {
  const event = loginEventMessage(service, input, now, randomUUID());
  await bus.publish(event.subject, event.payload, { id: event.id, ...(event.requestId !== undefined ? { requestId: event.requestId } : {}) });
}

/**
 * The login event as built for the bus: for a write that stages it in the outbox with its own
 * announcement (a logout's LOGOUT with the session's end: outbox.ts).
 */
export function loginEventMessage(service: ServiceName, input: LoginEventInput, now: number, id: string): OutgoingEvent {
  const ctx = currentContext();
  const event = create(LoginEventSchema, {
    id,
    time: timestampFromMs(now),
    realm: input.realm,
    type: input.type,
    clientId: input.clientId ?? "",
    userId: input.userId ?? "",
    sessionId: input.sessionId ?? "",
    ipAddress: input.ipAddress ?? ctx?.actor?.ipAddress ?? "",
    error: input.error ?? "",
    details: input.details ?? {},
    expiresAt: timestampFromMs(now + input.retentionSeconds * 1000),
  });
  return { subject: loginEventSubject(service), payload: toBinary(LoginEventSchema, event), id, ...requestIdOption() };
}
