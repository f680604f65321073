import { fromBinary } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { Logger } from "pino";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { ProviderRepository } from "../store/provider-repository.js";

export const REALM_DELETED = "iam.directory.v1.realm.deleted";

/** A realm's deletion drops its providers created up to deleted_at (idempotent on redelivery). */
export async function startFederationConsumers(bus: Bus, providers: ProviderRepository, logger: Logger): Promise<Subscription[]> {
  return [
    await bus.subscribe({ durable: "federation-realm-deleted", subject: REALM_DELETED }, async (m) => {
      const e = fromBinary(RealmDeletedSchema, m.payload);
      const upTo = e.deletedAt ? timestampMs(e.deletedAt) : m.time;
      const n = await providers.deleteRealm(e.realmId, upTo);
      logger.info({ realm: e.realmName, providers: n }, "dropped LDAP providers of deleted realm");
    }),
  ];
}
