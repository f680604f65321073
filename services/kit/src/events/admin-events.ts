import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { AdminEventSchema, AuthDetailsSchema } from "../../../../gen/iam/audit/v1/audit_pb.js";
import { currentContext, requestIdOption } from "../context.js";
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
 * The admin event as built for the bus, with the current request's actor and request id: staged
 * in the outbox with its write (outbox.ts), or handed to it after (`Outbox.send`); a request never
 * publishes it itself (DESIGN 8).
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
