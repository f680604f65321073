import { fromBinary } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { ClientUpdatedSchema } from "../../../../gen/iam/directory/v1/client_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { DynamicRegistration } from "../domain/dynamic-registration.js";
import type { InitialAccessTokenRepository } from "../store/initial-access-token-repository.js";
import type { ClientRegistrationRepository } from "../store/client-registration-repository.js";
import type { RegistrationPolicyRepository } from "../store/registration-policy-repository.js";
import { REALM_DELETED } from "./realm-events.js";
import { CLIENT_UPDATED } from "./client-events.js";

export interface RegistrationCascadeTargets {
  registration: DynamicRegistration;
  tokens: InitialAccessTokenRepository;
  registrations: ClientRegistrationRepository;
  policies: RegistrationPolicyRepository;
}

/**
 * Keeps dynamic registration's records in step: a deleted realm drops its initial access tokens,
 * registrations and policy; a deleted client (through the Admin API too) drops its registration
 * and frees its slot under the realm's cap. Idempotent under redelivery (deletes by id).
 */
export async function subscribeRegistrationCascade(bus: Bus, t: RegistrationCascadeTargets, logger: Logger): Promise<Subscription[]> {
  return [
    await bus.subscribe({ durable: "directory-realm-deleted-registrations", subject: REALM_DELETED }, async (m) => {
      const e = fromBinary(RealmDeletedSchema, m.payload);
      const counts = {
        initialAccessTokens: await t.tokens.deleteRealm(e.realmId),
        registrations: await t.registrations.deleteRealm(e.realmId),
      };
      await t.policies.delete(e.realmId);
      logger.info({ realm: e.realmName, ...counts }, "dropped dynamic registration records of deleted realm");
    }),
    await bus.subscribe({ durable: "directory-client-deleted-registrations", subject: CLIENT_UPDATED }, async (m) => {
      const e = fromBinary(ClientUpdatedSchema, m.payload);
      if (e.deleted) await t.registration.forget(e.realmId, e.id);
    }),
  ];
}
