import { fromBinary } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { Logger } from "pino";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { UserDeletedSchema } from "../../../../gen/iam/directory/v1/user_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { ProviderRepository } from "../store/provider-repository.js";
import type { LinkRepository } from "../store/link-repository.js";
import type { LoginStateRepository } from "../store/login-state-repository.js";
import type { MapperRepository } from "../store/mapper-repository.js";

/**
 * The broker's durable consumers (idempotent: a redelivery deletes nothing more). A realm's
 * deletion drops its providers, mappers, links and login states; a user's deletion drops its links.
 */
export async function startBrokerConsumers(
  bus: Bus, providers: ProviderRepository, links: LinkRepository, states: LoginStateRepository, logger: Logger, mappers?: MapperRepository,
): Promise<Subscription[]> {
  return [
    await bus.subscribe({ durable: "broker-realm-deleted", subject: "iam.directory.v1.realm.deleted" }, async (m) => {
      const e = fromBinary(RealmDeletedSchema, m.payload);
      const upTo = e.deletedAt ? timestampMs(e.deletedAt) : m.time;
      const count = await providers.deleteRealm(e.realmId, upTo);
      const linkCount = await links.deleteRealm(e.realmId);
      await states.deleteRealm(e.realmId);
      await mappers?.deleteRealm(e.realmId, upTo);
      logger.info({ realm: e.realmName, identityProviders: count, links: linkCount }, "dropped broker data of deleted realm");
    }),
    await bus.subscribe({ durable: "broker-user-deleted", subject: "iam.directory.v1.user.deleted" }, async (m) => {
      const e = fromBinary(UserDeletedSchema, m.payload);
      await links.deleteUser(e.realmId, e.userId);
    }),
  ];
}
