import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { SessionAdminService, SessionSchema, type Session } from "../../../../gen/iam/token/v1/sessions_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import { pageOf } from "../../../kit/src/page.js";
import type { SessionAdmin, SessionView } from "../domain/session-admin.js";

/** Thin handlers: check -> domain -> convert. */
export function sessionAdminRpc(admin: SessionAdmin): ServiceImpl<typeof SessionAdminService> {
  return {
    async listRealmSessions(req) {
      return { sessions: (await admin.listRealm(req.realm, pageOf(req.first, req.max))).map(toSession) };
    },
    async listUserSessions(req) {
      return { sessions: (await admin.listUser(req.realm, need(req.userId, "userId"), pageOf(req.first, req.max))).map(toSession) };
    },
    async revokeSession(req) {
      const sessionId = need(req.sessionId, "sessionId");
      const { type } = await admin.revoke(req.realm, sessionId, req.type);
      return { revoked: true, sessionId, type };
    },
    async revokeUserSessions(req) {
      return { count: await admin.revokeUser(req.realm, need(req.userId, "userId")) };
    },
    async listOfflineSessions(req) {
      return { sessions: (await admin.listOffline(req.realm, need(req.userId, "userId"), pageOf(req.first, req.max))).map(toSession) };
    },
    async revokeOfflineSession(req) {
      await admin.revokeOffline(req.realm, need(req.userId, "userId"), need(req.tokenId, "tokenId"));
      return {};
    },
  };
}

function need(v: string, field: string): string {
  if (!v) throw IamError.invalid(field, `${field} is required`);
  return v;
}

function toSession(s: SessionView): Session {
  return create(SessionSchema, {
    id: s.id, type: s.type, userId: s.userId, username: s.username, ipAddress: s.ipAddress,
    start: timestampFromMs(s.start), lastAccess: timestampFromMs(s.lastAccess), expires: timestampFromMs(s.expires),
    clients: s.clients, scope: s.scope, ssoSessionId: s.ssoSessionId, rememberMe: s.rememberMe ?? false,
  });
}
