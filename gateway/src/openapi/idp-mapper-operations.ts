import {
  IdentityProviderMapperInputSchema, IdentityProviderMapperSchema, IdentityProviderMapperTypeSchema,
} from "../../../gen/iam/broker/v1/identity_provider_pb.js";
import { arrayOf, json, noContent, type Operation } from "./operation.js";
import type { ProtoSchemas } from "./proto-schema.js";

const I = "/admin/realms/:realmName/identity-providers/:alias";
const TAG = "Identity providers";

/** Identity provider mappers (Keycloak's IdentityProviderMapperRepresentation). */
export function idpMapperOperations(p: ProtoSchemas): Operation[] {
  const mapper = p.ref(IdentityProviderMapperSchema);
  const body = { schema: p.ref(IdentityProviderMapperInputSchema, "input"), required: true };
  return [
    { id: "listIdentityProviderMapperTypes", method: "GET", path: `${I}/mapper-types`, auth: "admin", tag: TAG, summary: "The mapper types and their config keys",
      responses: { 200: json("Mapper types.", arrayOf(p.ref(IdentityProviderMapperTypeSchema))) } },
    { id: "listIdentityProviderMappers", method: "GET", path: `${I}/mappers`, auth: "admin", tag: TAG, summary: "List a provider's mappers",
      responses: { 200: json("Mappers.", arrayOf(mapper)) } },
    { id: "createIdentityProviderMapper", method: "POST", path: `${I}/mappers`, auth: "admin", tag: TAG, summary: "Add a mapper to a provider",
      description: "config.syncMode is INHERIT (default), IMPORT, LEGACY or FORCE; the name is unique per provider (409).",
      body, responses: { 201: json("The mapper.", mapper) } },
    { id: "getIdentityProviderMapper", method: "GET", path: `${I}/mappers/:mapperId`, auth: "admin", tag: TAG, summary: "Get a mapper",
      responses: { 200: json("The mapper.", mapper) } },
    { id: "updateIdentityProviderMapper", method: "PUT", path: `${I}/mappers/:mapperId`, auth: "admin", tag: TAG, summary: "Replace a mapper",
      body, responses: { 200: json("The mapper.", mapper) } },
    { id: "deleteIdentityProviderMapper", method: "DELETE", path: `${I}/mappers/:mapperId`, auth: "admin", tag: TAG, summary: "Delete a mapper",
      responses: { 204: noContent() } },
  ];
}
