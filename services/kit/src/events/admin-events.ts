import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { randomUUID } from "node:crypto";
import { AdminEventSchema, AuthDetailsSchema } from "../../../../gen/iam/audit/v1/audit_pb.js";
import { currentContext, requestIdOption } from "../context.js";
import type { Bus } from "../bus/port.js";
import type { OutgoingEvent } from "../bus/outbox.js";
import type { ServiceName } from "../module.js";

export type OperationType = "CREATE" | "UPDATE" | "DELETE" | "ACTION";

export interface AdminEventInput {
  realm: string;
  operationType: OperationType;
  resourceType: string;
  resourcePath: string;
  /** The resource after the change, already stripped of secrets; omitted for DELETE. */
  representation?: unknown;
}

/** Subject on which a service announces an admin event it recorded. */
export function adminEventSubject(service: ServiceName): string {
  return `iam.${service}.v1.admin-event.recorded`;
}

/**
 * Publishes an admin event and waits for the bus to accept it, before the caller replies:
 * an acknowledged admin write never loses its event (DESIGN 4, "publish-with-ack before the reply").
 * The caller decides whether the realm records admin events (`adminEventsEnabled`).
 */
export async function publishAdminEvent(bus: Bus, service: ServiceName, input: AdminEventInput, now: number): Promise<void> {
  const event = adminEventMessage(service, input, now, randomUUID());
  await bus.publish(event.subject, event.payload, { id: event.id, ...(event.requestId !== undefined ? { requestId: event.requestId } : {}) });
}

/**
 * The admin event as built for the bus, with the current request's actor and request id: for a
 * removal that stages it in the outbox (outbox.ts) before it is published.
 */
export function adminEventMessage(service: ServiceName, input: AdminEventInput, now: number, id: string): OutgoingEvent {
  const ctx = currentContext();
  const actor = ctx?.actor;
  const event = create(AdminEventSchema, {
    id,
    time: timestampFromMs(now),
    realm: input.realm,
    operationType: input.operationType,
    resourceType: input.resourceType,
    resourcePath: input.resourcePath,
    authDetails: create(AuthDetailsSchema, {
      type: actor?.type ?? "system",
      adminId: actor?.adminId ?? "",
      username: actor?.username ?? "",
      ipAddress: actor?.ipAddress ?? "",
    }),
    representation: input.representation === undefined ? "" : JSON.stringify(input.representation),
    requestId: ctx?.requestId ?? "",
  });
  return { subject: adminEventSubject(service), payload: toBinary(AdminEventSchema, event), id, ...requestIdOption() };
}
