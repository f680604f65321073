import { fromBinary } from "@bufbuild/protobuf";
import { PasswordChangedSchema, UserDeletedSchema, UserDisabledSchema } from "../../../../gen/iam/directory/v1/user_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { RecentUserRevocations } from "../domain/recent-user-revocations.js";

/**
 * Feeds RecentUserRevocations in every replica (a watch, not a durable: each replica needs every
 * event). Dated by the event's publish time, as the store's marks are, so a token issued after the
 * change is untouched. A gap needs nothing: the durable consumers still handle every event.
 */
export async function watchUserRevocations(bus: Bus, recent: RecentUserRevocations): Promise<Subscription[]> {
  const onGap = () => undefined;
  const watch = (subject: string, decode: (p: Uint8Array) => { realmId: string; userId: string }) =>
    bus.watch({ subject, onGap }, (m) => {
      const e = decode(m.payload);
      recent.note(e.realmId, e.userId, m.time);
    });
  return Promise.all([
    watch("iam.directory.v1.user.disabled", (p) => fromBinary(UserDisabledSchema, p)),
    watch("iam.directory.v1.user.deleted", (p) => fromBinary(UserDeletedSchema, p)),
    watch("iam.directory.v1.password.changed", (p) => fromBinary(PasswordChangedSchema, p)),
  ]);
}
