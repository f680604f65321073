import {
  OrganizationInputSchema, OrganizationRoleSchema, OrganizationSchema,
} from "../../../gen/iam/directory/v1/organization_pb.js";
import { UserSchema } from "../../../gen/iam/directory/v1/user_pb.js";
import { FORM, arrayOf, json, noContent, ref, type Answer, type Operation, type Param } from "./operation.js";
import type { JsonSchema, ProtoSchemas } from "./proto-schema.js";

const ORGS = "/admin/realms/:realmName/organizations";
const ORG = `${ORGS}/:orgId`;
const M = `${ORG}/members`;
const str = { type: "string" };
const q = (name: string, description: string, schema: JsonSchema = str): Param => ({ name, description, schema });
const BOOL = { type: "string", enum: ["true", "false"] };
/** optIntParam (user-routes.ts): absent for the service's default; up to 9 digits. */
const INT = { type: "integer", minimum: 0, maximum: 999_999_999 };
const PAGE: Param[] = [q("first", "Index of the first result (default 0).", INT), q("max", "Largest number of results (default 10, at most 1000).", INT)];
const SEARCH = q("search", "Substring (case-insensitive) of the name or of a domain; with `exact`, the exact name or domain.");
const EXACT = q("exact", "Match `search` exactly (default false).", BOOL);
const ERROR = ref("Error");
const LOCATION = (what: string) => ({ Location: `The ${what}'s URL (absolute, from the public URL).` });
const err = (description: string): Answer => json(description, ERROR);

/** A form or a JSON object with these fields (organization-routes.ts reads both); each a string, at most 1024 characters kept. */
const fields = (properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: "object", properties, required, additionalProperties: true,
});
/** Keycloak's role mappings body: roles (`{ name }`) or role names, 1 to 100. */
const ROLE_NAMES: JsonSchema = {
  type: "array", minItems: 1, maxItems: 100,
  items: { oneOf: [str, { type: "object", required: ["name"], properties: { name: str }, additionalProperties: true }] },
};

/** Organizations, their members, invitations and roles, at Keycloak 26's paths (docs/organizations.md). */
export function organizationOperations(p: ProtoSchemas): Operation[] {
  const org = p.ref(OrganizationSchema);
  const input = p.ref(OrganizationInputSchema, "input");
  // memberJson: the user as the users API writes it, and how the membership came about.
  const member = p.extended(UserSchema, { membershipType: { enum: ["UNMANAGED", "MANAGED"] } });
  const role = p.ref(OrganizationRoleSchema);
  const op = (o: Omit<Operation, "auth" | "tag">, tag = "Organizations"): Operation => ({ auth: "admin", tag, ...o });
  const memberOp = (o: Omit<Operation, "auth" | "tag">) => op(o, "Organization members");
  const USER = { userId: "The member's user id." };
  return [
    op({ id: "createOrganization", method: "POST", path: ORGS, summary: "Create an organization",
      description: "`alias` defaults to the name and cannot change afterwards; a domain belongs to one organization of the realm.",
      body: { schema: input, required: true },
      responses: { 201: { ...json("The organization.", org), headers: LOCATION("organization") }, 409: err("The name, alias or a domain is taken.") } }),
    op({ id: "listOrganizations", method: "GET", path: ORGS, summary: "Search organizations",
      query: [SEARCH, EXACT, q("briefRepresentation", "Leave `attributes` out (default true).", BOOL), ...PAGE],
      responses: { 200: json("Organizations by name.", arrayOf(org)) } }),
    op({ id: "countOrganizations", method: "GET", path: `${ORGS}/count`, summary: "Count organizations", query: [SEARCH, EXACT],
      responses: { 200: json("How many match.", { type: "integer", minimum: 0 }) } }),
    op({ id: "listMemberOrganizations", method: "GET", path: `${ORGS}/members/:userId/organizations`, pathParams: { userId: "The user's id." },
      summary: "List the organizations a user is a member of",
      responses: { 200: json("Organizations.", arrayOf(org)) } }),
    op({ id: "getOrganization", method: "GET", path: ORG, summary: "Get an organization",
      responses: { 200: json("The organization.", org) } }),
    op({ id: "updateOrganization", method: "PUT", path: ORG, summary: "Update an organization (the fields sent)",
      description: "`domains` and `attributes`, when sent, replace the whole set; an `id` sent must be the path's; `alias` cannot change.",
      body: { schema: input, required: true },
      responses: { 200: json("The organization.", org), 409: err("The name or a domain is taken.") } }),
    op({ id: "deleteOrganization", method: "DELETE", path: ORG, summary: "Delete an organization",
      description: "Its memberships go with it; `UNMANAGED` members' accounts stay, `MANAGED` members' accounts are deleted, as Keycloak's.", responses: { 204: noContent() } }),

    op({ id: "createOrganizationRole", method: "POST", path: `${ORG}/roles`, summary: "Create an organization role",
      body: { required: true, schema: { type: "object", required: ["name"], additionalProperties: true, properties: { name: str, description: str } } },
      responses: { 201: json("The role.", role), 409: err("The organization already has a role of that name (`field`: name).") } }, "Organization roles"),
    op({ id: "listOrganizationRoles", method: "GET", path: `${ORG}/roles`, summary: "List an organization's roles",
      responses: { 200: json("Roles by name.", arrayOf(role)) } }, "Organization roles"),
    op({ id: "deleteOrganizationRole", method: "DELETE", path: `${ORG}/roles/:roleName`, summary: "Delete an organization role",
      description: "Members lose it.", responses: { 204: noContent(), 404: err("The realm, organization or role does not exist (`role_not_found`).") } }, "Organization roles"),

    memberOp({ id: "addOrganizationMember", method: "POST", path: M, summary: "Add a user as a member",
      description: "The body is the user's id as a JSON string (`\"8f1c...\"`), as Keycloak's.",
      body: { required: true, schema: { ...str, minLength: 1, maxLength: 255, description: "The user's id." } },
      responses: {
        201: { ...json("The member.", member), headers: LOCATION("member") },
        400: err("The body is not a user id as a JSON string, or the user does not exist (`user_not_found`)."),
        409: err("The user is already a member."),
      } }),
    memberOp({ id: "inviteOrganizationUser", method: "POST", path: `${M}/invite-user`, summary: "Email an invitation to join",
      description: "The link opens `/realms/{realmName}/login-actions/organization-invitation`, which registers an account when none holds the email.",
      body: { required: true, media: [FORM, "application/json"], schema: fields({ email: str, firstName: str, lastName: str }, ["email"]) },
      responses: {
        204: noContent("Sent."),
        400: err("`email` is missing or not valid, the organization is disabled, or the realm has no SMTP server (`smtp_not_configured`)."),
        409: err("A member already has the email."),
        502: err("The realm's SMTP server refused or failed (`smtp_error`)."),
      } }),
    memberOp({ id: "inviteExistingOrganizationUser", method: "POST", path: `${M}/invite-existing-user`, summary: "Email an existing user an invitation to join",
      body: { required: true, media: [FORM, "application/json"], schema: fields({ id: { ...str, description: "The user's id." } }, ["id"]) },
      responses: {
        204: noContent("Sent."),
        400: err("No such user (`user_not_found`), the user has no email (`user_has_no_email`), the organization is disabled, or no SMTP server."),
        409: err("The user is already a member."),
        502: err("The realm's SMTP server refused or failed (`smtp_error`)."),
      } }),
    memberOp({ id: "listOrganizationMembers", method: "GET", path: M, summary: "Search an organization's members",
      query: [
        q("search", "Substring (case-insensitive) of the username, email, first or last name."),
        q("membershipType", "Only the members of this type: `MANAGED` (created by the organization's identity provider) or `UNMANAGED`.",
          { type: "string", enum: ["MANAGED", "UNMANAGED"] }),
        ...PAGE,
      ],
      responses: { 200: json("Members by username.", arrayOf(member)), 400: err("`membershipType` is neither `MANAGED` nor `UNMANAGED`.") } }),
    memberOp({ id: "countOrganizationMembers", method: "GET", path: `${M}/count`, summary: "Count an organization's members",
      responses: { 200: json("How many members.", { type: "integer", minimum: 0 }) } }),
    memberOp({ id: "getOrganizationMember", method: "GET", path: `${M}/:userId`, pathParams: USER, summary: "Get a member",
      responses: { 200: json("The member.", member), 404: err("The realm or organization does not exist, or the user is not a member (`member_not_found`).") } }),
    memberOp({ id: "removeOrganizationMember", method: "DELETE", path: `${M}/:userId`, pathParams: USER, summary: "Remove a member",
      description: "An `UNMANAGED` member's account stays; a `MANAGED` member's account is deleted with the membership, as Keycloak's.",
      responses: { 204: noContent(), 404: err("The realm or organization does not exist, or the user is not a member (`member_not_found`).") } }),
    memberOp({ id: "setOrganizationMembershipType", method: "PUT", path: `${M}/:userId/membership-type`, pathParams: USER, summary: "Change a member's membership type",
      description: "Keycloak 26.8's: the body is `\"MANAGED\"` or `\"UNMANAGED\"`; the same type changes nothing. A `MANAGED` member's account is deleted with its membership.",
      body: { required: true, schema: { type: "string", enum: ["MANAGED", "UNMANAGED"] } },
      responses: { 204: noContent(), 400: err("The body is not a JSON string of a membership type."), 404: err("The realm or organization does not exist, or the user is not a member (`member_not_found`).") } }),
    memberOp({ id: "listOrganizationMemberRoles", method: "GET", path: `${M}/:userId/roles`, pathParams: USER, summary: "List a member's organization roles",
      responses: { 200: json("Roles by name.", arrayOf(role)), 404: err("The user is not a member (`member_not_found`).") } }),
    memberOp({ id: "grantOrganizationMemberRoles", method: "POST", path: `${M}/:userId/roles`, pathParams: USER, summary: "Grant organization roles to a member",
      body: { required: true, schema: ROLE_NAMES },
      responses: { 204: noContent(), 404: err("The user is not a member (`member_not_found`), or a role does not exist (`role_not_found`).") } }),
    memberOp({ id: "revokeOrganizationMemberRoles", method: "DELETE", path: `${M}/:userId/roles`, pathParams: USER, summary: "Revoke organization roles from a member",
      body: { required: true, schema: ROLE_NAMES },
      responses: { 204: noContent(), 404: err("The user is not a member (`member_not_found`), or a role does not exist (`role_not_found`).") } }),
  ];
}
