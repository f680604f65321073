import type { ServiceImpl } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { AdminAccountSchema, type AdminAccountService } from "../../../../gen/iam/directory/v1/admin_account_pb.js";
import type { AdminAccounts } from "../domain/admin-accounts.js";
import type { AdminAccountRecord } from "../store/admin-account-repository.js";

export function adminAccountRpc(accounts: AdminAccounts): ServiceImpl<typeof AdminAccountService> {
  return {
    async authenticateAdmin(req) {
      const login = await accounts.authenticate(req.username, req.password, req.ipAddress);
      return "account" in login ? { admin: toProto(login.account) } : { retryAfterSeconds: login.retryAfterSeconds };
    },
    async getAdmin(req) {
      return { admin: toProto(await accounts.get(req.id)) };
    },
  };
}

function toProto(a: AdminAccountRecord) {
  return create(AdminAccountSchema, { id: a._id, username: a.username, createdAt: timestampFromMs(a.createdAt) });
}
