import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { UserService, UserSchema, type User, type UserInput, type UserUpdate } from "../../../../gen/iam/directory/v1/user_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { UserAdmin } from "../domain/user-admin.js";
import type { UserCredentials } from "../domain/user-credentials.js";
import type { UserMail } from "../domain/user-mail.js";
import type { OwnProfile } from "../domain/own-profile.js";
import type { ExecuteActions } from "../domain/execute-actions.js";
import { userView, type UserCreateInput, type UserRecord, type UserUpdateInput } from "../domain/user.js";

/** Thin handlers: check -> domain -> convert. */
export function userRpc(admin: UserAdmin, credentials: UserCredentials, mail: UserMail, own: OwnProfile, actions: ExecuteActions): ServiceImpl<typeof UserService> {
  return {
    async createUser(req) {
      if (!req.user) throw IamError.invalid("user", "user is required");
      return { user: userToProto((await admin.create(req.realm, createInput(req.user))).user) };
    },
    async listUsers(req) {
      const page = await admin.list(req.realm, {
        ...(req.skip !== undefined ? { skip: req.skip } : {}),
        ...(req.limit !== undefined ? { limit: req.limit } : {}),
        search: req.search, username: req.username, email: req.email,
        ...(req.enabled !== undefined ? { enabled: req.enabled } : {}),
      });
      return { total: page.total, users: page.users.map(userToProto) };
    },
    async getUser(req) {
      return { user: userToProto(await admin.get(req.realm, req.userId)) };
    },
    async updateUser(req) {
      return { user: userToProto(await admin.update(req.realm, req.userId, updateInput(req.update))) };
    },
    async deleteUser(req) {
      await admin.delete(req.realm, req.userId);
      return {};
    },
    async resetPassword(req) {
      await credentials.reset(req.realm, req.userId, req.password, req.temporary ?? false);
      return {};
    },
    async sendVerificationEmail(req) {
      return { message: await mail.sendVerification(req.realm, req.userId) };
    },
    async executeActionsEmail(req) {
      const email = await actions.send(req.realm, req.userId, {
        actions: req.actions, clientId: req.clientId, redirectUri: req.redirectUri, ...(req.lifespan !== undefined ? { lifespan: req.lifespan } : {}),
      });
      return { email };
    },
    async sendTestEmail(req) {
      return { message: await mail.sendTest(req.realm, req.to) };
    },
    async getOwnProfile(req) {
      const { user, usernameEditable } = await own.read(req.realm, req.userId);
      return { user: userToProto(user), usernameEditable };
    },
    async updateOwnProfile(req) {
      const { before, after } = await own.update(req.realm, req.userId, definedOnly({
        username: req.username, email: req.email, firstName: req.firstName, lastName: req.lastName,
      }), req.completeUpdateProfile);
      return { user: userToProto(after), previousUsername: before.username, previousEmail: before.email };
    },
  };
}

export function userToProto(u: UserRecord): User {
  return fromJson(UserSchema, userView(u) as unknown as JsonObject);
}

function createInput(m: UserInput): UserCreateInput {
  const { $typeName: _t, requiredActions, ...fields } = m;
  // A repeated field has no presence: on create an empty list and none are the same.
  return { ...definedOnly(fields), ...(requiredActions.length ? { requiredActions } : {}) };
}

function updateInput(m: UserUpdate | undefined): UserUpdateInput {
  if (!m) return {};
  const { $typeName: _t, requiredActions, requiredActionsPresent, ...fields } = m;
  return { ...definedOnly(fields), ...(requiredActionsPresent ? { requiredActions } : {}) };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
