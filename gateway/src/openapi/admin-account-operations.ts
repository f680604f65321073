import { AdminAccountSchema, CreateAdminRequestSchema, UpdateAdminRequestSchema } from "../../../gen/iam/directory/v1/admin_account_pb.js";
import { ADMIN_ROLES } from "../../../services/kit/src/validation/admin-roles.js";
import { arrayOf, json, noContent, PAGE, ref, type Operation } from "./operation.js";
import type { ProtoSchemas } from "./proto-schema.js";

const A = "/admin/admins/:adminId";
const TAG = "Administrators";
const ROLES = `Roles in a realm (Keycloak's realm-management roles): ${ADMIN_ROLES.map((r) => `\`${r}\``).join(", ")}; \`manage-x\` includes \`view-x\` and \`realm-admin\` every role.`;

/** The administrators (docs/security.md, "Administrators"): every operation needs a server admin. */
export function adminAccountOperations(p: ProtoSchemas): Operation[] {
  const admin = p.ref(AdminAccountSchema);
  const notLast = json("`last_server_admin`: the last server admin cannot be removed or demoted; `own_role` / `own_account`: not one's own.", ref("Error"));
  return [
    { id: "listAdmins", method: "GET", path: "/admin/admins", auth: "admin", tag: TAG, summary: "List administrators by username",
      query: [{ name: "search", description: "A case-insensitive part of the username." }, ...PAGE],
      responses: { 200: json("Administrators (never their passwords).", arrayOf(admin)) } },
    { id: "createAdmin", method: "POST", path: "/admin/admins", auth: "admin", tag: TAG, summary: "Create an administrator",
      description: `A server admin (\`serverAdmin: true\`) does everything; any other admin only what \`realmAccess\` grants. ${ROLES} A username is 1-64 lowercase letters, digits, \`.\`, \`_\`, \`@\` or \`-\`; a password at least 12 characters.`,
      body: { schema: p.ref(CreateAdminRequestSchema, "input"), required: true },
      responses: { 201: json("The administrator.", admin), 409: json("`admin_exists`: the username is taken.", ref("Error")) } },
    { id: "getAdmin", method: "GET", path: A, auth: "admin", tag: TAG, summary: "Get an administrator",
      pathParams: { adminId: "The administrator's id." }, responses: { 200: json("The administrator.", admin) } },
    { id: "updateAdmin", method: "PUT", path: A, auth: "admin", tag: TAG, summary: "Change an administrator's password or roles",
      description: `Partial: only the fields sent change; \`realmAccess\` replaces the whole list. ${ROLES} New roles apply to the admin's tokens already issued (through another gateway replica within 5 seconds); a new password ends its sign-ins.`,
      pathParams: { adminId: "The administrator's id." },
      body: { schema: p.ref(UpdateAdminRequestSchema, "input"), required: true },
      responses: { 200: json("The administrator.", admin), 409: notLast } },
    { id: "deleteAdmin", method: "DELETE", path: A, auth: "admin", tag: TAG, summary: "Delete an administrator and end its sign-ins",
      pathParams: { adminId: "The administrator's id." }, responses: { 204: noContent(), 409: notLast } },
  ];
}
