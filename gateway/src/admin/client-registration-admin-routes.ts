import { toJson } from "@bufbuild/protobuf";
import {
  InitialAccessTokenInputSchema, InitialAccessTokenSchema, RegistrationPolicySchema, RegistrationPolicyUpdateSchema,
  type InitialAccessToken, type RegistrationPolicy,
} from "../../../gen/iam/directory/v1/client_registration_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody } from "../http/json-input.js";
import { intParam } from "./event-routes.js";
import type { RpcClients } from "../rpc-clients.js";

const has = (body: unknown, key: string) => Object.prototype.hasOwnProperty.call(body, key);
/** The created token's value is in the answer this once. */
const NO_STORE = { "Cache-Control": "no-store" };

/**
 * What authorizes dynamic client registration (docs/dynamic-registration.md): initial access
 * tokens at Keycloak's path, and the realm's registration policy.
 */
export function addClientRegistrationAdminRoutes(table: RouteTable, rpc: RpcClients): void {
  const base = "/admin/realms/:realmName/clients-initial-access";
  const realm = (req: { params: Record<string, unknown> }) => String(req.params.realmName);
  table
    .add("POST", base, "admin", async (req) => {
      const input = parseBody(InitialAccessTokenInputSchema, req.body);
      const res = await rpc.clientRegistrations.createInitialAccessToken({ realm: realm(req), input });
      return { status: 201, body: tokenJson(res.token), headers: NO_STORE };
    })
    .add("GET", base, "admin", async (req) => {
      const res = await rpc.clientRegistrations.listInitialAccessTokens({ realm: realm(req), first: intParam(req, "first"), max: intParam(req, "max") });
      return { status: 200, body: res.tokens.map(tokenJson) };
    })
    .add("DELETE", `${base}/:id`, "admin", async (req) => {
      await rpc.clientRegistrations.deleteInitialAccessToken({ realm: realm(req), id: String(req.params.id) });
      return { status: 204 };
    })
    .add("GET", "/admin/realms/:realmName/client-registration-policy", "admin", async (req) => {
      const res = await rpc.clientRegistrations.getRegistrationPolicy({ realm: realm(req) });
      return { status: 200, body: policyJson(res.policy) };
    })
    .add("PUT", "/admin/realms/:realmName/client-registration-policy", "admin", async (req) => {
      const update = parseBody(RegistrationPolicyUpdateSchema, req.body, ["allowedRedirectUriHostsPresent", "allowedGrantTypesPresent"]);
      update.allowedRedirectUriHostsPresent = has(req.body, "allowedRedirectUriHosts");
      update.allowedGrantTypesPresent = has(req.body, "allowedGrantTypes");
      const res = await rpc.clientRegistrations.updateRegistrationPolicy({ realm: realm(req), update });
      return { status: 200, body: policyJson(res.policy) };
    });
}

function tokenJson(t: InitialAccessToken | undefined): Record<string, unknown> {
  return t ? toJson(InitialAccessTokenSchema, t, { alwaysEmitImplicit: true }) as Record<string, unknown> : {};
}

function policyJson(p: RegistrationPolicy | undefined): Record<string, unknown> {
  return p ? toJson(RegistrationPolicySchema, p, { alwaysEmitImplicit: true }) as Record<string, unknown> : {};
}
