import type { Outbox, OutboxKind } from "../../../kit/src/bus/outbox.js";
import { adminEventMessage, type OperationType } from "../../../kit/src/events/admin-events.js";
import type { RealmRecord } from "./realm.js";

/** The admin event an audited write records (spec 6.2). */
export interface AuditedEvent {
  operationType: OperationType;
  resourceType: string;
  path: string;
  /** The resource as the write leaves it, stripped of secrets; none for a removal or an action without one. */
  representation?: unknown;
}

/**
 * Runs `write` with its admin event staged in the outbox first (outbox.ts): a crash between the
 * write and the event's publish cannot keep the change and lose its audit record, since the relay
 * publishes the event (under the same id, with the admin who asked) when `kind` finds the write in
 * the store, and drops it when not. Used for the writes that grant or withdraw access or change a
 * credential (role mappings, group memberships, MFA reset, unlock, client secret). `write` returns
 * false when it changed nothing and there is nothing to record. A realm that records no admin
 * events costs nothing more than the write.
 */
export async function auditedWrite<S>(outbox: Outbox, kind: OutboxKind<S>, realm: RealmRecord, snapshot: S, event: AuditedEvent, write: () => Promise<boolean>): Promise<boolean> {
  if (!realm.adminEventsEnabled) return write();
  const done = await outbox.write({
    kind,
    snapshot,
    announce: (_s, stamp) => [adminEventMessage("directory", {
      realm: realm.name, operationType: event.operationType, resourceType: event.resourceType, resourcePath: event.path,
      ...(event.representation !== undefined ? { representation: event.representation } : {}),
    }, stamp.time, stamp.id("admin-event"))],
    apply: async () => ((await write()) ? snapshot : null),
  });
  return done !== null;
}
