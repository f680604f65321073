import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { Logger } from "pino";
import { TokenConfigChangedSchema } from "../../../../gen/iam/directory/v1/client_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import { requestIdOption } from "../../../kit/src/context.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { WriteCounter } from "../../../kit/src/store/write-counted.js";

export const TOKEN_CONFIG_CHANGED = "iam.directory.v1.token-config.changed";

/**
 * The WriteCounter's `afterWrite` for ClientTokenConfigs: announces a write to clients, roles,
 * client scopes, mappers or scope assignments to the other replicas (and to the token service's
 * client_credentials cache). Awaited by the write, so the Admin API answers after the announcement.
 * A failed publish is logged, not thrown: the write is stored, and the caches' age bound covers
 * a replica that missed it.
 */
export function tokenConfigAnnouncer(bus: Bus, clock: Clock, logger: Logger): () => Promise<void> {
  return async () => {
    try {
      await bus.publish(TOKEN_CONFIG_CHANGED, toBinary(TokenConfigChangedSchema, create(TokenConfigChangedSchema, {
        changedAt: timestampFromMs(clock.now()),
      })), requestIdOption());
    } catch (err) {
      logger.warn({ err }, "token configuration change not announced; other replicas see it within their cache age");
    }
  };
}

/** Every replica counts an announced write as its own: its cached token configurations go stale. */
export function watchTokenConfigWrites(bus: Bus, writes: WriteCounter): Promise<Subscription> {
  return bus.watch({ subject: TOKEN_CONFIG_CHANGED, onGap: () => writes.bump() }, () => writes.bump());
}
