import type { Request } from "express";
import type { RouteTable } from "../http/route-table.js";
import type { RpcClients } from "../rpc-clients.js";
import { strParam } from "./event-routes.js";

const EVALUATE = "/admin/realms/:realmName/clients/:clientId/evaluate-scopes";

/**
 * Keycloak's client scope evaluation (Clients -> Client scopes -> Evaluate): the claims of the
 * access token, ID token and userinfo the client would get for `userId` and the `scope` parameter
 * (query), as the token endpoint builds them, neither signed nor stored.
 */
export function addScopeEvaluationRoutes(table: RouteTable, rpc: RpcClients, publicUrl: string): void {
  const example = async (req: Request) => rpc.scopeEvaluation.generateExampleTokens({
    realm: String(req.params.realmName), clientId: String(req.params.clientId),
    userId: strParam(req, "userId"), scope: strParam(req, "scope"), baseUrl: publicUrl,
  });
  table
    .add("GET", `${EVALUATE}/generate-example-access-token`, "admin", async (req) => ({ status: 200, body: (await example(req)).accessToken ?? {} }))
    .add("GET", `${EVALUATE}/generate-example-id-token`, "admin", async (req) => ({ status: 200, body: (await example(req)).idToken ?? {} }))
    .add("GET", `${EVALUATE}/generate-example-userinfo`, "admin", async (req) => ({ status: 200, body: (await example(req)).userinfo ?? {} }));
}
