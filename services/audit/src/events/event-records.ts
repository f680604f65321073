import { fromBinary } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { AdminEventSchema, LoginEventSchema } from "../../../../gen/iam/audit/v1/audit_pb.js";
import type { BusMessage } from "../../../kit/src/bus/port.js";
import type { AdminEventRecord } from "../store/admin-event-repository.js";
import type { LoginEventRecord } from "../store/login-event-repository.js";

/** Login events are kept a week when the publisher names no expiry. */
const DEFAULT_LOGIN_RETENTION_MS = 604_800_000;

/** An admin event message as the audit service stores it (and webhooks send it). */
export function adminEventRecord(m: BusMessage): AdminEventRecord {
  const e = fromBinary(AdminEventSchema, m.payload);
  return {
    _id: e.id,
    time: e.time ? timestampMs(e.time) : m.time,
    realm: e.realm,
    operationType: e.operationType,
    resourceType: e.resourceType,
    resourcePath: e.resourcePath,
    authType: e.authDetails?.type ?? "",
    authAdminId: e.authDetails?.adminId ?? "",
    authUsername: e.authDetails?.username ?? "",
    authIpAddress: e.authDetails?.ipAddress ?? "",
    representation: e.representation,
    requestId: e.requestId,
  };
}

/** A login event message as the audit service stores it (and webhooks send it). */
export function loginEventRecord(m: BusMessage): LoginEventRecord {
  const e = fromBinary(LoginEventSchema, m.payload);
  const time = e.time ? timestampMs(e.time) : m.time;
  return {
    _id: e.id,
    time,
    realm: e.realm,
    type: e.type,
    clientId: e.clientId,
    userId: e.userId,
    sessionId: e.sessionId,
    ipAddress: e.ipAddress,
    error: e.error,
    details: { ...e.details },
    expiresAt: e.expiresAt ? timestampMs(e.expiresAt) : time + DEFAULT_LOGIN_RETENTION_MS,
  };
}
