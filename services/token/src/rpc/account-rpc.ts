import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { AccountService } from "../../../../gen/iam/token/v1/account_pb.js";
import { SessionSchema } from "../../../../gen/iam/token/v1/sessions_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { AccountSelf } from "../domain/account-self.js";

/** Thin handlers: check -> domain -> convert. */
export function accountRpc(account: AccountSelf): ServiceImpl<typeof AccountService> {
  return {
    async authenticate(req) {
      return account.authenticate(req.realm, req.baseUrl, req.accessToken);
    },
    async listSessions(req) {
      const sessions = await account.sessions(req.realm, need(req.userId, "userId"));
      return {
        sessions: sessions.map((s) => create(SessionSchema, {
          id: s.id, type: s.type, userId: s.userId, username: s.username, ipAddress: s.ipAddress,
          start: timestampFromMs(s.start), lastAccess: timestampFromMs(s.lastAccess), expires: timestampFromMs(s.expires),
          clients: s.clients, scope: s.scope, ssoSessionId: s.ssoSessionId,
        })),
      };
    },
    async signOutSession(req) {
      return { type: await account.signOut(req.realm, need(req.userId, "userId"), need(req.sessionId, "sessionId"), req.ipAddress) };
    },
    async signOutAllSessions(req) {
      return { count: await account.signOutAll(req.realm, need(req.userId, "userId"), req.ipAddress) };
    },
    async listConsents(req) {
      const consents = await account.listConsents(req.realm, need(req.userId, "userId"));
      return {
        consents: consents.map((c) => ({
          clientId: c.clientId, grantedScopes: c.scopes, createdDate: BigInt(c.createdAt), lastUpdatedDate: BigInt(c.updatedAt),
        })),
      };
    },
    async revokeConsent(req) {
      await account.revokeConsent(req.realm, need(req.userId, "userId"), need(req.clientId, "clientId"), req.ipAddress);
      return {};
    },
    async recordAccountEvent(req) {
      await account.record(req.realm, need(req.userId, "userId"), req.type, req.sessionId, req.ipAddress, req.details);
      return {};
    },
  };
}

function need(v: string, field: string): string {
  if (!v) throw IamError.invalid(field, `${field} is required`);
  return v;
}
