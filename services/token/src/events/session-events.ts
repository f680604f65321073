import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { SsoSessionEndedSchema } from "../../../../gen/iam/token/v1/events_pb.js";
import type { OutgoingEvent } from "../../../kit/src/bus/outbox.js";
import { requestIdOption } from "../../../kit/src/context.js";
import type { SsoSessionRecord } from "../domain/sso-session.js";

export const SSO_SESSION_ENDED = "iam.token.v1.sso-session.ended";

export type SessionEndReason = "logout" | "admin" | "user_deleted" | "user_disabled" | "password_changed" | "expired";

/** `sso-session.ended`, built for the outbox (SsoSessions stages it before the session goes); its consumer revokes the session's tokens and notifies clients. */
export function ssoSessionEndedEvent(
  s: Pick<SsoSessionRecord, "_id" | "realmId" | "realmName" | "userId" | "clientIds">, reason: SessionEndReason, now: number, id: string,
): OutgoingEvent {
  return {
    subject: SSO_SESSION_ENDED,
    payload: toBinary(SsoSessionEndedSchema, create(SsoSessionEndedSchema, {
      realmId: s.realmId, realmName: s.realmName, sessionId: s._id, userId: s.userId,
      clientIds: s.clientIds, reason, endedAt: timestampFromMs(now),
    })),
    id, ...requestIdOption(),
  };
}
