import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { Logger } from "pino";
import { TokenConfigChangedSchema } from "../../../../gen/iam/directory/v1/client_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { Outbox, OutboxKind, OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import { requestIdOption } from "../../../kit/src/context.js";
import type { WriteAnnouncer, WriteCounter } from "../../../kit/src/store/write-counted.js";

export const TOKEN_CONFIG_CHANGED = "iam.directory.v1.token-config.changed";

/** Names remembered per realm id; a realm's name never changes and its id is never reused. */
const MAX_REMEMBERED_NAMES = 10_000;

/** What the outbox keeps of a token-configuration write until its announcement is out. */
interface TokenConfigSnapshot {
  realmId?: string;
  realmName?: string;
}

/**
 * The WriteCounter's announcer for ClientTokenConfigs: tells the other replicas (and the token
 * service's client and client_credentials caches) of a write to clients, roles, client scopes,
 * mappers or scope assignments, naming the realm when the write touched one, so the token service
 * drops that realm's entries only. `realmName` finds a realm's name by id (null once the realm is
 * gone: the event then names none, and listeners drop every realm's).
 *
 * The announcement is staged in the outbox with the write (outbox.ts), so a crash between the
 * two cannot leave those caches on the old configuration until they expire; the relay announces
 * a staged one whether or not the write happened, as a needless drop costs only a read. The
 * write's own failure goes to the writer and announces nothing. A failed publish is logged, not
 * thrown: the write is stored, and the relay announces it later.
 */
export function tokenConfigAnnouncer(outbox: Outbox, logger: Logger, realmName: (realmId: string) => Promise<string | null>): WriteAnnouncer {
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
  const kind: OutboxKind<TokenConfigSnapshot> = { name: "directory.token-config", applied: async () => true };
  outbox.register(kind);
  return async <R>(realmId: string | undefined, write: () => Promise<R>): Promise<R> => {
    const name = realmId === undefined ? "" : await nameOf(realmId);
    // Both or neither: a realm without its name could not be dropped by name.
    const snapshot: TokenConfigSnapshot = name ? { realmId, realmName: name } : {};
    let outcome: { ok: true; value: R } | { ok: false; error: unknown } | undefined;
    try {
      await outbox.write({
        kind,
        snapshot,
        announce: (s, stamp) => [tokenConfigChangedEvent(s, stamp.time, stamp.id("event"))],
        apply: async () => {
          try {
            outcome = { ok: true, value: await write() };
            return snapshot;
          } catch (error) {
            outcome = { ok: false, error };
            return null;
          }
        },
      });
    } catch (err) {
      if (!outcome) throw err; // the staging itself failed: the write never ran
      if (outcome.ok) logger.warn({ err }, "token configuration change not announced yet; the outbox relay announces it");
    }
    if (!outcome!.ok) throw outcome!.error;
    return outcome!.value;
  };
}

function tokenConfigChangedEvent(s: TokenConfigSnapshot, at: number, id: string): OutgoingEvent {
  return {
    subject: TOKEN_CONFIG_CHANGED,
    payload: toBinary(TokenConfigChangedSchema, create(TokenConfigChangedSchema, {
      changedAt: timestampFromMs(at), ...(s.realmId && s.realmName ? { realmId: s.realmId, realmName: s.realmName } : {}),
    })),
    id, ...requestIdOption(),
  };
}

/** Every replica counts an announced write as its own: its cached token configurations go stale. */
export function watchTokenConfigWrites(bus: Bus, writes: WriteCounter): Promise<Subscription> {
  return bus.watch({ subject: TOKEN_CONFIG_CHANGED, onGap: () => writes.bump() }, () => writes.bump());
}
