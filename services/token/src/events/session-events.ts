import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { SsoSessionEndedSchema } from "../../../../gen/iam/token/v1/events_pb.js";
import type { Bus } from "../../../kit/src/bus/port.js";
import { requestIdOption } from "../../../kit/src/context.js";
import type { SsoSessionRecord } from "../domain/sso-session.js";

export const SSO_SESSION_ENDED = "iam.token.v1.sso-session.ended";

export type SessionEndReason = "logout" | "admin" | "user_deleted" | "user_disabled" | "password_changed" | "expired";

/** Announces an ended SSO session; the token service's consumer revokes its tokens and notifies clients. */
export async function publishSsoSessionEnded(bus: Bus, s: SsoSessionRecord, reason: SessionEndReason, now: number): Promise<void> {
  await bus.publish(SSO_SESSION_ENDED, toBinary(SsoSessionEndedSchema, create(SsoSessionEndedSchema, {
    realmId: s.realmId, realmName: s.realmName, sessionId: s._id, userId: s.userId,
    clientIds: s.clientIds, reason, endedAt: timestampFromMs(now),
  })), requestIdOption());
}
