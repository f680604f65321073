import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { GroupService, GroupSchema, type Group } from "../../../../gen/iam/directory/v1/group_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { GroupAdmin } from "../domain/group-admin.js";
import type { GroupView } from "../domain/group-view.js";
import { userToProto } from "./user-rpc.js";

/** Thin handlers: check -> domain -> convert. */
export function groupRpc(admin: GroupAdmin): ServiceImpl<typeof GroupService> {
  return {
    async createGroup(req) {
      if (!req.group) throw IamError.invalid("group", "group is required");
      const { name, description, parentId, attributes } = req.group;
      return {
        group: groupToProto(await admin.create(req.realm, {
          ...(name !== undefined ? { name } : {}),
          ...(description !== undefined ? { description } : {}),
          ...(parentId !== undefined ? { parentId } : {}),
          ...(attributes !== undefined ? { attributes } : {}),
        })),
      };
    },
    async listGroups(req) {
      const { first, max, search, exact, q } = req;
      return {
        groups: (await admin.list(req.realm, {
          ...(first !== undefined ? { first } : {}), ...(max !== undefined ? { max } : {}),
          ...(search !== undefined ? { search } : {}), ...(exact !== undefined ? { exact } : {}), ...(q !== undefined ? { q } : {}),
        })).map(groupToProto),
      };
    },
    async countGroups(req) {
      return { count: await admin.count(req.realm, req.search, req.top) };
    },
    async listGroupChildren(req) {
      const { first, max, search, exact } = req;
      return {
        groups: (await admin.children(req.realm, req.groupId, {
          ...(first !== undefined ? { first } : {}), ...(max !== undefined ? { max } : {}),
          ...(search !== undefined ? { search } : {}), ...(exact !== undefined ? { exact } : {}),
        })).map(groupToProto),
      };
    },
    async getGroup(req) {
      return { group: groupToProto(await admin.get(req.realm, req.groupId)) };
    },
    async updateGroup(req) {
      const name = req.update?.name;
      const description = req.update?.description;
      const attributes = req.update?.attributes;
      return {
        group: groupToProto(await admin.update(req.realm, req.groupId, {
          ...(name !== undefined ? { name } : {}),
          ...(description !== undefined ? { description } : {}),
          ...(attributes !== undefined ? { attributes } : {}),
        })),
      };
    },
    async deleteGroup(req) {
      return { group: groupToProto(await admin.delete(req.realm, req.groupId)) };
    },
    async listGroupMembers(req) {
      const users = await admin.members(req.realm, req.groupId, req.first ?? undefined, req.max ?? undefined);
      return { users: users.map(userToProto) };
    },
    async addUserToGroup(req) {
      return { membership: await admin.addMember(req.realm, req.userId, req.groupId) };
    },
    async removeUserFromGroup(req) {
      return { membership: await admin.removeMember(req.realm, req.userId, req.groupId) };
    },
    async listUserGroups(req) {
      return { groups: (await admin.userGroups(req.realm, req.userId)).map(groupToProto) };
    },
  };
}

export function groupToProto(g: GroupView): Group {
  return fromJson(GroupSchema, g as unknown as JsonObject);
}
