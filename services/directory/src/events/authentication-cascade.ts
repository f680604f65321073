import { fromBinary } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { UserDeletedSchema } from "../../../../gen/iam/directory/v1/user_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import { REALM_DELETED } from "./realm-events.js";
import { USER_DELETED } from "./user-events.js";

export interface AuthenticationDataOwner {
  deleteRealm(realmId: string): Promise<number>;
  forget(realmId: string, userId: string): Promise<unknown>;
}

/**
 * Drops TOTP credentials, recovery codes and brute-force records with their user (user.deleted)
 * or realm (realm.deleted). Both are keyed by ids that are never reused, so redelivery is harmless.
 */
export async function startAuthenticationCascade(bus: Bus, owners: AuthenticationDataOwner[], logger: Logger): Promise<Subscription[]> {
  return [
    await bus.subscribe({ durable: "directory-authn-realm-deleted", subject: REALM_DELETED }, async (m) => {
      const e = fromBinary(RealmDeletedSchema, m.payload);
      let n = 0;
      for (const o of owners) n += await o.deleteRealm(e.realmId);
      logger.info({ realm: e.realmName, deleted: n, request_id: m.requestId }, "realm authentication data deleted");
    }),
    await bus.subscribe({ durable: "directory-authn-user-deleted", subject: USER_DELETED }, async (m) => {
      const e = fromBinary(UserDeletedSchema, m.payload);
      for (const o of owners) await o.forget(e.realmId, e.userId);
    }),
  ];
}
