import { toJson } from "@bufbuild/protobuf";
import {
  IdentityProviderMapperInputSchema, IdentityProviderMapperSchema, IdentityProviderMapperTypeSchema,
  type IdentityProviderMapper, type IdentityProviderMapperType,
} from "../../../gen/iam/broker/v1/identity_provider_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody } from "../http/json-input.js";
import type { RpcClients } from "../rpc-clients.js";

/**
 * Identity provider mappers (Keycloak's /identity-provider/instances/{alias}/mappers, in
 * Tessera's path style): the body and answers are Keycloak's IdentityProviderMapperRepresentation.
 */
export function addIdentityProviderMapperRoutes(table: RouteTable, rpc: RpcClients): void {
  const base = "/admin/realms/:realmName/identity-providers/:alias";
  const at = (req: { params: Record<string, unknown> }) => ({ realm: String(req.params.realmName), alias: String(req.params.alias) });
  const idOf = (req: { params: Record<string, unknown> }) => String(req.params.mapperId);
  table
    .add("GET", `${base}/mapper-types`, "admin", async (req) => {
      const res = await rpc.identityProviders.listIdentityProviderMapperTypes(at(req));
      return { status: 200, body: res.types.map(typeJson) };
    })
    .add("GET", `${base}/mappers`, "admin", async (req) => {
      const res = await rpc.identityProviders.listIdentityProviderMappers(at(req));
      return { status: 200, body: res.mappers.map(mapperJson) };
    })
    .add("POST", `${base}/mappers`, "admin", async (req) => {
      const mapper = parseBody(IdentityProviderMapperInputSchema, req.body);
      const res = await rpc.identityProviders.createIdentityProviderMapper({ ...at(req), mapper });
      return { status: 201, body: mapperJson(res.mapper) };
    })
    .add("GET", `${base}/mappers/:mapperId`, "admin", async (req) => {
      const res = await rpc.identityProviders.getIdentityProviderMapper({ ...at(req), id: idOf(req) });
      return { status: 200, body: mapperJson(res.mapper) };
    })
    .add("PUT", `${base}/mappers/:mapperId`, "admin", async (req) => {
      const mapper = parseBody(IdentityProviderMapperInputSchema, req.body);
      const res = await rpc.identityProviders.updateIdentityProviderMapper({ ...at(req), id: idOf(req), mapper });
      return { status: 200, body: mapperJson(res.mapper) };
    })
    .add("DELETE", `${base}/mappers/:mapperId`, "admin", async (req) => {
      await rpc.identityProviders.deleteIdentityProviderMapper({ ...at(req), id: idOf(req) });
      return { status: 204 };
    });
}

export function mapperJson(m: IdentityProviderMapper | undefined): Record<string, unknown> {
  return m ? (toJson(IdentityProviderMapperSchema, m, { alwaysEmitImplicit: true }) as Record<string, unknown>) : {};
}

function typeJson(t: IdentityProviderMapperType): Record<string, unknown> {
  return toJson(IdentityProviderMapperTypeSchema, t, { alwaysEmitImplicit: true }) as Record<string, unknown>;
}
