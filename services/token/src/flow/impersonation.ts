import { randomUUID } from "node:crypto";
import { currentContext } from "../../../kit/src/context.js";
import type { EventSink } from "../../../kit/src/bus/outbox.js";
import { adminEventMessage } from "../../../kit/src/events/admin-events.js";
import { IamError } from "../../../kit/src/errors.js";
import type { FlowKit, StepContext } from "./flow-kit.js";
import type { LoginTransactionRecord } from "./login-transaction.js";

/**
 * Keycloak's impersonation (UserResource.impersonate): the administrator gets an SSO session as an
 * enabled user of the realm, made as a login's is (FlowKit.establishSession) and flagged with the
 * administrator, whose tokens carry Keycloak's `impersonator` claim ({id, username}, its
 * IMPERSONATOR_ID / IMPERSONATOR_USERNAME session notes). Keycloak requires a user administrator
 * (its `impersonation` role); every Tessera administrator may, but an API key is no one whose name
 * the session and the events could carry, so it is refused. Recorded: the login event IMPERSONATE
 * (Keycloak's detail impersonator, with impersonator_id; Tessera's administrators belong to no
 * realm, so Keycloak's impersonator_realm has no value to carry) and the admin
 * event ACTION USER users/{id}/impersonation.
 */
export class Impersonation {
  constructor(private readonly kit: FlowKit, private readonly outbox: EventSink) {}

  async start(realmName: string, userId: string, ipAddress: string): Promise<{ cookie: string; sessionId: string }> {
    const actor = currentContext()?.actor;
    if (actor?.type !== "admin" || !actor.adminId || !actor.username) {
      throw new IamError({ code: "permissionDenied", reason: "impersonator_required", message: "impersonation needs a signed-in administrator: an API key has no identity to record" });
    }
    const realm = await this.kit.d.realms.get(realmName);
    if (!realm) throw IamError.notFound(`realm "${realmName}"`, "realm_not_found");
    const status = await this.kit.d.auth.getUserStatus({ realm: realm.name, userId });
    if (!status.exists) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    // Keycloak's messages.
    if (!status.enabled) throw IamError.invalid("enabled", "User is disabled", "user_disabled");
    if (status.serviceAccount) throw IamError.invalid("userId", "Service accounts cannot be impersonated", "service_account");
    const impersonator = { id: actor.adminId, username: actor.username };
    const now = this.kit.now();
    // Not stored: the shape establishSession reads of a finished login (no client yet, amr none).
    const login = {
      _id: "", realmId: realm.id, realmName: realm.name, kind: "actions", browserHash: "", csrfToken: "", step: "done",
      clientId: "", clientName: "", scope: "", userId, username: status.username, amr: [], authTime: now, createdAt: now, expiresAt: now,
    } satisfies LoginTransactionRecord;
    const { session, cookie, durable } = await this.kit.establishSession(realm, login, ipAddress, impersonator);
    await durable();
    const ctx: StepContext = { realm: realm.name, transactionId: "", csrfToken: "", browserId: "", ssoCookie: "", ipAddress, baseUrl: "" };
    await this.kit.d.events.record(realm, ctx, null, {
      type: "IMPERSONATE", userId, sessionId: session._id,
      details: { username: status.username, impersonator: impersonator.username, impersonator_id: impersonator.id },
    });
    if (realm.adminEventsEnabled) {
      await this.outbox.send([adminEventMessage("token", {
        realm: realm.name, operationType: "ACTION", resourceType: "USER", resourcePath: `users/${userId}/impersonation`,
        representation: { sessionId: session._id },
      }, now, randomUUID())]);
    }
    return { cookie: cookie ?? "", sessionId: session._id };
  }
}
