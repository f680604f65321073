import { toJson } from "@bufbuild/protobuf";
import type { Request } from "express";
import {
  GroupInputSchema, GroupMembershipSchema, GroupSchema, GroupUpdateSchema, type Group, type GroupMembership,
} from "../../../gen/iam/directory/v1/group_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody } from "../http/json-input.js";
import type { RpcClients } from "../rpc-clients.js";
import { optBoolParam, optIntParam, userJson } from "./user-routes.js";
import { strParam } from "./event-routes.js";

const GROUPS = "/admin/realms/:realmName/groups";
const GROUP = `${GROUPS}/:groupId`;
const USER_GROUPS = "/admin/realms/:realmName/users/:userId/groups";

/** Groups and memberships Admin API (spec 2.5, 4.6). Methods per DESIGN 7. */
export function addGroupRoutes(table: RouteTable, rpc: RpcClients): void {
  table
    .add("POST", GROUPS, "admin", async (req) => {
      const group = parseBody(GroupInputSchema, req.body);
      const res = await rpc.groups.createGroup({ realm: realmOf(req), group });
      return { status: 201, body: groupJson(res.group) };
    })
    .add("GET", GROUPS, "admin", async (req) => {
      const res = await rpc.groups.listGroups({ realm: realmOf(req), ...groupQuery(req), ...optStr(req, "q") });
      return { status: 200, body: res.groups.map(groupJson) };
    })
    // Before GROUP, which would take "count" as a group id.
    .add("GET", `${GROUPS}/count`, "admin", async (req) => {
      const res = await rpc.groups.countGroups({ realm: realmOf(req), ...optStr(req, "search"), top: optBoolParam(req, "top") ?? false });
      return { status: 200, body: { count: res.count } };
    })
    .add("GET", `${GROUP}/children`, "admin", async (req) => {
      const res = await rpc.groups.listGroupChildren({ ...groupRef(req), ...groupQuery(req) });
      return { status: 200, body: res.groups.map(groupJson) };
    })
    .add("GET", GROUP, "admin", async (req) => {
      const res = await rpc.groups.getGroup(groupRef(req));
      return { status: 200, body: groupJson(res.group) };
    })
    .add("PUT", GROUP, "admin", async (req) => {
      const update = parseBody(GroupUpdateSchema, req.body);
      const res = await rpc.groups.updateGroup({ ...groupRef(req), update });
      return { status: 200, body: groupJson(res.group) };
    })
    .add("DELETE", GROUP, "admin", async (req) => {
      const res = await rpc.groups.deleteGroup(groupRef(req));
      return { status: 200, body: groupJson(res.group) };
    })
    .add("GET", `${GROUP}/members`, "admin", async (req) => {
      const first = optIntParam(req, "first");
      const max = optIntParam(req, "max");
      const res = await rpc.groups.listGroupMembers({
        ...groupRef(req), ...(first !== undefined ? { first } : {}), ...(max !== undefined ? { max } : {}),
      });
      return { status: 200, body: res.users.map(userJson) };
    })
    .add("GET", USER_GROUPS, "admin", async (req) => {
      const res = await rpc.groups.listUserGroups({ realm: realmOf(req), userId: String(req.params.userId) });
      return { status: 200, body: res.groups.map(groupJson) };
    })
    .add("PUT", `${USER_GROUPS}/:groupId`, "admin", async (req) => {
      const res = await rpc.groups.addUserToGroup(membershipRef(req));
      return { status: 200, body: membershipJson(res.membership) };
    })
    .add("DELETE", `${USER_GROUPS}/:groupId`, "admin", async (req) => {
      const res = await rpc.groups.removeUserFromGroup(membershipRef(req));
      return { status: 200, body: membershipJson(res.membership) };
    });
}

export function groupJson(group: Group | undefined): Record<string, unknown> {
  if (!group) return {};
  return toJson(GroupSchema, group, { alwaysEmitImplicit: true }) as Record<string, unknown>;
}

function membershipJson(m: GroupMembership | undefined): Record<string, unknown> {
  if (!m) return {};
  return toJson(GroupMembershipSchema, m, { alwaysEmitImplicit: true }) as Record<string, unknown>;
}

/** Keycloak's paging and name search of groups; absent (or empty) parameters are left out. */
function groupQuery(req: Request): { first?: number; max?: number; search?: string; exact?: boolean } {
  const first = optIntParam(req, "first");
  const max = optIntParam(req, "max");
  const exact = optBoolParam(req, "exact");
  return {
    ...(first !== undefined ? { first } : {}), ...(max !== undefined ? { max } : {}),
    ...optStr(req, "search"), ...(exact !== undefined ? { exact } : {}),
  };
}

function optStr<K extends string>(req: Request, name: K): Partial<Record<K, string>> {
  const v = strParam(req, name);
  return (v === "" ? {} : { [name]: v }) as Partial<Record<K, string>>;
}

function realmOf(req: Request): string {
  return String(req.params.realmName);
}

function groupRef(req: Request): { realm: string; groupId: string } {
  return { realm: realmOf(req), groupId: String(req.params.groupId) };
}

function membershipRef(req: Request): { realm: string; userId: string; groupId: string } {
  return { realm: realmOf(req), userId: String(req.params.userId), groupId: String(req.params.groupId) };
}
