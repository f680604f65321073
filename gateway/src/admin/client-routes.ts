import { toJson } from "@bufbuild/protobuf";
import {
  ClientInputSchema, ClientSchema, ClientUpdateSchema, ServiceAccountUserSchema, type Client,
} from "../../../gen/iam/directory/v1/client_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody } from "../http/json-input.js";
import type { ClientOrigins } from "../oidc/cors.js";
import type { RpcClients } from "../rpc-clients.js";

const has = (body: unknown, key: string) => Object.prototype.hasOwnProperty.call(body, key);

/** Client Admin API (spec 1.11, 2.3, 4.3). The secret appears only in create and regenerate replies. */
export function addClientRoutes(table: RouteTable, rpc: RpcClients, origins: ClientOrigins): void {
  const base = "/admin/realms/:realmName/clients";
  const realm = (req: { params: Record<string, unknown> }) => String(req.params.realmName);
  const clientId = (req: { params: Record<string, unknown> }) => String(req.params.clientId);
  table
    .add("POST", base, "admin", async (req) => {
      const client = parseBody(ClientInputSchema, req.body, ["grantTypesPresent"]);
      client.grantTypesPresent = has(req.body, "grantTypes");
      const res = await rpc.clients.createClient({ realm: realm(req), client });
      return { status: 201, body: clientJson(res.client) };
    })
    .add("GET", base, "admin", async (req) => {
      const res = await rpc.clients.listClients({ realm: realm(req) });
      return { status: 200, body: res.clients.map(clientJson) };
    })
    .add("GET", `${base}/:clientId`, "admin", async (req) => {
      const res = await rpc.clients.getClient({ realm: realm(req), clientId: clientId(req) });
      return { status: 200, body: clientJson(res.client) };
    })
    .add("PUT", `${base}/:clientId`, "admin", async (req) => {
      const update = parseBody(ClientUpdateSchema, req.body, ["redirectUrisPresent", "webOriginsPresent", "grantTypesPresent"]);
      update.redirectUrisPresent = has(req.body, "redirectUris");
      update.webOriginsPresent = has(req.body, "webOrigins");
      update.grantTypesPresent = has(req.body, "grantTypes");
      const res = await rpc.clients.updateClient({ realm: realm(req), clientId: clientId(req), update });
      origins.forget(realm(req), clientId(req));
      return { status: 200, body: clientJson(res.client) };
    })
    .add("DELETE", `${base}/:clientId`, "admin", async (req) => {
      await rpc.clients.deleteClient({ realm: realm(req), clientId: clientId(req) });
      origins.forget(realm(req), clientId(req));
      return { status: 204 };
    })
    .add("POST", `${base}/:clientId/regenerate-secret`, "admin", async (req) => {
      const res = await rpc.clients.regenerateClientSecret({ realm: realm(req), clientId: clientId(req) });
      return { status: 200, body: clientJson(res.client) };
    })
    .add("GET", `${base}/:clientId/service-account-user`, "admin", async (req) => {
      const res = await rpc.clients.getServiceAccountUser({ realm: realm(req), clientId: clientId(req) });
      return { status: 200, body: res.user ? toJson(ServiceAccountUserSchema, res.user, { alwaysEmitImplicit: true }) : {} };
    });
}

export function clientJson(client: Client | undefined): Record<string, unknown> {
  if (!client) return {};
  return toJson(ClientSchema, client, { alwaysEmitImplicit: true }) as Record<string, unknown>;
}
