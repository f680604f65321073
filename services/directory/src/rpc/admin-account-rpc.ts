import type { ServiceImpl } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromMs, type Timestamp } from "@bufbuild/protobuf/wkt";
import { AdminAccountSchema, RealmAccessSchema, type AdminAccountService, type RealmAccess } from "../../../../gen/iam/directory/v1/admin_account_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { AdminAccounts } from "../domain/admin-accounts.js";
import type { AdminSessions } from "../domain/admin-sessions.js";
import { isServerAdmin, type AdminAccountRecord } from "../store/admin-account-repository.js";

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
      const admin = await sessions.activeAdmin(req.sessionId);
      return admin ? { active: true, admin: toProto(admin) } : { active: false };
    },
    async listAdmins(req) {
      return { admins: (await accounts.list(req.search, req.first, req.max || 100)).map(toProto) };
    },
    async createAdmin(req) {
      const admin = await accounts.create({ username: req.username, password: req.password, serverAdmin: req.serverAdmin, realmAccess: grantsOf(req.realmAccess) });
      return { admin: toProto(admin) };
    },
    async updateAdmin(req) {
      const admin = await accounts.update(req.id, req.callerId, {
        ...(req.password !== undefined ? { password: req.password } : {}),
        ...(req.serverAdmin !== undefined ? { serverAdmin: req.serverAdmin } : {}),
        ...(req.setRealmAccess ? { realmAccess: grantsOf(req.realmAccess) } : {}),
      });
      return { admin: toProto(admin) };
    },
    async deleteAdmin(req) {
      await accounts.delete(req.id, req.callerId);
      return {};
    },
  };
}

function expiryOf(t: Timestamp | undefined): number {
  if (!t) throw IamError.invalid("expires_at", "expires_at is required");
  return timestampDate(t).getTime();
}

function grantsOf(list: RealmAccess[]): { realm: string; roles: string[] }[] {
  return list.map((g) => ({ realm: g.realm, roles: [...g.roles] }));
}

function toProto(a: AdminAccountRecord) {
  return create(AdminAccountSchema, {
    id: a._id, username: a.username, createdAt: timestampFromMs(a.createdAt), serverAdmin: isServerAdmin(a),
    realmAccess: (a.realmAccess ?? []).map((g) => create(RealmAccessSchema, { realm: g.realm, roles: g.roles })),
  });
}
