import { fromBinary } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { Logger } from "pino";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { ServiceProviderRepository } from "../store/service-provider-repository.js";
import type { IdpKeyRepository } from "../store/idp-key-repository.js";
import type { SsoStore } from "../sso/sso-store.js";

export const REALM_DELETED = "iam.directory.v1.realm.deleted";

/**
 * The saml service's durable consumers. A realm's deletion drops its SPs and signing keys created
 * up to deleted_at (idempotent: a redelivery deletes nothing more).
 */
export async function startSamlConsumers(
  bus: Bus, sps: ServiceProviderRepository, keys: IdpKeyRepository, logger: Logger, sso?: SsoStore,
): Promise<Subscription[]> {
  return [
    await bus.subscribe({ durable: "saml-realm-deleted", subject: REALM_DELETED }, async (m) => {
      const e = fromBinary(RealmDeletedSchema, m.payload);
      const upTo = e.deletedAt ? timestampMs(e.deletedAt) : m.time;
      const spCount = await sps.deleteRealm(e.realmId, upTo);
      const keyCount = await keys.deleteRealm(e.realmId, upTo);
      // Pending AuthnRequests and SAML session records (for SLO) of the realm go as well.
      await sso?.deleteRealm(e.realmId);
      logger.info({ realm: e.realmName, serviceProviders: spCount, signingKeys: keyCount }, "dropped SAML data of deleted realm");
    }),
  ];
}
