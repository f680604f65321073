import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { Logger } from "pino";
import { SigningKeysChangedSchema } from "../../../../gen/iam/token/v1/events_pb.js";
import type { Bus } from "../../../kit/src/bus/port.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { requestIdOption } from "../../../kit/src/context.js";
import type { KeyChange } from "../domain/key-ring.js";

export const SIGNING_KEYS_CHANGED = "iam.token.v1.signing-keys.changed";

/**
 * The KeyRing's `announce`: publishes that a realm's keys changed, for the other replicas' caches.
 * Not awaited, and a failed publish is logged, not thrown: the change is already stored, a
 * rotation must not wait on the bus (DESIGN 8) nor fail and invite a second one, and a replica
 * that missed it re-reads within the ring's TTL.
 */
export function signingKeyAnnouncer(bus: Bus, clock: Clock, logger: Logger): (realmId: string, change: KeyChange) => Promise<void> {
  return async (realmId, change) => {
    if (bus.available?.() === false) {
      logger.warn({ realmId, change }, "signing key change not announced while the bus is down; other replicas see it within their key cache TTL");
      return;
    }
    bus.publish(SIGNING_KEYS_CHANGED, toBinary(SigningKeysChangedSchema, create(SigningKeysChangedSchema, {
      realmId, reason: change, changedAt: timestampFromMs(clock.now()),
    })), requestIdOption()).catch((err: unknown) => {
      logger.warn({ err, realmId, change }, "signing key change not announced; other replicas see it within their key cache TTL");
    });
  };
}
