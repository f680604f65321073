import { fromBinary } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { ClientUpdatedSchema, TokenConfigChangedSchema } from "../../../../gen/iam/directory/v1/client_pb.js";
import { RealmDeletedSchema, RealmUpdatedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { ServiceAccountChangedSchema, UserDeletedSchema, UserDisabledSchema } from "../../../../gen/iam/directory/v1/user_pb.js";
import { SigningKeysChangedSchema } from "../../../../gen/iam/token/v1/events_pb.js";
import type { Bus, BusMessage, Subscription } from "../../../kit/src/bus/port.js";
import type { ClientDirectory } from "../domain/client-directory.js";
import type { DiscoveryScopes } from "../domain/discovery-scopes.js";
import type { ServiceAccountGrants } from "../domain/grants/service-account-grants.js";
import type { KeyRing } from "../domain/key-ring.js";
import type { RealmSettings } from "../domain/realm-settings.js";
import { SIGNING_KEYS_CHANGED } from "./key-events.js";

export interface TokenCaches {
  realms: RealmSettings;
  clients: ClientDirectory;
  serviceAccountGrants: ServiceAccountGrants;
  keys: KeyRing;
  discoveryScopes: DiscoveryScopes;
}

/**
 * The token service's in-memory caches (docs/performance.md) follow the events that
 * change what they hold, in every replica: a watch, not a durable, since replicas share a
 * durable's position and only one of them would drop its copy (DESIGN 3, "client.updated
 * (caches drop)"). The store-side reactions to the same events stay durable consumers
 * (oauth-consumers.ts, consumers.ts). A gap drops everything: the next reads go to the source.
 */
export async function watchTokenCaches(bus: Bus, c: TokenCaches, logger: Logger): Promise<Subscription[]> {
  const dropAll = () => {
    c.realms.invalidate();
    c.clients.invalidate();
    c.serviceAccountGrants.invalidate();
    c.keys.invalidateAll();
    c.discoveryScopes.invalidate();
    logger.info("dropped every cached realm, client, service-account grant, signing key and discovery scope list");
  };
  const watch = (subject: string, drop: (m: BusMessage) => void) => bus.watch({ subject, onGap: dropAll }, drop);
  return Promise.all([
    // Update, delete and secret regeneration of a client.
    watch("iam.directory.v1.client.updated", (m) => {
      const e = fromBinary(ClientUpdatedSchema, m.payload);
      c.clients.invalidate(e.realmName, e.clientId);
      c.serviceAccountGrants.invalidate(e.realmName, e.clientId);
    }),
    watch("iam.directory.v1.realm.updated", (m) => {
      const name = fromBinary(RealmUpdatedSchema, m.payload).realmName;
      c.realms.invalidate(name);
      c.serviceAccountGrants.invalidate(name);
    }),
    watch("iam.directory.v1.realm.deleted", (m) => {
      const e = fromBinary(RealmDeletedSchema, m.payload);
      c.realms.invalidate(e.realmName);
      c.clients.invalidate(e.realmName);
      c.serviceAccountGrants.invalidate(e.realmName);
      c.keys.invalidate(e.realmId);
      c.discoveryScopes.invalidate(e.realmName);
    }),
    // The user may be a service account: its cached client_credentials grants go at once.
    watch("iam.directory.v1.user.deleted", (m) => c.serviceAccountGrants.invalidate(fromBinary(UserDeletedSchema, m.payload).realmName)),
    watch("iam.directory.v1.user.disabled", (m) => c.serviceAccountGrants.invalidate(fromBinary(UserDisabledSchema, m.payload).realmName)),
    watch("iam.directory.v1.service-account.changed", (m) => c.serviceAccountGrants.invalidate(fromBinary(ServiceAccountChangedSchema, m.payload).realmName)),
    // A client, role, client scope, mapper or scope assignment changed: service accounts' claims
    // may have, the scope names the cached clients may ask for, and the realm's client scopes
    // (discovery's scopes_supported). Only the named realm's; every realm's when the event names
    // none (a write across realms, or an older directory).
    watch("iam.directory.v1.token-config.changed", (m) => {
      const realm = fromBinary(TokenConfigChangedSchema, m.payload).realmName || undefined;
      c.serviceAccountGrants.invalidate(realm);
      c.clients.invalidate(realm);
      c.discoveryScopes.invalidate(realm);
    }),
    watch(SIGNING_KEYS_CHANGED, (m) => c.keys.invalidate(fromBinary(SigningKeysChangedSchema, m.payload).realmId)),
  ]);
}
