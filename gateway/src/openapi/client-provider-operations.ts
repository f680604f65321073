import { IdentityProviderInputSchema, IdentityProviderSchema } from "../../../gen/iam/broker/v1/identity_provider_pb.js";
import { ClientInputSchema, ClientSchema, ClientUpdateSchema, ServiceAccountUserSchema } from "../../../gen/iam/directory/v1/client_pb.js";
import {
  ClientScopeInputSchema, ClientScopeSchema, ClientScopeUpdateSchema, ProtocolMapperInputSchema, ProtocolMapperSchema,
  ProtocolMapperUpdateSchema, ScopeAssignmentInputSchema, ScopeAssignmentSchema,
} from "../../../gen/iam/directory/v1/client_scope_pb.js";
import { AdminAccountSchema } from "../../../gen/iam/directory/v1/admin_account_pb.js";
import { RoleInputSchema, RoleSchema } from "../../../gen/iam/directory/v1/role_pb.js";
import { ProviderInputSchema, ProviderSchema, SyncResultSchema } from "../../../gen/iam/federation/v1/federation_pb.js";
import { SigningKeySchema as SamlSigningKeySchema } from "../../../gen/iam/saml/v1/idp_pb.js";
import { ServiceProviderInputSchema, ServiceProviderSchema } from "../../../gen/iam/saml/v1/service_provider_pb.js";
import { arrayOf, json, noContent, ref, type Operation, type Param } from "./operation.js";
import type { ProtoSchemas } from "./proto-schema.js";

const R = "/admin/realms/:realmName";
const C = `${R}/clients/:clientId`;
const EXAMPLE = "Keycloak's client scope evaluation: what the client would get for the user who logged in just now with this `scope` parameter (`openid` is added), built as the token endpoint builds it, without a session. Needs the users' view role.";
const EVALUATE_QUERY: Param[] = [
  { name: "userId", description: "The user (required).", schema: { type: "string" } },
  { name: "scope", description: "The scope parameter of the token request (space-separated).", schema: { type: "string" } },
];

/** Clients, roles and their mappings, client scopes, identity providers, SAML SPs, user federation, admin login (spec 4.3-4.14). */
export function clientProviderOperations(p: ProtoSchemas): Operation[] {
  const client = p.ref(ClientSchema);
  const role = p.ref(RoleSchema);
  const scope = p.ref(ClientScopeSchema);
  const idp = p.ref(IdentityProviderSchema);
  const sp = p.ref(ServiceProviderSchema);
  const fed = p.ref(ProviderSchema);
  const roleNames = (clientId: boolean) => ({
    type: "object", additionalProperties: false, required: ["roleNames"],
    properties: {
      roleNames: arrayOf({ type: "string" }),
      ...(clientId ? { clientId: { type: "string", description: "Names roles of this client (its clientId) instead of realm roles." } } : {}),
    },
  });
  const ops: Operation[] = [
    { id: "createClient", method: "POST", path: `${R}/clients`, auth: "admin", tag: "Clients", summary: "Create a client",
      description: "A confidential client's secret is in this reply only (and in regenerate-secret's).",
      body: { schema: p.ref(ClientInputSchema, "input"), required: true }, responses: { 201: json("The client.", client) } },
    { id: "listClients", method: "GET", path: `${R}/clients`, auth: "admin", tag: "Clients", summary: "List clients", responses: { 200: json("Clients.", arrayOf(client)) } },
    { id: "getClient", method: "GET", path: C, auth: "admin", tag: "Clients", summary: "Get a client", responses: { 200: json("The client.", client) } },
    { id: "updateClient", method: "PUT", path: C, auth: "admin", tag: "Clients", summary: "Update a client (the fields sent)",
      body: { schema: p.ref(ClientUpdateSchema, "input"), required: true }, responses: { 200: json("The client.", client) } },
    { id: "deleteClient", method: "DELETE", path: C, auth: "admin", tag: "Clients", summary: "Delete a client", responses: { 204: noContent() } },
    { id: "regenerateClientSecret", method: "POST", path: `${C}/regenerate-secret`, auth: "admin", tag: "Clients", summary: "Issue a new client secret",
      responses: { 200: json("The client with its new secret (shown once).", client) } },
    { id: "getServiceAccountUser", method: "GET", path: `${C}/service-account-user`, auth: "admin", tag: "Clients", summary: "The client's service account user",
      responses: { 200: json("The service account.", p.ref(ServiceAccountUserSchema)) } },
    { id: "generateExampleAccessToken", method: "GET", path: `${C}/evaluate-scopes/generate-example-access-token`, auth: "admin", tag: "Clients",
      summary: "The claims of an example access token", description: EXAMPLE, query: EVALUATE_QUERY,
      responses: { 200: json("The claims, neither signed nor stored.", { type: "object", additionalProperties: true }) } },
    { id: "generateExampleIdToken", method: "GET", path: `${C}/evaluate-scopes/generate-example-id-token`, auth: "admin", tag: "Clients",
      summary: "The claims of an example ID token", description: EXAMPLE, query: EVALUATE_QUERY,
      responses: { 200: json("The claims, neither signed nor stored.", { type: "object", additionalProperties: true }) } },
    { id: "generateExampleUserinfo", method: "GET", path: `${C}/evaluate-scopes/generate-example-userinfo`, auth: "admin", tag: "Clients",
      summary: "The claims of an example userinfo answer", description: EXAMPLE, query: EVALUATE_QUERY,
      responses: { 200: json("The claims, neither signed nor stored.", { type: "object", additionalProperties: true }) } },
  ];
  for (const [base, tag, what] of [[`${R}/roles`, "Roles", "realm role"], [`${C}/roles`, "Client roles", "client role"]] as const) {
    const id = what === "realm role" ? "RealmRole" : "ClientRole";
    ops.push(
      { id: `create${id}`, method: "POST", path: base, auth: "admin", tag, summary: `Create a ${what}`,
        body: { schema: p.ref(RoleInputSchema, "input"), required: true }, responses: { 201: json("The role.", role) } },
      { id: `list${id}s`, method: "GET", path: base, auth: "admin", tag, summary: `List ${what}s`, responses: { 200: json("Roles.", arrayOf(role)) } },
      { id: `get${id}`, method: "GET", path: `${base}/:roleName`, auth: "admin", tag, summary: `Get a ${what}`, responses: { 200: json("The role.", role) } },
      { id: `update${id}`, method: "PUT", path: `${base}/:roleName`, auth: "admin", tag, summary: `Rename or describe a ${what}`,
        body: { schema: p.ref(RoleInputSchema, "input"), required: true }, responses: { 200: json("The role.", role) } },
      { id: `delete${id}`, method: "DELETE", path: `${base}/:roleName`, auth: "admin", tag, summary: `Delete a ${what}`, responses: { 204: noContent() } },
      { id: `list${id}Composites`, method: "GET", path: `${base}/:roleName/composites`, auth: "admin", tag,
        summary: `List the roles a composite ${what} contains`, responses: { 200: json("Roles.", arrayOf(role)) } },
      { id: `add${id}Composites`, method: "POST", path: `${base}/:roleName/composites`, auth: "admin", tag,
        summary: `Add roles to a ${what} (making it composite)`, description: "Holders of the role hold the contained roles too, transitively.",
        body: { schema: roleNames(true), required: true }, responses: { 200: json("The role names added.", ref("RoleNamesResult")) } },
      { id: `remove${id}Composites`, method: "DELETE", path: `${base}/:roleName/composites`, auth: "admin", tag,
        summary: `Remove roles from a composite ${what}`,
        body: { schema: roleNames(true), required: true }, responses: { 200: json("The role names removed.", ref("RoleNamesResult")) } },
    );
  }
  const mappings: Array<[string, string, string, boolean]> = [
    [`${R}/users/:userId/role-mappings/realm`, "UserRealmRoleMappings", "a user's realm roles", false],
    [`${R}/users/:userId/role-mappings/clients/:clientId`, "UserClientRoleMappings", "a user's roles of a client", false],
    [`${R}/groups/:groupId/role-mappings`, "GroupRoleMappings", "a group's roles", true],
  ];
  for (const [path, id, what] of [
    [`${R}/users/:userId/role-mappings/realm/composite`, "UserEffectiveRealmRoles", "a user's effective realm roles"],
    [`${R}/users/:userId/role-mappings/clients/:clientId/composite`, "UserEffectiveClientRoles", "a user's effective roles of a client"],
    [`${R}/groups/:groupId/role-mappings/composite`, "GroupEffectiveRoles", "a group's effective roles"],
  ] as const) {
    ops.push({ id: `list${id}`, method: "GET", path, auth: "admin", tag: "Role mappings", summary: `List ${what}`,
      description: "Mapped directly or through groups and their ancestors, with what composite roles among them contain.",
      responses: { 200: json("Roles.", arrayOf(role)) } });
  }
  for (const [path, id, what, group] of mappings) {
    ops.push(
      { id: `list${id}`, method: "GET", path, auth: "admin", tag: "Role mappings", summary: `List ${what}`, responses: { 200: json("Roles.", arrayOf(role)) } },
      { id: `add${id}`, method: "POST", path, auth: "admin", tag: "Role mappings", summary: `Grant ${what}`,
        body: { schema: roleNames(group), required: true }, responses: { 200: json("The role names granted.", ref("RoleNamesResult")) } },
      { id: `remove${id}`, method: "DELETE", path, auth: "admin", tag: "Role mappings", summary: `Revoke ${what}`,
        body: { schema: roleNames(group), required: true }, responses: { 200: json("The role names revoked.", ref("RoleNamesResult")) } },
    );
  }
  const S = `${R}/client-scopes/:scopeId`;
  ops.push(
    { id: "createClientScope", method: "POST", path: `${R}/client-scopes`, auth: "admin", tag: "Client scopes", summary: "Create a client scope",
      body: { schema: p.ref(ClientScopeInputSchema, "input"), required: true }, responses: { 201: json("The scope.", scope) } },
    { id: "listClientScopes", method: "GET", path: `${R}/client-scopes`, auth: "admin", tag: "Client scopes", summary: "List client scopes",
      responses: { 200: json("Scopes.", arrayOf(scope)) } },
    { id: "getClientScope", method: "GET", path: S, auth: "admin", tag: "Client scopes", summary: "Get a client scope", responses: { 200: json("The scope.", scope) } },
    { id: "updateClientScope", method: "PUT", path: S, auth: "admin", tag: "Client scopes", summary: "Update a client scope",
      body: { schema: p.ref(ClientScopeUpdateSchema, "input"), required: true }, responses: { 200: json("The scope.", scope) } },
    { id: "deleteClientScope", method: "DELETE", path: S, auth: "admin", tag: "Client scopes", summary: "Delete a client scope", responses: { 204: noContent() } },
    { id: "createProtocolMapper", method: "POST", path: `${S}/protocol-mappers`, auth: "admin", tag: "Client scopes", summary: "Add a protocol mapper to a scope",
      body: { schema: p.ref(ProtocolMapperInputSchema, "input"), required: true }, responses: { 201: json("The mapper.", p.ref(ProtocolMapperSchema)) } },
    { id: "updateProtocolMapper", method: "PUT", path: `${S}/protocol-mappers/:mapperId`, auth: "admin", tag: "Client scopes", summary: "Update a protocol mapper",
      body: { schema: p.ref(ProtocolMapperUpdateSchema, "input"), required: true }, responses: { 200: json("The mapper.", p.ref(ProtocolMapperSchema)) } },
    { id: "deleteProtocolMapper", method: "DELETE", path: `${S}/protocol-mappers/:mapperId`, auth: "admin", tag: "Client scopes", summary: "Delete a protocol mapper",
      responses: { 204: noContent() } },
  );
  for (const [segment, kind] of [["default-client-scopes", "Default"], ["optional-client-scopes", "Optional"]] as const) {
    const path = `${C}/${segment}`;
    ops.push(
      { id: `list${kind}ClientScopes`, method: "GET", path, auth: "admin", tag: "Client scopes", summary: `List a client's ${kind.toLowerCase()} scopes`,
        responses: { 200: json("Scopes.", arrayOf(scope)) } },
      { id: `add${kind}ClientScope`, method: "POST", path, auth: "admin", tag: "Client scopes", summary: `Assign a ${kind.toLowerCase()} scope to a client`,
        body: { schema: p.ref(ScopeAssignmentInputSchema, "input"), required: true }, responses: { 200: json("The assignment.", p.ref(ScopeAssignmentSchema)) } },
      { id: `remove${kind}ClientScope`, method: "DELETE", path: `${path}/:scopeId`, auth: "admin", tag: "Client scopes", summary: `Remove a ${kind.toLowerCase()} scope from a client`,
        responses: { 204: noContent() } },
    );
  }
  const idpBody = {
    description: "The flat fields, or Keycloak's shape: `providerId` and a `config` object of strings (migration).",
    anyOf: [p.ref(IdentityProviderInputSchema, "input"), {
      type: "object", required: ["providerId"],
      properties: { alias: { type: "string" }, providerId: { type: "string" }, config: { type: "object", additionalProperties: { type: "string" } } },
    }],
  };
  const I = `${R}/identity-providers/:alias`;
  const SP = `${R}/saml-service-providers/:id`;
  const F = `${R}/user-federation/:id`;
  ops.push(
    { id: "createIdentityProvider", method: "POST", path: `${R}/identity-providers`, auth: "admin", tag: "Identity providers", summary: "Add an upstream identity provider",
      body: { schema: idpBody, required: true }, responses: { 201: json("The provider (no secret).", idp) } },
    { id: "listIdentityProviders", method: "GET", path: `${R}/identity-providers`, auth: "admin", tag: "Identity providers", summary: "List identity providers",
      responses: { 200: json("Providers.", arrayOf(idp)) } },
    { id: "getIdentityProvider", method: "GET", path: I, auth: "admin", tag: "Identity providers", summary: "Get an identity provider", responses: { 200: json("The provider.", idp) } },
    { id: "updateIdentityProvider", method: "PUT", path: I, auth: "admin", tag: "Identity providers", summary: "Update an identity provider",
      body: { schema: idpBody, required: true }, responses: { 200: json("The provider.", idp) } },
    { id: "deleteIdentityProvider", method: "DELETE", path: I, auth: "admin", tag: "Identity providers", summary: "Delete an identity provider",
      responses: { 200: json("The deleted provider.", idp) } },
    { id: "listFederatedIdentities", method: "GET", path: `${R}/users/:userId/federated-identity`, auth: "admin", tag: "Identity providers", summary: "A user's links to upstream identities",
      responses: { 200: json("Links.", arrayOf(ref("FederatedIdentity"))) } },
    { id: "deleteFederatedIdentity", method: "DELETE", path: `${R}/users/:userId/federated-identity/:alias`, auth: "admin", tag: "Identity providers", summary: "Unlink an upstream identity",
      responses: { 204: noContent() } },

    { id: "createSamlServiceProvider", method: "POST", path: `${R}/saml-service-providers`, auth: "admin", tag: "SAML", summary: "Register a SAML service provider",
      body: { schema: p.ref(ServiceProviderInputSchema, "input"), required: true }, responses: { 201: json("The service provider.", sp) } },
    { id: "listSamlServiceProviders", method: "GET", path: `${R}/saml-service-providers`, auth: "admin", tag: "SAML", summary: "List SAML service providers",
      responses: { 200: json("Service providers.", arrayOf(sp)) } },
    { id: "getSamlServiceProvider", method: "GET", path: SP, auth: "admin", tag: "SAML", summary: "Get a SAML service provider", responses: { 200: json("The service provider.", sp) } },
    { id: "updateSamlServiceProvider", method: "PUT", path: SP, auth: "admin", tag: "SAML", summary: "Update a SAML service provider",
      body: { schema: p.ref(ServiceProviderInputSchema, "input"), required: true }, responses: { 200: json("The service provider.", sp) } },
    { id: "deleteSamlServiceProvider", method: "DELETE", path: SP, auth: "admin", tag: "SAML", summary: "Delete a SAML service provider", responses: { 204: noContent() } },
    { id: "listSamlKeys", method: "GET", path: `${R}/saml-keys`, auth: "admin", tag: "SAML", summary: "The realm's SAML signing keys (public parts)",
      responses: { 200: json("Keys.", arrayOf(p.ref(SamlSigningKeySchema))) } },
    { id: "rotateSamlKey", method: "POST", path: `${R}/saml-keys/rotate`, auth: "admin", tag: "SAML", summary: "Rotate the realm's SAML signing key",
      responses: { 200: json("The new key.", p.ref(SamlSigningKeySchema)) } },

    { id: "createFederationProvider", method: "POST", path: `${R}/user-federation`, auth: "admin", tag: "User federation", summary: "Add an LDAP provider",
      body: { schema: p.ref(ProviderInputSchema, "input"), required: true }, responses: { 201: json("The provider (no bind password).", fed) } },
    { id: "listFederationProviders", method: "GET", path: `${R}/user-federation`, auth: "admin", tag: "User federation", summary: "List LDAP providers",
      responses: { 200: json("Providers.", arrayOf(fed)) } },
    { id: "getFederationProvider", method: "GET", path: F, auth: "admin", tag: "User federation", summary: "Get an LDAP provider", responses: { 200: json("The provider.", fed) } },
    { id: "updateFederationProvider", method: "PUT", path: F, auth: "admin", tag: "User federation", summary: "Update an LDAP provider",
      body: { schema: p.ref(ProviderInputSchema, "input"), required: true }, responses: { 200: json("The provider.", fed) } },
    { id: "deleteFederationProvider", method: "DELETE", path: F, auth: "admin", tag: "User federation", summary: "Delete an LDAP provider",
      responses: { 200: json("The deleted provider.", fed) } },
    { id: "testFederationConnection", method: "POST", path: `${F}/test-connection`, auth: "admin", tag: "User federation", summary: "Bind to the directory with the provider's settings",
      responses: { 200: json("The bind succeeded.", ref("ConnectionTestResult")), 400: json("The bind failed, and why.", ref("ConnectionTestResult")) } },
    { id: "syncFederationProvider", method: "POST", path: `${F}/sync`, auth: "admin", tag: "User federation", summary: "Synchronize users from the directory",
      query: [{ name: "action", description: "Keycloak's sync action (default triggerFullSync).", schema: { enum: ["triggerFullSync", "triggerChangedUsersSync"] } }],
      responses: { 200: json("What the sync did.", p.ref(SyncResultSchema)) } },

    { id: "adminLogin", method: "POST", path: "/admin/auth/login", auth: "public", tag: "Admin authentication", summary: "Log in as an admin for a bearer token",
      body: { schema: ref("AdminLoginRequest"), required: true },
      responses: {
        200: json("An admin access token for `Authorization: Bearer`.", ref("AdminLoginResponse")),
        429: { description: "Too many failed logins; `Retry-After` says when to try again.", schema: ref("Error"), headers: { "Retry-After": "Seconds to wait." } },
      } },
    { id: "refreshAdminToken", method: "POST", path: "/admin/auth/refresh", auth: "public", tag: "Admin authentication", summary: "Renew an admin token with the refresh token of its login",
      description: "New tokens without the password: the refresh token of a login (or of the last renewal; each renewal answers a new one, and a refresh token works once) of an admin account that still exists. 401 `invalid_refresh_token` when it is invalid, expired (30 minutes unused, or 10 hours after the login), its sign-in has ended (sign-out, a reset of the admin's password) or its account is gone; a refresh token presented a second time ends its sign-in as well.",
      body: { schema: ref("AdminRefreshRequest"), required: true },
      responses: { 200: json("New tokens, as the login answers them.", ref("AdminLoginResponse")), 401: json("Not a valid refresh token (`invalid_refresh_token`).", ref("Error")) } },
    { id: "adminLogout", method: "POST", path: "/admin/auth/logout", auth: "public", tag: "Admin authentication", summary: "Sign out: end the sign-in of a refresh token",
      description: "Ends the sign-in the refresh token belongs to: neither that refresh token nor the sign-in's access tokens are accepted afterwards (through another gateway replica within 5 seconds). 204 whatever the token, as RFC 7009 revocation answers, so the answer tells nothing about it.",
      body: { schema: ref("AdminRefreshRequest"), required: true },
      responses: { 204: { description: "Signed out (or the token named no sign-in)." } } },
    { id: "currentAdmin", method: "GET", path: "/admin/auth/me", auth: "bearer", tag: "Admin authentication", summary: "The admin of a bearer token",
      responses: { 200: json("The admin account.", p.ref(AdminAccountSchema, "sparse")) } },
  );
  return ops;
}
