import type { ServiceImpl } from "@connectrpc/connect";
import { UserSecurityService } from "../../../../gen/iam/directory/v1/user_security_pb.js";
import type { OtpCredentials } from "../domain/otp-credentials.js";
import type { BruteForceAdmin } from "../domain/brute-force-admin.js";
import type { UserImport } from "../domain/user-import.js";
import type { AccountCredentials } from "../domain/account-credentials.js";

/** Thin handlers: check -> domain -> convert. */
export function userSecurityRpc(otp: OtpCredentials, bruteForce: BruteForceAdmin, importer: UserImport, account: AccountCredentials): ServiceImpl<typeof UserSecurityService> {
  return {
    async getMfaStatus(req) {
      return { enabled: await otp.status(req.realm, req.userId) };
    },
    async resetMfa(req) {
      await otp.reset(req.realm, req.userId);
      return {};
    },
    async listLockedUsers(req) {
      const users = await bruteForce.lockedUsers(req.realm);
      return {
        users: users.map((u) => ({
          userId: u.userId, username: u.username, failureCount: u.failureCount, lastFailure: BigInt(u.lastFailure),
          lockedUntil: BigInt(u.lockedUntil), permanent: u.permanent, temporaryLockouts: u.temporaryLockouts,
        })),
      };
    },
    async unlockUser(req) {
      await bruteForce.unlock(req.realm, req.userId);
      return {};
    },
    async importUsers(req) {
      return importer.import(req.realm, req.users);
    },
    async listCredentials(req) {
      const list = await account.list(req.realm, req.userId);
      return { credentials: list.map((c) => ({ ...c, createdDate: BigInt(c.createdDate) })) };
    },
    async changeOwnPassword(req) {
      await account.changeOwn(req.realm, req.userId, req.currentPassword, req.newPassword);
      return {};
    },
    async regenerateRecoveryCodes(req) {
      return { recoveryCodes: await account.regenerateRecoveryCodes(req.realm, req.userId, req.currentPassword) };
    },
  };
}
