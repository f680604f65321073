import { fromBinary } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { ClientUpdatedSchema } from "../../../../gen/iam/directory/v1/client_pb.js";
import { RealmDeletedSchema } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { PasswordChangedSchema, UserDeletedSchema, UserDisabledSchema } from "../../../../gen/iam/directory/v1/user_pb.js";
import { SsoSessionEndedSchema } from "../../../../gen/iam/token/v1/events_pb.js";
import type { Bus, Subscription } from "../../../kit/src/bus/port.js";
import type { SessionTerminator } from "../domain/session-terminator.js";
import type { SsoSessions } from "../domain/sso-sessions.js";
import { realmScopeOf } from "../domain/realm-scope.js";
import type { SessionEndReason } from "./session-events.js";
import { SSO_SESSION_ENDED } from "./session-events.js";

/**
 * Durables of earlier versions whose work moved to watches (cache-watchers.ts): retired at start
 * (Bus.retireDurable), so they do not hold the in-process journal from pruning or stay on the
 * NATS server, while a replica of the previous version still consuming one keeps working.
 */
export const RETIRED_DURABLES = ["token-client-updated", "token-realm-updated-oauth"];

export interface OAuthConsumerDeps {
  bus: Bus;
  terminator: SessionTerminator;
  sso: SsoSessions;
  /** Deletes a deleted realm's OAuth records (families, codes, device codes, SSO sessions, deny list). */
  dropRealm(realmId: string): Promise<number>;
  /** Deletes a deleted client's other records given up to `upTo` (the browser flow's consents). */
  dropClientAlso?: ((realmId: string, clientId: string, upTo: number) => Promise<void>) | undefined;
  /** Other data of a deleted user (its consents), after its sessions ended. */
  dropUserAlso?: ((realmId: string, userId: string) => Promise<void>) | undefined;
  logger: Logger;
}

/**
 * The OAuth consumers of the token service (DESIGN 3): the store-side reactions, done once by
 * whichever replica gets the event (the caches of every replica follow in cache-watchers.ts).
 * Idempotent: ending what already ended is a no-op, so at-least-once redelivery is harmless.
 */
export async function startOAuthConsumers(d: OAuthConsumerDeps): Promise<Subscription[]> {
  for (const durable of RETIRED_DURABLES) {
    if (await d.bus.retireDurable(durable)) d.logger.info({ durable }, "retired a durable this version no longer uses");
  }
  const subs: Subscription[] = [];
  // The event's time, not the consumer's: a token issued after the change (the user re-enabled, the
  // new password used) stays valid however late the event is handled, and so does a session
  // created after it (`bounded`): the login that ran the UPDATE_PASSWORD required action starts
  // its session right after the change, perhaps before this consumer runs. A deleted user has no
  // session worth sparing (one created after the deletion only by a login racing it): all end.
  const endUser = (durable: string, subject: string, reason: SessionEndReason, bounded: boolean, decode: (p: Uint8Array) => { realmId: string; realmName: string; userId: string }) =>
    bus.subscribe({ durable, subject }, async (m) => {
      const e = decode(m.payload);
      const n = await d.terminator.endAllOfUser(realmScopeOf(e.realmId, e.realmName), e.userId, reason, m.time, bounded ? { createdUpTo: m.time } : {});
      if (n > 0) d.logger.info({ realm: e.realmName, userId: e.userId, sessions: n, reason }, "ended user's sessions");
      // Its consents go too (Keycloak deletes them with the user); they could never be used again.
      if (reason === "user_deleted") await d.dropUserAlso?.(e.realmId, e.userId);
    });
  const { bus } = d;
  subs.push(await endUser("token-user-deleted", "iam.directory.v1.user.deleted", "user_deleted", false, (p) => fromBinary(UserDeletedSchema, p)));
  subs.push(await endUser("token-user-disabled", "iam.directory.v1.user.disabled", "user_disabled", true, (p) => fromBinary(UserDisabledSchema, p)));
  subs.push(await endUser("token-password-changed", "iam.directory.v1.password.changed", "password_changed", true, (p) => fromBinary(PasswordChangedSchema, p)));
  // Update, delete and secret regeneration publish client.updated; a deleted or disabled client's
  // tokens and sessions end (RFC 6749 section 10.4). Not the retired "token-client-updated".
  subs.push(await bus.subscribe({ durable: "token-client-ended", subject: "iam.directory.v1.client.updated" }, async (m) => {
    const e = fromBinary(ClientUpdatedSchema, m.payload);
    if (!e.deleted && !e.disabled) return;
    // A deleted client leaves the SSO sessions it used (a disabled one stays, as do its consents):
    // first, so a session ending meanwhile no longer sends it a back-channel logout.
    const forgotten = e.deleted ? await d.sso.forgetClient(e.realmId, e.clientId) : 0;
    const n = await d.terminator.endAllOfClient(realmScopeOf(e.realmId, e.realmName), e.clientId, m.time);
    // Consents go only with the client (Keycloak keeps them while a client is disabled).
    if (e.deleted) await d.dropClientAlso?.(e.realmId, e.clientId, m.time);
    d.logger.info({
      realm: e.realmName, clientId: e.clientId, sessions: n, ssoSessions: forgotten, reason: e.deleted ? "client_deleted" : "client_disabled",
    }, "revoked client's tokens and sessions");
  }));
  subs.push(await bus.subscribe({ durable: "token-sso-session-ended", subject: SSO_SESSION_ENDED }, async (m) => {
    const e = fromBinary(SsoSessionEndedSchema, m.payload);
    await d.terminator.onSsoSessionEnded(realmScopeOf(e.realmId, e.realmName), e.sessionId, e.userId, e.clientIds);
  }));
  subs.push(await bus.subscribe({ durable: "token-realm-deleted-oauth", subject: "iam.directory.v1.realm.deleted" }, async (m) => {
    const e = fromBinary(RealmDeletedSchema, m.payload);
    const n = await d.dropRealm(e.realmId);
    d.logger.info({ realm: e.realmName, records: n }, "dropped OAuth records of deleted realm");
  }));
  return subs;
}
