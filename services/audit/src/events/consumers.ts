import { fromBinary } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { Logger } from "pino";
import { AdminEventSchema } from "../../../../gen/iam/audit/v1/audit_pb.js";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { Metrics } from "../../../kit/src/metrics.js";
import type { AdminEventRepository } from "../store/admin-event-repository.js";

/**
 * The audit service's durable consumers. Admin events are stored under their event id, so a
 * redelivered message is stored once; a realm's deletion drops its events.
 */
export async function startAuditConsumers(
  bus: Bus, adminEvents: AdminEventRepository, logger: Logger, metrics: Metrics,
): Promise<Subscription[]> {
  const stored = metrics.counter("tessera_events_stored_total", "Events stored by the audit service", ["kind"]);
  const subs: Subscription[] = [];
  subs.push(await bus.subscribe({ durable: "audit-admin-events", subject: "iam.*.v1.admin-event.recorded" }, async (m) => {
    const e = fromBinary(AdminEventSchema, m.payload);
    const fresh = await adminEvents.storeOnce({
      _id: e.id,
      time: e.time ? timestampMs(e.time) : m.time,
      realm: e.realm,
      operationType: e.operationType,
      resourceType: e.resourceType,
      resourcePath: e.resourcePath,
      authType: e.authDetails?.type ?? "",
      authAdminId: e.authDetails?.adminId ?? "",
      authUsername: e.authDetails?.username ?? "",
      authIpAddress: e.authDetails?.ipAddress ?? "",
      representation: e.representation,
      requestId: e.requestId,
    });
    if (fresh) stored.inc({ kind: "admin" });
  }));
  subs.push(await bus.subscribe({ durable: "audit-realm-deleted", subject: "iam.directory.v1.realm.deleted" }, async (m) => {
    const e = fromBinary(RealmDeletedSchema, m.payload);
    const upTo = e.deletedAt ? timestampMs(e.deletedAt) : m.time;
    const n = await adminEvents.deleteRealm(e.realmName, upTo);
    logger.info({ realm: e.realmName, adminEvents: n }, "dropped events of deleted realm");
  }));
  return subs;
}
