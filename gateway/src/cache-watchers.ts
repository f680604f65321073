import { fromBinary } from "@bufbuild/protobuf";
import { ClientUpdatedSchema } from "../../gen/iam/directory/v1/client_pb.js";
import { RealmDeletedSchema, RealmUpdatedSchema } from "../../gen/iam/directory/v1/realm_pb.js";
import type { Bus, Subscription } from "../../services/kit/src/bus/port.js";
import type { ClientOrigins } from "./oidc/cors.js";
import type { Throttle } from "./oidc/throttle.js";
import type { RealmLooks } from "./pages/realm-looks.js";
import type { LoginOptions } from "./pages/login-options.js";

export interface GatewayCaches {
  origins: ClientOrigins;
  looks: RealmLooks;
  login: LoginOptions;
  throttle: Throttle;
}

/**
 * The gateway's caches of realm looks and login options, client web origins and realm rate limits follow the
 * directory's events in every gateway replica (a bus watch: each watching process gets each event),
 * so a change made through another replica, or through the directory's gRPC API directly, applies
 * here as soon as the event arrives rather than after the caches' age. A gap (a NATS reconnect)
 * drops everything.
 */
export function watchGatewayCaches(bus: Bus, c: GatewayCaches): Promise<Subscription[]> {
  const dropAll = () => {
    c.origins.forget();
    c.looks.forget();
    c.login.forget();
    c.throttle.forget();
  };
  const realmChanged = (realm: string) => {
    c.origins.forget(realm);
    c.looks.forget(realm);
    c.login.forget(realm);
    c.throttle.forget(realm);
  };
  return Promise.all([
    // Update, delete and secret regeneration of a client: its web origins (redirect URIs for `+`).
    bus.watch({ subject: "iam.directory.v1.client.updated", onGap: dropAll }, (m) => {
      const e = fromBinary(ClientUpdatedSchema, m.payload);
      c.origins.forget(e.realmName, e.clientId);
    }),
    bus.watch({ subject: "iam.directory.v1.realm.updated", onGap: dropAll }, (m) => realmChanged(fromBinary(RealmUpdatedSchema, m.payload).realmName)),
    bus.watch({ subject: "iam.directory.v1.realm.deleted", onGap: dropAll }, (m) => realmChanged(fromBinary(RealmDeletedSchema, m.payload).realmName)),
  ]);
}
