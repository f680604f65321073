import { fromBinary } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { RealmDeletedSchema, RealmUpdatedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { PasswordChangedSchema, UserDeletedSchema, UserDisabledSchema } from "../../../../gen/iam/directory/v1/user_pb.js";
import { ClientUpdatedSchema } from "../../../../gen/iam/directory/v1/client_pb.js";
import { SsoSessionEndedSchema } from "../../../../gen/iam/token/v1/events_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { ClientDirectory } from "../domain/client-directory.js";
import type { ServiceAccountGrants } from "../domain/grants/service-account-grants.js";
import type { RealmSettings } from "../domain/realm-settings.js";
import type { SessionTerminator } from "../domain/session-terminator.js";
import type { RealmScope } from "../domain/realm-scope.js";
import type { SessionEndReason } from "./session-events.js";
import { SSO_SESSION_ENDED } from "./session-events.js";

export interface OAuthConsumerDeps {
  bus: Bus;
  realms: RealmSettings;
  clients: ClientDirectory;
  /** The client_credentials grant cache (issue 4, performance design), dropped with the client or realm. */
  serviceAccountGrants: ServiceAccountGrants;
  terminator: SessionTerminator;
  /** Deletes a deleted realm's OAuth records (families, codes, device codes, SSO sessions, deny list). */
  dropRealm(realmId: string): Promise<number>;
  logger: Logger;
}

/**
 * The OAuth consumers of the token service (DESIGN 3). Idempotent: ending what already ended is
 * a no-op, so at-least-once redelivery is harmless.
 */
export async function startOAuthConsumers(d: OAuthConsumerDeps): Promise<Subscription[]> {
  const subs: Subscription[] = [];
  const scope = (realmId: string, realmName: string): RealmScope => ({ id: realmId, name: realmName, enabled: true, tokenLifespanSeconds: 0 });
  const endUser = (durable: string, subject: string, reason: SessionEndReason, decode: (p: Uint8Array) => { realmId: string; realmName: string; userId: string }) =>
    bus.subscribe({ durable, subject }, async (m) => {
      const e = decode(m.payload);
      // The user may be a service account: its cached client_credentials grants go at once.
      if (reason !== "password_changed") d.serviceAccountGrants.invalidate(e.realmName);
      const n = await d.terminator.endAllOfUser(scope(e.realmId, e.realmName), e.userId, reason);
      if (n > 0) d.logger.info({ realm: e.realmName, userId: e.userId, sessions: n, reason }, "ended user's sessions");
    });
  const { bus } = d;
  subs.push(await endUser("token-user-deleted", "iam.directory.v1.user.deleted", "user_deleted", (p) => fromBinary(UserDeletedSchema, p)));
  subs.push(await endUser("token-user-disabled", "iam.directory.v1.user.disabled", "user_disabled", (p) => fromBinary(UserDisabledSchema, p)));
  subs.push(await endUser("token-password-changed", "iam.directory.v1.password.changed", "password_changed", (p) => fromBinary(PasswordChangedSchema, p)));
  subs.push(await bus.subscribe({ durable: "token-client-updated", subject: "iam.directory.v1.client.updated" }, async (m) => {
    const e = fromBinary(ClientUpdatedSchema, m.payload);
    d.clients.invalidate(e.realmName, e.clientId);
    d.serviceAccountGrants.invalidate(e.realmName, e.clientId);
  }));
  subs.push(await bus.subscribe({ durable: "token-realm-updated-oauth", subject: "iam.directory.v1.realm.updated" }, async (m) => {
    const name = fromBinary(RealmUpdatedSchema, m.payload).realmName;
    d.realms.invalidate(name);
    d.serviceAccountGrants.invalidate(name);
  }));
  subs.push(await bus.subscribe({ durable: "token-sso-session-ended", subject: SSO_SESSION_ENDED }, async (m) => {
    const e = fromBinary(SsoSessionEndedSchema, m.payload);
    await d.terminator.onSsoSessionEnded(scope(e.realmId, e.realmName), e.sessionId, e.userId, e.clientIds);
  }));
  subs.push(await bus.subscribe({ durable: "token-realm-deleted-oauth", subject: "iam.directory.v1.realm.deleted" }, async (m) => {
    const e = fromBinary(RealmDeletedSchema, m.payload);
    d.realms.invalidate(e.realmName);
    d.clients.invalidate(e.realmName);
    d.serviceAccountGrants.invalidate(e.realmName);
    const n = await d.dropRealm(e.realmId);
    d.logger.info({ realm: e.realmName, records: n }, "dropped OAuth records of deleted realm");
  }));
  return subs;
}
