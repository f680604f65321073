import { z } from "zod";
import { realmDocumentSchema } from "../../../services/kit/src/realm-transfer/document-schema.js";
import { clientProviderOperations } from "./client-provider-operations.js";
import { idpMapperOperations } from "./idp-mapper-operations.js";
import { COMMON_SCHEMAS } from "./common-schemas.js";
import type { Answer, Operation } from "./operation.js";
import { ProtoSchemas, type JsonSchema } from "./proto-schema.js";
import { protocolOperations } from "./protocol-operations.js";
import { organizationOperations } from "./organization-operations.js";
import { localizationOperations } from "./localization-operations.js";
import { realmUserOperations } from "./realm-user-operations.js";
import { webhookOperations } from "./webhook-operations.js";
import { authenticationFlowOperations } from "./authentication-flow-operations.js";
import { clientRegistrationOperations } from "./client-registration-operations.js";
import { accountOperations } from "./account-operations.js";
import { adminAccountOperations } from "./admin-account-operations.js";
import { packageVersion } from "../ops/landing-routes.js";

/** Fields a route drops from a reply when empty (realmJson, userJson, roleJson, spJson, providerJson). */
const OMITTED = {
  "iam.directory.v1.Realm": ["smtpPassword"],
  "iam.directory.v1.User": ["federationLink"],
  "iam.directory.v1.Role": ["clientId"],
  "iam.saml.v1.ServiceProvider": ["sloUrl", "certificate"],
  "iam.broker.v1.IdentityProvider": ["userinfoUrl", "jwksUrl", "issuer"],
};

/** Fields a route refuses in a body because the path names them. */
const INTERNAL = {
  "iam.directory.v1.ResetPasswordRequest": ["realm", "userId"],
  "iam.token.v1.RotateKeysRequest": ["realm"],
  "iam.directory.v1.UpdateAdminRequest": ["id", "callerId", "setRealmAccess"],
};

const PATH_PARAMS: Record<string, string> = {
  realmName: "The realm's name.", userId: "The user's id.", clientId: "The client's clientId (not its internal id).",
  groupId: "The group's id.", roleName: "The role's name.", scopeId: "The client scope's id.", mapperId: "The protocol mapper's id.",
  sessionId: "The session's id.", tokenId: "The offline token's id.", alias: "The identity provider's alias.", id: "The provider's id.",
  orgId: "The organization's id.", deliveryId: "The delivery's id (its `webhook-id` header).", file: "The asset's content-hashed file name.",
};

const SECURITY: Record<Operation["auth"], Array<Record<string, string[]>>> = {
  admin: [{ adminApiKey: [] }, { adminToken: [] }],
  client: [{ clientBasic: [] }, {}],
  bearer: [{ bearerToken: [] }],
  public: [],
};

/** Every documented operation, in the order of the document. */
export function operations(p: ProtoSchemas = schemas()): Operation[] {
  return [
    ...realmUserOperations(p), ...clientProviderOperations(p), ...idpMapperOperations(p), ...organizationOperations(p), ...webhookOperations(p), ...authenticationFlowOperations(), ...clientRegistrationOperations(p),
    ...protocolOperations(), ...accountOperations(), ...localizationOperations(), ...adminAccountOperations(p),
  ];
}

function schemas(): ProtoSchemas {
  return new ProtoSchemas(OMITTED, INTERNAL);
}

/** `/admin/realms/:realmName` as OpenAPI writes it: `/admin/realms/{realmName}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

let cached: Record<string, unknown> | undefined;

/**
 * The OpenAPI 3.1 document of the gateway: the Admin API and the public OIDC, SAML and operations
 * endpoints. Bodies of the Admin API are protobuf messages, so their schemas are derived from the
 * same descriptors the gateway parses and writes them with (proto-schema.ts).
 */
export function openApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const p = schemas();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations(p)) {
    const item = (paths[openApiPath(op.path)] ??= {});
    item[op.method.toLowerCase()] = operationObject(op);
  }
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Tessera", version: packageVersion(),
      description: "The Admin API (`/admin/...`; `X-Admin-API-Key` or an admin bearer token from `POST /admin/auth/login`) and the public OpenID Connect, SAML and operations endpoints of a realm.",
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    servers: [{ url: "/", description: "This server" }],
    tags: [...new Set(operations(p).map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...COMMON_SCHEMAS, ...realmDocumentSchemas(), ...p.all() },
      securitySchemes: {
        adminApiKey: { type: "apiKey", in: "header", name: "X-Admin-API-Key", description: "The admin API key (TESSERA_ADMIN_API_KEY)." },
        adminToken: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "An admin token from `POST /admin/auth/login`." },
        clientBasic: { type: "http", scheme: "basic", description: "client_id and client_secret (RFC 6749 section 2.3.1); or in the form (client_secret_post), or a public client's client_id alone." },
        bearerToken: { type: "http", scheme: "bearer", description: "An access token the realm issued (RFC 6750)." },
      },
    },
  };
  return cached;
}

function operationObject(op: Operation): Record<string, unknown> {
  const names = [...op.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const parameters = [
    ...names.map((name) => ({ name, in: "path", required: true, description: op.pathParams?.[name] ?? PATH_PARAMS[name] ?? name, schema: { type: "string" } })),
    ...(op.query ?? []).map((q) => ({ name: q.name, in: "query", description: q.description, required: q.required ?? false, schema: q.schema ?? { type: "string" } })),
    ...(op.headers ?? []).map((h) => ({ name: h.name, in: "header", description: h.description, required: h.required ?? false, schema: h.schema ?? { type: "string" } })),
  ];
  const responses: Record<string, unknown> = {};
  for (const [status, a] of Object.entries(op.responses)) responses[status] = answer(a);
  const family = op.errors ?? "gateway";
  if (family === "gateway") {
    // The statuses every caller meets, spelled out (the rest are under `default`).
    const err = (description: string, headers?: Record<string, string>) => answer({ description, schema: { $ref: "#/components/schemas/Error" }, ...(headers ? { headers } : {}) });
    if ((op.body || op.query?.length) && !responses["400"]) responses["400"] = err("A field or parameter is not valid; `field` names it.");
    if (op.auth !== "public" && !responses["401"]) responses["401"] = err("Missing or wrong credentials.", { "WWW-Authenticate": "The Bearer challenge." });
    if (op.auth === "admin" && !responses["403"]) responses["403"] = err("The admin's roles do not allow this: `forbidden` (Administrators, in the security guide).");
    if (names.length > 0 && !responses["404"]) responses["404"] = err("The realm, or the resource the path names, does not exist.");
    if (op.responses[201] && !responses["409"]) responses["409"] = err("A resource of that name already exists.");
  }
  if (family === "gateway") responses.default = answer({ description: "An error, in the gateway's format (400 with the field at fault, 401, 403, 404, 409, 429, 5xx).", schema: { $ref: "#/components/schemas/Error" } });
  if (family === "oauth") responses.default = answer({ description: "An error in the protocol's format (RFC 6749 section 5.2): `error` and `error_description`; 401 for a client that failed to authenticate.", schema: { $ref: "#/components/schemas/OAuthError" } });
  if (family === "page") responses.default = answer({ description: "The realm's HTML error page.", schema: { type: "string" }, media: "text/html" });
  return {
    operationId: op.id, tags: [op.tag], summary: op.summary, ...(op.description ? { description: op.description } : {}),
    "x-tessera-auth": op.auth, security: SECURITY[op.auth],
    ...(parameters.length ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: op.body.required ?? false, ...(op.body.description ? { description: op.body.description } : {}), content: content(op.body.media, op.body.schema) } } : {}),
    responses,
  };
}

function answer(a: Answer): Record<string, unknown> {
  const headers = a.headers ? Object.fromEntries(Object.entries(a.headers).map(([k, d]) => [k, { description: d, schema: { type: "string" } }])) : undefined;
  return {
    description: a.description, ...(headers ? { headers } : {}), ...(a.bodyOptional ? { "x-tessera-body-optional": true } : {}),
    ...(a.schema || a.media ? { content: content(a.media, a.schema ?? {}) } : {}),
  };
}

function content(media: string | string[] | undefined, schema: JsonSchema): Record<string, unknown> {
  return Object.fromEntries([media ?? "application/json"].flat().map((m) => [m, { schema }]));
}

/** The realm document's JSON Schema from its zod schema (as docs/realm-export.schema.json is), its `$defs` as components. */
function realmDocumentSchemas(): Record<string, JsonSchema> {
  const raw = JSON.stringify(z.toJSONSchema(realmDocumentSchema, { io: "input" }))
    .replace(/"#\/\$defs\/(\w+)"/g, (_m, name: string) => `"#/components/schemas/RealmDocument_${name}"`);
  const { $schema: _s, $defs, ...root } = JSON.parse(raw) as Record<string, unknown> & { $defs?: Record<string, JsonSchema> };
  const defs = Object.fromEntries(Object.entries($defs ?? {}).map(([k, v]) => [`RealmDocument_${k}`, v]));
  return { RealmDocument: root, ...defs };
}
