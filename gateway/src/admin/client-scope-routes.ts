import { toJson } from "@bufbuild/protobuf";
import type { Request } from "express";
import {
  ClientScopeInputSchema, ClientScopeSchema, ClientScopeUpdateSchema, ProtocolMapperInputSchema, ProtocolMapperSchema,
  ProtocolMapperUpdateSchema, ScopeAssignmentInputSchema, ScopeAssignmentSchema, ScopeKind, type ClientScope,
} from "../../../gen/iam/directory/v1/client_scope_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody } from "../http/json-input.js";
import type { RpcClients } from "../rpc-clients.js";

/** Client scopes, protocol mappers and client scope assignments (spec 2.8, 4.9). */
export function addClientScopeRoutes(table: RouteTable, rpc: RpcClients): void {
  const base = "/admin/realms/:realmName/client-scopes";
  const realm = (req: Request) => String(req.params.realmName);
  const scopeId = (req: Request) => String(req.params.scopeId);
  const mapperId = (req: Request) => String(req.params.mapperId);
  table
    .add("POST", base, "admin", async (req) => {
      const res = await rpc.clientScopes.createClientScope({ realm: realm(req), scope: parseBody(ClientScopeInputSchema, req.body) });
      return { status: 201, body: scopeJson(res.scope) };
    })
    .add("GET", base, "admin", async (req) => {
      const res = await rpc.clientScopes.listClientScopes({ realm: realm(req) });
      return { status: 200, body: res.scopes.map(scopeJson) };
    })
    .add("GET", `${base}/:scopeId`, "admin", async (req) => {
      const res = await rpc.clientScopes.getClientScope({ realm: realm(req), scopeId: scopeId(req) });
      return { status: 200, body: scopeJson(res.scope) };
    })
    .add("PUT", `${base}/:scopeId`, "admin", async (req) => {
      const update = parseBody(ClientScopeUpdateSchema, req.body);
      const res = await rpc.clientScopes.updateClientScope({ realm: realm(req), scopeId: scopeId(req), update });
      return { status: 200, body: scopeJson(res.scope) };
    })
    .add("DELETE", `${base}/:scopeId`, "admin", async (req) => {
      await rpc.clientScopes.deleteClientScope({ realm: realm(req), scopeId: scopeId(req) });
      return { status: 204 };
    })
    .add("POST", `${base}/:scopeId/protocol-mappers`, "admin", async (req) => {
      const mapper = parseBody(ProtocolMapperInputSchema, req.body);
      const res = await rpc.clientScopes.createProtocolMapper({ realm: realm(req), scopeId: scopeId(req), mapper });
      return { status: 201, body: mapperJson(res.mapper) };
    })
    .add("PUT", `${base}/:scopeId/protocol-mappers/:mapperId`, "admin", async (req) => {
      const update = parseBody(ProtocolMapperUpdateSchema, req.body, ["configPresent"]);
      update.configPresent = Object.prototype.hasOwnProperty.call(req.body, "config");
      const res = await rpc.clientScopes.updateProtocolMapper({ realm: realm(req), scopeId: scopeId(req), mapperId: mapperId(req), update });
      return { status: 200, body: mapperJson(res.mapper) };
    })
    .add("DELETE", `${base}/:scopeId/protocol-mappers/:mapperId`, "admin", async (req) => {
      await rpc.clientScopes.deleteProtocolMapper({ realm: realm(req), scopeId: scopeId(req), mapperId: mapperId(req) });
      return { status: 204 };
    });

  for (const [segment, kind] of [["default-client-scopes", ScopeKind.DEFAULT], ["optional-client-scopes", ScopeKind.OPTIONAL]] as const) {
    const path = `/admin/realms/:realmName/clients/:clientId/${segment}`;
    const ids = (req: Request) => ({ realm: realm(req), clientId: String(req.params.clientId), kind });
    table
      .add("GET", path, "admin", async (req) => {
        const res = await rpc.clientScopes.listScopeAssignments(ids(req));
        return { status: 200, body: res.scopes.map(scopeJson) };
      })
      .add("POST", path, "admin", async (req) => {
        const input = parseBody(ScopeAssignmentInputSchema, req.body);
        const res = await rpc.clientScopes.assignScope({ ...ids(req), clientScopeId: input.clientScopeId ?? "" });
        return { status: 200, body: res.assignment ? toJson(ScopeAssignmentSchema, res.assignment, { alwaysEmitImplicit: true }) : {} };
      })
      .add("DELETE", `${path}/:scopeId`, "admin", async (req) => {
        await rpc.clientScopes.removeScopeAssignment({ ...ids(req), scopeId: scopeId(req) });
        return { status: 204 };
      });
  }
}

function scopeJson(scope: ClientScope | undefined): unknown {
  return scope ? toJson(ClientScopeSchema, scope, { alwaysEmitImplicit: true }) : {};
}

function mapperJson(mapper: Parameters<typeof toJson<typeof ProtocolMapperSchema>>[1] | undefined): unknown {
  return mapper ? toJson(ProtocolMapperSchema, mapper, { alwaysEmitImplicit: true }) : {};
}
