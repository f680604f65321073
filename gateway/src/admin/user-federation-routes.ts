import { toJson } from "@bufbuild/protobuf";
import { ProviderInputSchema, ProviderSchema, SyncResultSchema, type Provider, type SyncResult } from "../../../gen/iam/federation/v1/federation_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody } from "../http/json-input.js";
import { GatewayError } from "../http/rpc-errors.js";
import type { RpcClients } from "../rpc-clients.js";

/**
 * User federation (LDAP) Admin API (spec 2.10, 4.11; methods of DESIGN 7). Test connection answers
 * `{ success: true }`, or 400 with `{ success: false, error, message }` saying what failed (as
 * Keycloak's answers 400 to a failed test).
 */
export function addUserFederationRoutes(table: RouteTable, rpc: RpcClients): void {
  const base = "/admin/realms/:realmName/user-federation";
  const ref = (req: { params: Record<string, unknown> }) => ({ realm: String(req.params.realmName), id: String(req.params.id ?? "") });
  table
    .add("POST", base, "admin", async (req) => {
      const provider = parseBody(ProviderInputSchema, req.body);
      const res = await rpc.federation.createProvider({ realm: ref(req).realm, provider });
      return { status: 201, body: providerJson(res.provider) };
    })
    .add("GET", base, "admin", async (req) => {
      const res = await rpc.federation.listProviders({ realm: ref(req).realm });
      return { status: 200, body: res.providers.map(providerJson) };
    })
    .add("GET", `${base}/:id`, "admin", async (req) => {
      const res = await rpc.federation.getProvider(ref(req));
      return { status: 200, body: providerJson(res.provider) };
    })
    .add("PUT", `${base}/:id`, "admin", async (req) => {
      const provider = parseBody(ProviderInputSchema, req.body);
      const res = await rpc.federation.updateProvider({ ...ref(req), provider });
      return { status: 200, body: providerJson(res.provider) };
    })
    .add("DELETE", `${base}/:id`, "admin", async (req) => {
      const res = await rpc.federation.deleteProvider(ref(req));
      return { status: 200, body: providerJson(res.provider) };
    })
    .add("POST", `${base}/:id/test-connection`, "admin", async (req) => {
      const res = await rpc.federation.testConnection(ref(req));
      if (res.success) return { status: 200, body: { success: true } };
      return { status: 400, body: { success: false, error: res.error, message: res.message } };
    })
    .add("POST", `${base}/:id/sync`, "admin", async (req) => {
      // Keycloak's query: ?action=triggerFullSync (the default) or triggerChangedUsersSync.
      const action = req.query.action === undefined ? "triggerFullSync" : String(req.query.action);
      if (action !== "triggerFullSync" && action !== "triggerChangedUsersSync") {
        throw new GatewayError(400, "invalid_request", "action must be triggerFullSync or triggerChangedUsersSync", "action");
      }
      const res = await rpc.federation.syncProvider({ ...ref(req), changedOnly: action === "triggerChangedUsersSync" });
      return { status: 200, body: syncJson(res.result) };
    });
}

function providerJson(p: Provider | undefined): Record<string, unknown> {
  if (!p) return {};
  const json = toJson(ProviderSchema, p, { alwaysEmitImplicit: true }) as Record<string, unknown>;
  if (json.lastSync === undefined) delete json.lastSync;
  return json;
}

function syncJson(r: SyncResult | undefined): Record<string, unknown> {
  return r ? (toJson(SyncResultSchema, r, { alwaysEmitImplicit: true }) as Record<string, unknown>) : {};
}
