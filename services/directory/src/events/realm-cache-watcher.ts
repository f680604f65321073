import { fromBinary } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { RealmDeletedSchema, RealmUpdatedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { RealmRepository } from "../store/realm-repository.js";
import { REALM_DELETED, REALM_UPDATED } from "./realm-events.js";

/**
 * Every directory replica drops its cached copy of a realm changed or deleted through another one
 * (a watch: each replica gets the event), so a disabled realm, a new password policy or lockout
 * setting applies at every replica as soon as the event arrives rather than within
 * REALM_CACHE_MS. A gap (NATS reconnect) drops every cached realm.
 */
export async function watchRealmCache(bus: Bus, realms: RealmRepository, logger: Logger): Promise<Subscription[]> {
  const onGap = () => {
    realms.forget();
    logger.info("dropped every cached realm");
  };
  return Promise.all([
    bus.watch({ subject: REALM_UPDATED, onGap }, (m) => realms.forget(fromBinary(RealmUpdatedSchema, m.payload).realmName)),
    bus.watch({ subject: REALM_DELETED, onGap }, (m) => realms.forget(fromBinary(RealmDeletedSchema, m.payload).realmName)),
  ]);
}
