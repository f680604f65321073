import { create, toBinary } from "@bufbuild/protobuf";
import { ClientUpdatedSchema } from "../../../../gen/iam/directory/v1/client_pb.js";
import type { OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import { requestIdOption } from "../../../kit/src/context.js";
import type { RealmRecord } from "../domain/realm.js";
import type { ClientRecord } from "../domain/client.js";

export const CLIENT_UPDATED = "iam.directory.v1.client.updated";

/**
 * `client.updated`, built for the outbox (staged with the client's change or deletion): caches of
 * the client drop it (DESIGN 3), and the token service revokes the tokens and sessions of a
 * deleted or disabled one (RFC 6749 section 10.4).
 */
export function clientUpdatedEvent(
  realm: Pick<RealmRecord, "_id" | "name">, client: Pick<ClientRecord, "_id" | "clientId" | "enabled">, deleted: boolean, id: string,
): OutgoingEvent {
  return {
    subject: CLIENT_UPDATED,
    payload: toBinary(ClientUpdatedSchema, create(ClientUpdatedSchema, {
      realmId: realm._id, realmName: realm.name, clientId: client.clientId, id: client._id, deleted, disabled: !client.enabled,
    })),
    id, ...requestIdOption(),
  };
}
