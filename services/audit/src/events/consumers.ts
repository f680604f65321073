import { fromBinary } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { Logger } from "pino";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { Metrics } from "../../../kit/src/metrics.js";
import type { AdminEventRepository } from "../store/admin-event-repository.js";
import type { LoginEventRepository } from "../store/login-event-repository.js";
import { adminEventRecord, loginEventRecord } from "./event-records.js";
import type { PluginEventFanout } from "./plugin-listeners.js";

/**
 * The audit service's durable consumers. Admin events are stored under their event id, so a
 * redelivered message is stored once; a realm's deletion drops its events. An event stored for the
 * first time goes to the plugins' listeners too, so they hear a redelivered event once.
 */
export async function startAuditConsumers(
  bus: Bus, adminEvents: AdminEventRepository, loginEvents: LoginEventRepository, logger: Logger, metrics: Metrics,
  listeners?: PluginEventFanout,
): Promise<Subscription[]> {
  const stored = metrics.counter("tessera_events_stored_total", "Events stored by the audit service", ["kind"]);
  const subs: Subscription[] = [];
  subs.push(await bus.subscribe({ durable: "audit-admin-events", subject: "iam.*.v1.admin-event.recorded" }, async (m) => {
    const record = adminEventRecord(m);
    const fresh = await adminEvents.storeOnce(record);
    if (fresh) {
      stored.inc({ kind: "admin" });
      listeners?.admin(record);
    }
  }));
  subs.push(await bus.subscribe({ durable: "audit-login-events", subject: "iam.*.v1.login-event.recorded" }, async (m) => {
    const record = loginEventRecord(m);
    const fresh = await loginEvents.storeOnce(record);
    if (fresh) {
      stored.inc({ kind: "login" });
      listeners?.login(record);
    }
  }));
  subs.push(await bus.subscribe({ durable: "audit-realm-deleted", subject: "iam.directory.v1.realm.deleted" }, async (m) => {
    const e = fromBinary(RealmDeletedSchema, m.payload);
    const upTo = e.deletedAt ? timestampMs(e.deletedAt) : m.time;
    const n = await adminEvents.deleteRealm(e.realmName, upTo);
    const l = await loginEvents.deleteRealm(e.realmName, upTo);
    logger.info({ realm: e.realmName, adminEvents: n, loginEvents: l }, "dropped events of deleted realm");
  }));
  return subs;
}
