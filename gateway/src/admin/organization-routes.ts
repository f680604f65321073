import { toJson } from "@bufbuild/protobuf";
import express, { type Request, type RequestHandler } from "express";
import {
  OrganizationInputSchema, OrganizationSchema, type Member, type Organization,
} from "../../../gen/iam/directory/v1/organization_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody } from "../http/json-input.js";
import { jsonOnly } from "../http/json-content-type.js";
import { GatewayError } from "../http/rpc-errors.js";
import type { RpcClients } from "../rpc-clients.js";
import { strParam } from "./event-routes.js";
import { optIntParam, userJson } from "./user-routes.js";

const ORGS = "/admin/realms/:realmName/organizations";
const ORG = `${ORGS}/:orgId`;
export const ORG_MEMBERS_PATH = `${ORG}/members`;
const ORG_MEMBERSHIP_TYPE_PATH = `${ORG_MEMBERS_PATH}/:userId/membership-type`;
export const ORG_INVITE_PATH = `${ORG}/members/invite-user`;
export const ORG_INVITE_EXISTING_PATH = `${ORG}/members/invite-existing-user`;

/**
 * The body parsers of the organization paths that take more than a JSON object, as Keycloak's:
 * adding a member takes the user id as a JSON string (RFC 8259 allows any value at the top), and
 * the invitations take a form (`email`, `firstName`, `lastName`; `id`) or the same fields as JSON.
 */
export function organizationBodyParser(path: string): RequestHandler | undefined {
  // Keycloak's bodies here are bare JSON strings: a user id, a membership type.
  if (path === ORG_MEMBERS_PATH || path === ORG_MEMBERSHIP_TYPE_PATH) return jsonOnly(express.json({ limit: "16kb", strict: false }));
  if (path === ORG_INVITE_PATH || path === ORG_INVITE_EXISTING_PATH) {
    const form = express.urlencoded({ extended: false, limit: "16kb" });
    const json = jsonOnly(express.json({ limit: "16kb" }));
    return (req, res, next) => (req.is("application/x-www-form-urlencoded") ? form(req, res, next) : json(req, res, next));
  }
  return undefined;
}

/** Organizations Admin API (spec 1.13) at Keycloak 26's paths; statuses as Keycloak's. */
export function addOrganizationRoutes(table: RouteTable, rpc: RpcClients, publicUrl: string): void {
  table
    .add("POST", ORGS, "admin", async (req) => {
      const organization = parseBody(OrganizationInputSchema, req.body);
      const res = await rpc.organizations.createOrganization({ realm: realmOf(req), organization });
      const body = organizationJson(res.organization);
      return { status: 201, body, headers: { Location: `${publicUrl}/admin/realms/${encodeURIComponent(realmOf(req))}/organizations/${String(body.id)}` } };
    })
    .add("GET", ORGS, "admin", async (req) => {
      const res = await rpc.organizations.listOrganizations({ realm: realmOf(req), ...listQuery(req) });
      return { status: 200, body: res.organizations.map(organizationJson) };
    })
    .add("GET", `${ORGS}/count`, "admin", async (req) => {
      const res = await rpc.organizations.countOrganizations({ realm: realmOf(req), search: strParam(req, "search"), exact: boolParam(req, "exact") });
      return { status: 200, body: Number(res.count) };
    })
    .add("GET", `${ORGS}/members/:userId/organizations`, "admin", async (req) => {
      const res = await rpc.organizations.listMemberOrganizations({ realm: realmOf(req), userId: String(req.params.userId) });
      return { status: 200, body: res.organizations.map(organizationJson) };
    })
    .add("POST", `${ORG}/roles`, "admin", async (req) => {
      const b = bodyFields(req.body);
      const res = await rpc.organizations.createOrganizationRole({ ...orgRef(req), name: field(b, "name"), description: field(b, "description") });
      return { status: 201, body: res.role ? { name: res.role.name, description: res.role.description } : {} };
    })
    .add("GET", `${ORG}/roles`, "admin", async (req) => {
      const res = await rpc.organizations.listOrganizationRoles(orgRef(req));
      return { status: 200, body: res.roles.map((r) => ({ name: r.name, description: r.description })) };
    })
    .add("DELETE", `${ORG}/roles/:roleName`, "admin", async (req) => {
      await rpc.organizations.deleteOrganizationRole({ ...orgRef(req), name: String(req.params.roleName) });
      return { status: 204 };
    })
    .add("GET", ORG, "admin", async (req) => {
      const res = await rpc.organizations.getOrganization(orgRef(req));
      return { status: 200, body: organizationJson(res.organization) };
    })
    .add("PUT", ORG, "admin", async (req) => {
      const organization = parseBody(OrganizationInputSchema, req.body);
      const res = await rpc.organizations.updateOrganization({ ...orgRef(req), organization });
      return { status: 200, body: organizationJson(res.organization) };
    })
    .add("DELETE", ORG, "admin", async (req) => {
      await rpc.organizations.deleteOrganization(orgRef(req));
      return { status: 204 };
    })
    .add("POST", ORG_MEMBERS_PATH, "admin", async (req) => {
      const res = await rpc.organizations.addMember({ ...orgRef(req), userId: userIdBody(req.body) });
      const body = memberJson(res.member);
      const location = `${publicUrl}/admin/realms/${encodeURIComponent(realmOf(req))}/organizations/${encodeURIComponent(String(req.params.orgId))}/members/${String(body.id)}`;
      return { status: 201, body, headers: { Location: location } };
    })
    // Before "members/:userId", whose other methods would answer these paths with a 405.
    .add("POST", ORG_INVITE_PATH, "admin", async (req) => {
      const b = bodyFields(req.body);
      await rpc.organizations.inviteUser({ ...orgRef(req), email: field(b, "email"), firstName: field(b, "firstName"), lastName: field(b, "lastName") });
      return { status: 204 };
    })
    .add("POST", ORG_INVITE_EXISTING_PATH, "admin", async (req) => {
      await rpc.organizations.inviteExistingUser({ ...orgRef(req), userId: field(bodyFields(req.body), "id") });
      return { status: 204 };
    })
    .add("GET", ORG_MEMBERS_PATH, "admin", async (req) => {
      const first = optIntParam(req, "first");
      const max = optIntParam(req, "max");
      const res = await rpc.organizations.listMembers({
        ...orgRef(req), search: strParam(req, "search"), membershipType: strParam(req, "membershipType"),
        ...(first !== undefined ? { first } : {}), ...(max !== undefined ? { max } : {}),
      });
      return { status: 200, body: res.members.map(memberJson) };
    })
    .add("GET", `${ORG_MEMBERS_PATH}/count`, "admin", async (req) => {
      const res = await rpc.organizations.countMembers(orgRef(req));
      return { status: 200, body: Number(res.count) };
    })
    .add("GET", `${ORG_MEMBERS_PATH}/:userId`, "admin", async (req) => {
      const res = await rpc.organizations.getMember({ ...orgRef(req), userId: String(req.params.userId) });
      return { status: 200, body: memberJson(res.member) };
    })
    .add("GET", `${ORG_MEMBERS_PATH}/:userId/roles`, "admin", async (req) => {
      const res = await rpc.organizations.listMemberRoles({ ...orgRef(req), userId: String(req.params.userId) });
      return { status: 200, body: res.roles.map((r) => ({ name: r.name, description: r.description })) };
    })
    .add("POST", `${ORG_MEMBERS_PATH}/:userId/roles`, "admin", async (req) => {
      await rpc.organizations.changeMemberRoles({ ...orgRef(req), userId: String(req.params.userId), roleNames: roleNamesBody(req.body) });
      return { status: 204 };
    })
    .add("DELETE", `${ORG_MEMBERS_PATH}/:userId/roles`, "admin", async (req) => {
      await rpc.organizations.changeMemberRoles({ ...orgRef(req), userId: String(req.params.userId), roleNames: roleNamesBody(req.body), remove: true });
      return { status: 204 };
    })
    // Keycloak 26.8: the body is the type as a JSON string, "MANAGED" or "UNMANAGED".
    .add("PUT", ORG_MEMBERSHIP_TYPE_PATH, "admin", async (req) => {
      if (typeof req.body !== "string") throw new GatewayError(400, "invalid_request", "the body must be the membership type, as a JSON string", "membershipType");
      await rpc.organizations.setMembershipType({ ...orgRef(req), userId: String(req.params.userId), membershipType: req.body });
      return { status: 204 };
    })
    .add("DELETE", `${ORG_MEMBERS_PATH}/:userId`, "admin", async (req) => {
      await rpc.organizations.removeMember({ ...orgRef(req), userId: String(req.params.userId) });
      return { status: 204 };
    });
}

/** Keycloak's body for adding a member: the user id as a JSON string (a bare id is also taken, as Keycloak does). */
function userIdBody(body: unknown): string {
  if (typeof body === "string" && body.length > 0 && body.length <= 255) return body;
  throw new GatewayError(400, "invalid_request", "the body must be the id of a user, as a JSON string");
}

/** Role mappings' body, as Keycloak's: an array of roles (`[{ "name": "admin" }]`) or of names. */
function roleNamesBody(body: unknown): string[] {
  const bad = () => new GatewayError(400, "invalid_request", "the body must be an array of roles ({ name }) or of role names");
  if (!Array.isArray(body) || body.length === 0 || body.length > 100) throw bad();
  return body.map((r: unknown) => {
    const name = typeof r === "string" ? r : r && typeof r === "object" && typeof (r as { name?: unknown }).name === "string" ? (r as { name: string }).name : undefined;
    if (name === undefined) throw bad();
    return name;
  });
}

/** A form or a JSON object; no body reads as no fields (the domain names what is missing). */
function bodyFields(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== "object" || Array.isArray(body)) throw new GatewayError(400, "invalid_request", "request body must be a form or a JSON object");
  return body as Record<string, unknown>;
}

function field(b: Record<string, unknown>, name: string): string {
  const v = b[name];
  if (v === undefined || v === null) return "";
  if (typeof v !== "string") throw new GatewayError(400, "invalid_field", `${name} must be a string`, name);
  return v.slice(0, 1024);
}

function listQuery(req: Request): { search: string; exact: boolean; brief: boolean; first?: number; max?: number } {
  const first = optIntParam(req, "first");
  const max = optIntParam(req, "max");
  // Keycloak's briefRepresentation (default true) leaves attributes out of a list.
  const brief = strParam(req, "briefRepresentation") === "" ? true : boolParam(req, "briefRepresentation");
  return {
    search: strParam(req, "search"), exact: boolParam(req, "exact"), brief,
    ...(first !== undefined ? { first } : {}), ...(max !== undefined ? { max } : {}),
  };
}

function boolParam(req: Request, name: string): boolean {
  const v = strParam(req, name);
  if (v === "" || v === "false") return false;
  if (v === "true") return true;
  throw new GatewayError(400, "invalid_request", `${name} must be true or false`, name);
}

export function organizationJson(o: Organization | undefined): Record<string, unknown> {
  if (!o) return {};
  return toJson(OrganizationSchema, o, { alwaysEmitImplicit: true }) as Record<string, unknown>;
}

function memberJson(m: Member | undefined): Record<string, unknown> {
  if (!m) return {};
  return { ...userJson(m.user), membershipType: m.membershipType };
}

function realmOf(req: Request): string {
  return String(req.params.realmName);
}

function orgRef(req: Request): { realm: string; organizationId: string } {
  return { realm: realmOf(req), organizationId: String(req.params.orgId) };
}
