import { fromBinary } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { Logger } from "pino";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { KeyRing } from "../domain/key-ring.js";

export const REALM_DELETED = "iam.directory.v1.realm.deleted";

/**
 * The token service's durable consumers (DESIGN 3). A deleted realm's keys created up to
 * deleted_at go with it; redelivery is harmless (the delete is idempotent).
 */
export async function startTokenConsumers(bus: Bus, keys: KeyRing, logger: Logger): Promise<Subscription[]> {
  const subs: Subscription[] = [];
  subs.push(await bus.subscribe({ durable: "token-realm-deleted", subject: REALM_DELETED }, async (m) => {
    const e = fromBinary(RealmDeletedSchema, m.payload);
    const upTo = e.deletedAt ? timestampMs(e.deletedAt) : m.time;
    const n = await keys.dropRealm(e.realmId, upTo);
    logger.info({ realm: e.realmName, signingKeys: n }, "dropped signing keys of deleted realm");
  }));
  return subs;
}
