import type { EventStamp, Outbox, OutboxKind, OutgoingEvent } from "../bus/outbox.js";
import { adminEventMessage, type OperationType } from "./admin-events.js";
import { sha256Hex } from "../crypto/random.js";
import type { ServiceName } from "../module.js";

/** What an audited write needs of its realm: whether it records admin events (spec 2.7). */
export interface AuditedRealm {
  name: string;
  adminEventsEnabled: boolean;
}

/** The admin event an audited write records (spec 6.2). */
export interface AuditedEvent {
  operationType: OperationType;
  resourceType: string;
  path: string;
  /** The resource as the write leaves it, stripped of secrets; none for a removal or an action without one. */
  representation?: unknown;
}

/** A write's other announcements, built with its stamp and staged with it (auditedWrite's `also`). */
export type StagedEvents = (stamp: EventStamp) => OutgoingEvent[];

export type AuditedWrite = <S>(
  outbox: Outbox, kind: OutboxKind<S>, realm: AuditedRealm, snapshot: S, event: AuditedEvent, write: () => Promise<boolean>,
  also?: StagedEvents,
) => Promise<boolean>;

/**
 * The service's audited write: it runs `write` with its admin event staged in the outbox first
 * (outbox.ts), so a crash between the write and the event's publish cannot keep the change and
 * lose its audit record; the relay publishes the event (under the same id, with the admin who
 * asked) when `kind` finds the write in the store, and drops it when not. Used for the Admin
 * API's writes (the directory's realms, users, clients, roles, groups, scopes, mappers, role
 * mappings, memberships and credentials; the saml service's service providers and signing
 * keys). `write` returns
 * false when it changed nothing and there is nothing to record. `also`: the write's other
 * announcements (the cache drops of a changed client or realm), staged and relayed with it, so a
 * crash cannot leave the caches of other services on the old record until they expire; they are
 * staged whether or not the realm records admin events. A realm that records no admin events
 * costs, for a write with nothing else to announce, nothing more than the write.
 */
export function auditedWriter(service: ServiceName): AuditedWrite {
  return async (outbox, kind, realm, snapshot, event, write, also) => {
    if (!realm.adminEventsEnabled && !also) return write();
    const done = await outbox.write({
      kind,
      snapshot,
      announce: (_s, stamp) => [
        ...(realm.adminEventsEnabled ? [adminEventMessage(service, {
          realm: realm.name, operationType: event.operationType, resourceType: event.resourceType, resourcePath: event.path,
          ...(event.representation !== undefined ? { representation: event.representation } : {}),
        }, stamp.time, stamp.id("admin-event"))] : []),
        ...(also?.(stamp) ?? []),
      ],
      apply: async () => ((await write()) ? snapshot : null),
    });
    return done !== null;
  };
}

/** What the relay expects of the one record an audited write created, changed or removed. */
export type RecordExpectation = "present" | "absent" | { digest: string };

export interface RecordWriteSnapshot {
  realmId: string;
  id: string;
  expect: RecordExpectation;
}

/**
 * How a change to one record is told in the store, for the kinds of creations, updates and
 * removals: present, absent, or its own fields (`canonical`, without what other writes own such as
 * a scope's mappers) as the write leaves them. The digest of those fields is the update's mark: a
 * record the write never reached still shows the old fields, and one a later write changed again
 * shows other ones (that write records its own event; this one is then not recorded, the one
 * case an event can still go missing, and only where another replica wrote the same record
 * within a relay's reach of the crash: never in embedded mode, whose relay runs before it serves).
 */
export function recordWriteKind<R>(name: string, read: (realmId: string, id: string) => Promise<R | null>, canonical: (r: R) => unknown): OutboxKind<RecordWriteSnapshot> {
  return {
    name,
    applied: async (s) => {
      const r = await read(s.realmId, s.id);
      if (s.expect === "absent") return r === null;
      if (s.expect === "present") return r !== null;
      return r !== null && digestOf(canonical(r)) === s.expect.digest;
    },
  };
}

/** The expectation of an update: the record as the write leaves it (`{ ...current, ...set }`). */
export function expectFields<R>(canonical: (r: R) => unknown, after: R): RecordExpectation {
  return { digest: digestOf(canonical(after)) };
}

/** A digest of JSON with keys sorted at every depth (stored maps keep no key order promise) and undefined dropped, as JSON drops it. */
function digestOf(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, x]) => [k, sorted(x)]));
    }
    return v;
  };
  return sha256Hex(JSON.stringify(sorted(value)));
}
