import { USER_REQUIRED_ACTIONS } from "../../../services/kit/src/validation/required-actions.js";
import { AdminEventSchema, LoginEventSchema } from "../../../gen/iam/audit/v1/audit_pb.js";
import { GroupInputSchema, GroupMembershipSchema, GroupSchema, GroupUpdateSchema } from "../../../gen/iam/directory/v1/group_pb.js";
import { RealmInputSchema, RealmSchema, RealmUpdateSchema } from "../../../gen/iam/directory/v1/realm_pb.js";
import { ResetPasswordRequestSchema, UserInputSchema, UserSchema, UserUpdateSchema } from "../../../gen/iam/directory/v1/user_pb.js";
import { SessionSchema } from "../../../gen/iam/token/v1/sessions_pb.js";
import { JwkSchema, RotateKeysRequestSchema } from "../../../gen/iam/token/v1/token_pb.js";
import { PAGE, arrayOf, json, noContent, ref, type Operation, type Param } from "./operation.js";
import type { JsonSchema, ProtoSchemas } from "./proto-schema.js";

const R = "/admin/realms/:realmName";
const U = `${R}/users/:userId`;
const G = `${R}/groups/:groupId`;
const q = (name: string, description: string, schema: JsonSchema = { type: "string" }): Param => ({ name, description, schema });
const GROUP_SEARCH: Param = { name: "search", description: "Groups whose name contains it (case-insensitive).", schema: { type: "string", maxLength: 255 } };
const GROUP_EXACT: Param = { name: "exact", description: "`search` is the whole name, case-sensitive (default false).", schema: { type: "boolean" } };
const DATE = { type: "string", description: "ISO 8601 date (the whole day) or date-time." };

/** Realms, their transfer, events and keys; users, their security and sessions; groups (spec 4.1, 4.2, 4.6, 4.8, 4.13). */
export function realmUserOperations(p: ProtoSchemas): Operation[] {
  const realm = p.ref(RealmSchema);
  const user = p.ref(UserSchema);
  const group = p.ref(GroupSchema);
  const session = p.ref(SessionSchema, "sparse");
  const key = {
    type: "object", additionalProperties: false, required: ["kid", "alg", "status", "use", "createdAt", "publicKey"],
    properties: {
      kid: { type: "string" }, alg: { type: "string" }, status: { enum: ["active", "passive", "retired"] }, use: { const: "sig" },
      createdAt: { type: "string", format: "date-time" }, rotatedAt: { type: "string", format: "date-time" },
      notAfter: { type: "string", format: "date-time" }, publicKey: p.ref(JwkSchema, "sparse"),
    },
  };
  const ops: Operation[] = [
    { id: "createRealm", method: "POST", path: "/admin/realms", auth: "admin", tag: "Realms", summary: "Create a realm",
      body: { schema: p.ref(RealmInputSchema, "input"), required: true }, responses: { 201: json("The realm.", realm) } },
    { id: "listRealms", method: "GET", path: "/admin/realms", auth: "admin", tag: "Realms", summary: "List realms",
      responses: { 200: json("Every realm.", arrayOf(realm)) } },
    { id: "listThemes", method: "GET", path: "/admin/realms/themes", auth: "admin", tag: "Realms", summary: "List the hosted pages' themes",
      responses: { 200: json("Theme names.", arrayOf({ type: "string" })) } },
    { id: "getRealm", method: "GET", path: R, auth: "admin", tag: "Realms", summary: "Get a realm", responses: { 200: json("The realm.", realm) } },
    { id: "updateRealm", method: "PUT", path: R, auth: "admin", tag: "Realms", summary: "Update a realm (the fields sent)",
      body: { schema: p.ref(RealmUpdateSchema, "input"), required: true }, responses: { 200: json("The realm.", realm) } },
    { id: "deleteRealm", method: "DELETE", path: R, auth: "admin", tag: "Realms", summary: "Delete a realm and everything in it",
      responses: { 200: json("The deleted realm.", realm) } },
    { id: "importRealm", method: "POST", path: "/admin/realms/import", auth: "admin", tag: "Realm transfer", summary: "Import a realm document",
      description: "A Tessera realm document or a Keycloak realm export, up to 256 MB.",
      query: [
        q("overwrite", "Replace an existing realm of the same name (default false).", { type: "boolean" }),
        q("format", "The document's format; detected when absent.", { enum: ["tessera", "keycloak"] }),
      ],
      body: { schema: ref("RealmImportDocument"), required: true },
      responses: {
        201: json("The realm, with what the import left out or changed.", p.extended(RealmSchema, {
          importReport: arrayOf({ type: "object", additionalProperties: false, required: ["path", "message"], properties: { path: { type: "string" }, message: { type: "string" } } }),
        })),
        400: json("The document is not valid, each problem with its path; or a parameter is not.", { anyOf: [ref("InvalidDocument"), ref("Error")] }),
      } },
    { id: "exportRealm", method: "GET", path: `${R}/export`, auth: "admin", tag: "Realm transfer", summary: "Export a realm document",
      query: [
        q("includeUsers", "Include users and their credentials (default false).", { type: "boolean" }),
        q("includeSecrets", "Include client secrets and private keys (default false).", { type: "boolean" }),
      ],
      responses: { 200: json("The realm document, streamed.", ref("RealmDocument")) } },
    { id: "listLoginEvents", method: "GET", path: `${R}/events`, auth: "admin", tag: "Events", summary: "Query login events",
      query: [q("type", "Event type, e.g. LOGIN."), q("userId", "The user's id."), q("clientId", "The client's clientId."),
        q("dateFrom", "From (inclusive).", DATE), q("dateTo", "To (inclusive).", DATE), ...PAGE],
      responses: { 200: json("Events, newest first.", arrayOf(p.ref(LoginEventSchema))) } },
    { id: "clearLoginEvents", method: "DELETE", path: `${R}/events`, auth: "admin", tag: "Events", summary: "Delete the realm's login events",
      responses: { 204: noContent() } },
    { id: "listAdminEvents", method: "GET", path: `${R}/admin-events`, auth: "admin", tag: "Events", summary: "Query admin events",
      query: [q("operationType", "CREATE, UPDATE, DELETE or ACTION."), q("resourceType", "e.g. USER, CLIENT."),
        q("dateFrom", "From (inclusive).", DATE), q("dateTo", "To (inclusive).", DATE), ...PAGE],
      responses: { 200: json("Events, newest first.", arrayOf(p.ref(AdminEventSchema))) } },
    { id: "listKeys", method: "GET", path: `${R}/keys`, auth: "admin", tag: "Keys", summary: "List the realm's token signing keys (public parts)",
      responses: { 200: json("Keys.", arrayOf(key)) } },
    { id: "rotateKeys", method: "POST", path: `${R}/keys/rotate`, auth: "admin", tag: "Keys", summary: "Rotate the realm's token signing key",
      body: { schema: p.ref(RotateKeysRequestSchema, "input") }, responses: { 200: json("Keys after the rotation.", arrayOf(key)) } },

    { id: "createUser", method: "POST", path: `${R}/users`, auth: "admin", tag: "Users", summary: "Create a user",
      body: { schema: p.ref(UserInputSchema, "input"), required: true }, responses: { 201: json("The user.", user) } },
    { id: "listUsers", method: "GET", path: `${R}/users`, auth: "admin", tag: "Users", summary: "Search users",
      query: [q("search", "Substring of username, email, first or last name."), q("username", "Exact username."), q("email", "Exact email."),
        q("enabled", "Only enabled or disabled users.", { type: "boolean" }),
        q("skip", "Results to skip (default 0).", { type: "integer", minimum: 0 }), q("limit", "Largest number of results.", { type: "integer", minimum: 0 })],
      responses: { 200: json("The page and the total.", { type: "object", additionalProperties: false, required: ["total", "users"], properties: { total: { type: "integer" }, users: arrayOf(user) } }) } },
    { id: "importUsers", method: "POST", path: `${R}/users/import`, auth: "admin", tag: "Users", summary: "Import users in bulk (up to 10,000)",
      body: { schema: ref("UserImportRequest"), required: true }, responses: { 200: json("What was imported, skipped and refused.", ref("UserImportReport")) } },
    { id: "getUser", method: "GET", path: U, auth: "admin", tag: "Users", summary: "Get a user", responses: { 200: json("The user.", user) } },
    { id: "updateUser", method: "PUT", path: U, auth: "admin", tag: "Users", summary: "Update a user (the fields sent)",
      body: { schema: p.ref(UserUpdateSchema, "input"), required: true }, responses: { 200: json("The user.", user) } },
    { id: "deleteUser", method: "DELETE", path: U, auth: "admin", tag: "Users", summary: "Delete a user", responses: { 204: noContent() } },
    { id: "resetPassword", method: "PUT", path: `${U}/reset-password`, auth: "admin", tag: "Users", summary: "Set a user's password",
      body: { schema: p.ref(ResetPasswordRequestSchema, "input"), required: true }, responses: { 204: noContent() } },
    { id: "sendVerificationEmail", method: "PUT", path: `${U}/send-verification-email`, auth: "admin", tag: "Users", summary: "Email the user a verification link",
      responses: { 200: json("What was sent.", ref("Message")) } },
    { id: "executeActionsEmail", method: "PUT", path: `${U}/execute-actions-email`, auth: "admin", tag: "Users",
      summary: "Email the user a link to run required actions (Keycloak's execute-actions-email)",
      query: [
        q("lifespan", "Seconds the link works (default: the realm's actionTokenGeneratedByAdminLifespan).", { type: "integer", minimum: 1 }),
        q("client_id", "The client whose redirect_uri the user is sent back to."),
        q("redirect_uri", "Where \"Back to application\" leads; registered by client_id."),
      ],
      body: { schema: arrayOf({ type: "string", enum: [...USER_REQUIRED_ACTIONS] }), required: false },
      responses: { 204: noContent() } },
    { id: "impersonateUser", method: "POST", path: `${U}/impersonation`, auth: "admin", tag: "Users",
      summary: "Start an SSO session as the user (Keycloak's impersonation); sets the realm's SSO cookie",
      responses: { 200: json("Where to go: the realm's account console.", { type: "object", required: ["redirect", "sameRealm"],
        properties: { redirect: { type: "string", format: "uri" }, sameRealm: { type: "boolean" } } }) } },
    { id: "sendTestEmail", method: "POST", path: `${R}/email/test`, auth: "admin", tag: "Realms", summary: "Send a test email with the realm's SMTP settings",
      body: { schema: ref("EmailTestRequest"), required: true }, responses: { 200: json("What was sent.", ref("Message")) } },
    { id: "getMfaStatus", method: "GET", path: `${U}/mfa/status`, auth: "admin", tag: "User security", summary: "Whether the user has a second factor",
      responses: { 200: json("The status.", ref("MfaStatus")) } },
    { id: "resetMfa", method: "DELETE", path: `${U}/mfa`, auth: "admin", tag: "User security", summary: "Remove the user's second factor", responses: { 204: noContent() } },
    { id: "listPasskeys", method: "GET", path: `${U}/passkeys`, auth: "admin", tag: "User security", summary: "The user's passkeys (at most 20, all at once)",
      responses: { 200: json("Passkeys, oldest first.", arrayOf(ref("Passkey"))) } },
    { id: "deletePasskey", method: "DELETE", path: `${U}/passkeys/:passkeyId`, auth: "admin", tag: "User security", summary: "Remove one of the user's passkeys",
      responses: { 204: noContent() } },
    { id: "listLockedUsers", method: "GET", path: `${R}/brute-force/locked-users`, auth: "admin", tag: "User security", summary: "Users locked by brute-force detection",
      responses: { 200: json("Locked users.", arrayOf(ref("LockedUser"))) } },
    { id: "unlockUser", method: "POST", path: `${R}/brute-force/users/:userId/unlock`, auth: "admin", tag: "User security", summary: "Unlock a user",
      responses: { 204: noContent() } },

    { id: "listRealmSessions", method: "GET", path: `${R}/sessions`, auth: "admin", tag: "Sessions", summary: "List the realm's sessions",
      query: PAGE, responses: { 200: json("Sessions.", arrayOf(session)) } },
    { id: "revokeSession", method: "DELETE", path: `${R}/sessions/:sessionId`, auth: "admin", tag: "Sessions", summary: "Revoke a session",
      query: [q("type", "`oauth` (default): a token session; `sso`: a browser session.", { enum: ["oauth", "sso"] })],
      responses: { 200: json("What was revoked.", ref("RevokeSessionResult")) } },
    { id: "listUserSessions", method: "GET", path: `${U}/sessions`, auth: "admin", tag: "Sessions", summary: "List a user's sessions",
      query: PAGE, responses: { 200: json("Sessions.", arrayOf(session)) } },
    { id: "revokeUserSessions", method: "DELETE", path: `${U}/sessions`, auth: "admin", tag: "Sessions", summary: "Revoke every session of a user",
      responses: { 200: json("How many were revoked.", ref("CountResult")) } },
    { id: "listOfflineSessions", method: "GET", path: `${U}/offline-sessions`, auth: "admin", tag: "Sessions", summary: "List a user's offline sessions",
      query: PAGE, responses: { 200: json("Offline sessions.", arrayOf(session)) } },
    { id: "revokeOfflineSession", method: "DELETE", path: `${U}/offline-sessions/:tokenId`, auth: "admin", tag: "Sessions", summary: "Revoke an offline session",
      responses: { 204: noContent() } },

    { id: "createGroup", method: "POST", path: `${R}/groups`, auth: "admin", tag: "Groups", summary: "Create a group",
      body: { schema: p.ref(GroupInputSchema, "input"), required: true }, responses: { 201: json("The group.", group) } },
    { id: "listGroups", method: "GET", path: `${R}/groups`, auth: "admin", tag: "Groups", summary: "List groups",
      description: "Without parameters the whole tree. With `first` or `max`, a page of the top-level groups (default 100, at most 1000), each with its subtree. With `search` or `q`, the top-level groups on the way to the matching groups, pruned to those branches; a matched group keeps its whole subtree.",
      query: [...PAGE, GROUP_SEARCH, GROUP_EXACT, q("q", "Attribute query: `key:value` pairs separated by spaces, each held by the group itself (not with `search`).")],
      responses: { 200: json("Groups.", arrayOf(group)) } },
    { id: "countGroups", method: "GET", path: `${R}/groups/count`, auth: "admin", tag: "Groups", summary: "Count groups",
      query: [q("search", "Count the groups whose name contains it (case-insensitive)."), q("top", "Count the top-level groups only (default false).", { type: "boolean" })],
      responses: { 200: json("How many.", ref("CountResult")) } },
    { id: "listGroupChildren", method: "GET", path: `${G}/children`, auth: "admin", tag: "Groups", summary: "List a group's subgroups",
      description: "A page of the group's direct subgroups by name (default 100, at most 1000), each with its subtree.",
      query: [...PAGE, GROUP_SEARCH, GROUP_EXACT], responses: { 200: json("Subgroups.", arrayOf(group)) } },
    { id: "getGroup", method: "GET", path: G, auth: "admin", tag: "Groups", summary: "Get a group", responses: { 200: json("The group.", group) } },
    { id: "updateGroup", method: "PUT", path: G, auth: "admin", tag: "Groups", summary: "Update a group",
      body: { schema: p.ref(GroupUpdateSchema, "input"), required: true }, responses: { 200: json("The group.", group) } },
    { id: "deleteGroup", method: "DELETE", path: G, auth: "admin", tag: "Groups", summary: "Delete a group and its subgroups",
      responses: { 200: json("The deleted group.", group) } },
    { id: "listGroupMembers", method: "GET", path: `${G}/members`, auth: "admin", tag: "Groups", summary: "List a group's members",
      query: PAGE, responses: { 200: json("Members.", arrayOf(user)) } },
    { id: "listUserGroups", method: "GET", path: `${U}/groups`, auth: "admin", tag: "Groups", summary: "List a user's groups",
      responses: { 200: json("Groups.", arrayOf(group)) } },
    { id: "addUserToGroup", method: "PUT", path: `${U}/groups/:groupId`, auth: "admin", tag: "Groups", summary: "Add a user to a group",
      responses: { 200: json("The membership.", p.ref(GroupMembershipSchema)) } },
    { id: "removeUserFromGroup", method: "DELETE", path: `${U}/groups/:groupId`, auth: "admin", tag: "Groups", summary: "Remove a user from a group",
      responses: { 200: json("The removed membership.", p.ref(GroupMembershipSchema)) } },
  ];
  return ops;
}
