import { create, toBinary } from "@bufbuild/protobuf";
import { EmptySchema } from "@bufbuild/protobuf/wkt";
import type { Logger } from "pino";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { WriteAnnouncer, WriteCounter } from "../../../kit/src/store/write-counted.js";

export const CLAIMS_SUBJECT_CHANGED = "iam.directory.v1.claims-subject.changed";

/**
 * The collections a user's resolved claims are read from besides the client's token configuration
 * (ClaimsResolver): the user, their groups and memberships, role mappings and the roles and clients
 * they name, organizations, and the realm (its organizationsEnabled decides the organization
 * claim). A write to any of them makes every cached resolution stale.
 */
export const CLAIMS_SUBJECT_COLLECTIONS: ReadonlySet<string> = new Set([
  "users", "groups", "group_memberships", "role_mappings", "roles", "clients",
  "organizations", "organization_members", "organization_roles", "realms",
]);

/**
 * The WriteCounter's announcer for the resolved-claims cache: tells the other directory replicas
 * that a user's data changed, so their cached resolutions go stale when the message arrives.
 *
 * Unlike the token-configuration announcer it neither waits for the message nor stages it in the
 * outbox: the message carries nothing (google.protobuf.Empty: every entry goes, whichever realm),
 * one per event-loop turn however many writes ran in it (an LDAP sync or an import writes
 * thousands), and a message lost to a bus outage costs at most the cache's bound
 * (RESOLVED_CLAIMS_MS) before the other replicas read the change; the reconnect's gap drops every
 * entry too. A sole process (embedded mode) has no one to tell.
 */
export function claimsSubjectAnnouncer(bus: Bus, logger: Logger, soleProcess: boolean): WriteAnnouncer {
  if (soleProcess) return (_realmId, write) => write();
  let queued = false;
  const flush = () => {
    queued = false;
    if (bus.available?.() === false) return;
    bus.publish(CLAIMS_SUBJECT_CHANGED, toBinary(EmptySchema, create(EmptySchema))).catch((err: unknown) => {
      logger.warn({ err }, "user data change not announced; other directory replicas see it within 5 s");
    });
  };
  return async <R>(_realmId: string | undefined, write: () => Promise<R>): Promise<R> => {
    try {
      return await write();
    } finally {
      // Even after a failure: a write that failed midway (a MongoDB update of several) may have
      // changed some documents, and a needless drop costs only a read.
      if (!queued) {
        queued = true;
        setImmediate(flush);
      }
    }
  };
}

/** Every replica counts an announced write as its own: its cached resolutions go stale. */
export function watchClaimsSubjectWrites(bus: Bus, writes: WriteCounter): Promise<Subscription> {
  return bus.watch({ subject: CLAIMS_SUBJECT_CHANGED, onGap: () => writes.bump() }, () => writes.bump());
}
