import { create } from "@bufbuild/protobuf";
import { timestampFromMs, timestampMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { AdminEventSchema, LoginEventSchema, type AuditService } from "../../../../gen/iam/audit/v1/audit_pb.js";
import type { Bus } from "../../../kit/src/bus/port.js";
import type { Store } from "../../../kit/src/store/port.js";
import { checkHealth } from "../../../kit/src/health.js";
import type { AdminEventRecord, AdminEventRepository } from "../store/admin-event-repository.js";
import type { LoginEventRecord, LoginEventRepository } from "../store/login-event-repository.js";
import { pageOf } from "../../../kit/src/page.js";
import { dateRange } from "../domain/event-queries.js";

export function auditRpc(adminEvents: AdminEventRepository, loginEvents: LoginEventRepository, store: Store, bus: Bus): ServiceImpl<typeof AuditService> {
  return {
    async health() {
      return { health: await checkHealth("audit", store, bus) };
    },
    async queryAdminEvents(req) {
      const dateFrom = req.dateFrom ? timestampMs(req.dateFrom) : undefined;
      const dateTo = req.dateTo ? timestampMs(req.dateTo) : undefined;
      dateRange(dateFrom, dateTo);
      const events = await adminEvents.query({
        realm: req.realm,
        ...(req.operationType ? { operationType: req.operationType } : {}),
        ...(req.resourceType ? { resourceType: req.resourceType } : {}),
        ...(dateFrom !== undefined ? { dateFrom } : {}),
        ...(dateTo !== undefined ? { dateTo } : {}),
        ...pageOf(req.first, req.max),
      });
      return { events: events.map(toProto) };
    },
    async queryLoginEvents(req) {
      const dateFrom = req.dateFrom ? timestampMs(req.dateFrom) : undefined;
      const dateTo = req.dateTo ? timestampMs(req.dateTo) : undefined;
      dateRange(dateFrom, dateTo);
      const events = await loginEvents.query({
        realm: req.realm,
        ...(req.type ? { type: req.type } : {}),
        ...(req.userId ? { userId: req.userId } : {}),
        ...(req.clientId ? { clientId: req.clientId } : {}),
        ...(dateFrom !== undefined ? { dateFrom } : {}),
        ...(dateTo !== undefined ? { dateTo } : {}),
        ...pageOf(req.first, req.max),
      });
      return { events: events.map(loginToProto) };
    },
    async clearLoginEvents(req) {
      return { deleted: await loginEvents.clear(req.realm) };
    },
  };
}

function loginToProto(r: LoginEventRecord) {
  return create(LoginEventSchema, {
    id: r._id,
    time: timestampFromMs(r.time),
    realm: r.realm,
    type: r.type,
    clientId: r.clientId,
    userId: r.userId,
    sessionId: r.sessionId,
    ipAddress: r.ipAddress,
    error: r.error,
    details: r.details,
    expiresAt: timestampFromMs(r.expiresAt),
  });
}

function toProto(r: AdminEventRecord) {
  return create(AdminEventSchema, {
    id: r._id,
    time: timestampFromMs(r.time),
    realm: r.realm,
    operationType: r.operationType,
    resourceType: r.resourceType,
    resourcePath: r.resourcePath,
    authDetails: { type: r.authType, adminId: r.authAdminId, username: r.authUsername, ipAddress: r.authIpAddress },
    representation: r.representation,
    requestId: r.requestId,
  });
}
