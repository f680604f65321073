import type { ServiceImpl } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromMs, type Timestamp } from "@bufbuild/protobuf/wkt";
import { AdminAccountSchema, type AdminAccountService } from "../../../../gen/iam/directory/v1/admin_account_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { AdminAccounts } from "../domain/admin-accounts.js";
import type { AdminSessions } from "../domain/admin-sessions.js";
import type { AdminAccountRecord } from "../store/admin-account-repository.js";

export function adminAccountRpc(accounts: AdminAccounts, sessions: AdminSessions): ServiceImpl<typeof AdminAccountService> {
  return {
    async authenticateAdmin(req) {
      const login = await accounts.authenticate(req.username, req.password, req.ipAddress);
      return "account" in login ? { admin: toProto(login.account) } : { retryAfterSeconds: login.retryAfterSeconds };
    },
    async getAdmin(req) {
      return { admin: toProto(await accounts.get(req.id)) };
    },
    async startAdminSession(req) {
      return sessions.start(req.adminId, expiryOf(req.expiresAt));
    },
    async renewAdminSession(req) {
      const renewed = await sessions.renew(req.sessionId, req.refreshId, expiryOf(req.expiresAt));
      return { refreshId: renewed.refreshId, admin: toProto(renewed.admin) };
    },
    async endAdminSession(req) {
      return { ended: await sessions.end(req.sessionId) };
    },
    async checkAdminSession(req) {
      return { active: await sessions.active(req.sessionId) };
    },
  };
}

function expiryOf(t: Timestamp | undefined): number {
  if (!t) throw IamError.invalid("expires_at", "expires_at is required");
  return timestampDate(t).getTime();
}

function toProto(a: AdminAccountRecord) {
  return create(AdminAccountSchema, { id: a._id, username: a.username, createdAt: timestampFromMs(a.createdAt) });
}
