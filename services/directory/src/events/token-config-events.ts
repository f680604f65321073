import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { Logger } from "pino";
import { TokenConfigChangedSchema } from "../../../../gen/iam/directory/v1/client_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import { requestIdOption } from "../../../kit/src/context.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { WriteCounter } from "../../../kit/src/store/write-counted.js";

export const TOKEN_CONFIG_CHANGED = "iam.directory.v1.token-config.changed";

/** Names remembered per realm id; a realm's name never changes and its id is never reused. */
const MAX_REMEMBERED_NAMES = 10_000;

/**
 * The WriteCounter's `afterWrite` for ClientTokenConfigs: announces a write to clients, roles,
 * client scopes, mappers or scope assignments to the other replicas (and to the token service's
 * client and client_credentials caches), naming the realm when the write touched one, so the
 * token service drops that realm's entries only. `realmName` finds a realm's name by id (null
 * once the realm is gone: the event then names none, and listeners drop every realm's).
 * Awaited by the write, so the Admin API answers after the announcement. A failed publish is
 * logged, not thrown: the write is stored, and the caches' age bound covers a replica that missed it.
 */
export function tokenConfigAnnouncer(
  bus: Bus, clock: Clock, logger: Logger, realmName: (realmId: string) => Promise<string | null>,
): (realmId: string | undefined) => Promise<void> {
  const names = new Map<string, string>();
  const nameOf = async (realmId: string): Promise<string> => {
    const known = names.get(realmId);
    if (known !== undefined) return known;
    const name = await realmName(realmId);
    if (!name) return "";
    if (names.size >= MAX_REMEMBERED_NAMES) names.clear();
    names.set(realmId, name);
    return name;
  };
  return async (realmId) => {
    try {
      const name = realmId === undefined ? "" : await nameOf(realmId);
      await bus.publish(TOKEN_CONFIG_CHANGED, toBinary(TokenConfigChangedSchema, create(TokenConfigChangedSchema, {
        changedAt: timestampFromMs(clock.now()),
        // Both or neither: a realm without its name could not be dropped by name.
        ...(name ? { realmId, realmName: name } : {}),
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
