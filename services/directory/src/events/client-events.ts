import { randomUUID } from "node:crypto";
import { create, toBinary } from "@bufbuild/protobuf";
import { ClientUpdatedSchema } from "../../../../gen/iam/directory/v1/client_pb.js";
import type { Bus } from "../../../kit/src/bus/port.js";
import type { OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import { requestIdOption } from "../../../kit/src/context.js";
import type { RealmRecord } from "../domain/realm.js";
import type { ClientRecord } from "../domain/client.js";

export const CLIENT_UPDATED = "iam.directory.v1.client.updated";

/**
 * Announces a changed or deleted client so caches of it drop it (DESIGN 3), and so the token
 * service revokes the tokens and sessions of a deleted or disabled one (RFC 6749 section 10.4).
 */
export async function publishClientUpdated(bus: Bus, realm: RealmRecord, client: ClientRecord, deleted: boolean): Promise<void> {
  const event = clientUpdatedEvent(realm, client, deleted, randomUUID());
  await bus.publish(event.subject, event.payload, { id: event.id, ...requestIdOption() });
}

/** `client.updated`, built for the outbox (a client's deletion stages it before the client goes). */
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
