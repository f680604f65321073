import { create, fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { ListValueSchema } from "@bufbuild/protobuf/wkt";
import {
  AuthenticationFlowInputSchema, AuthenticationFlowSchema, type AuthenticationFlow, type AuthenticationFlowInput,
} from "../../../gen/iam/directory/v1/authentication_flow_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { requireObject } from "../http/json-input.js";
import { GatewayError } from "../http/rpc-errors.js";
import type { RpcClients } from "../rpc-clients.js";
import { intParam } from "./event-routes.js";

/** Read-only fields of the representation, accepted back unchanged so a GET body can be PUT. */
const READ_ONLY = new Set(["id", "builtIn", "createdAt", "updatedAt"]);
export const MAX_FLOWS_PAGE = 1000;

/** A realm's authentication flows (docs/authentication-flows.md; Keycloak's Authentication > Flows). */
export function addAuthenticationFlowRoutes(table: RouteTable, rpc: RpcClients): void {
  const base = "/admin/realms/:realmName/authentication/flows";
  const realmOf = (req: { params: Record<string, unknown> }) => String(req.params.realmName);
  const idOf = (req: { params: Record<string, unknown> }) => String(req.params.flowId);
  table
    .add("POST", base, "admin", async (req) => {
      const res = await rpc.authenticationFlows.createFlow({ realm: realmOf(req), flow: flowInput(req.body) });
      const body = flowJson(res.flow);
      // A relative reference (RFC 9110 §10.2.2), so no Host header is trusted to build it.
      return { status: 201, body, headers: { location: `/admin/realms/${encodeURIComponent(realmOf(req))}/authentication/flows/${String(body.id)}` } };
    })
    .add("GET", base, "admin", async (req) => {
      const max = intParam(req, "max");
      if (req.query.max !== undefined && (max < 1 || max > MAX_FLOWS_PAGE)) {
        throw new GatewayError(400, "invalid_request", `max must be between 1 and ${MAX_FLOWS_PAGE}`, "max");
      }
      const res = await rpc.authenticationFlows.listFlows({ realm: realmOf(req), first: intParam(req, "first"), max });
      return { status: 200, body: res.flows.map(flowJson) };
    })
    .add("GET", `${base}/:flowId`, "admin", async (req) => {
      const res = await rpc.authenticationFlows.getFlow({ realm: realmOf(req), id: idOf(req) });
      return { status: 200, body: flowJson(res.flow) };
    })
    .add("PUT", `${base}/:flowId`, "admin", async (req) => {
      const res = await rpc.authenticationFlows.updateFlow({ realm: realmOf(req), id: idOf(req), flow: flowInput(req.body) });
      return { status: 200, body: flowJson(res.flow) };
    })
    .add("DELETE", `${base}/:flowId`, "admin", async (req) => {
      await rpc.authenticationFlows.deleteFlow({ realm: realmOf(req), id: idOf(req) });
      return { status: 204 };
    });
}

/** The JSON body as the RPC's input: unknown fields and wrong types are a 400 naming the field; the steps are checked by the directory. */
function flowInput(body: unknown): AuthenticationFlowInput {
  const obj = requireObject(body);
  const input = create(AuthenticationFlowInputSchema);
  for (const [key, value] of Object.entries(obj)) {
    if (READ_ONLY.has(key)) continue;
    if (key === "alias" || key === "description") {
      if (typeof value !== "string") throw new GatewayError(400, "invalid_request", `${key} must be a string`, key);
      input[key] = value;
    } else if (key === "steps") {
      if (!Array.isArray(value) || value.length === 0) throw new GatewayError(400, "invalid_request", "steps must be a non-empty array", "steps");
      input.steps = fromJson(ListValueSchema, value as JsonValue);
    } else {
      throw new GatewayError(400, "unknown_field", `unknown or read-only field: ${key}`, key);
    }
  }
  return input;
}

function flowJson(f: AuthenticationFlow | undefined): Record<string, unknown> {
  if (!f) return {};
  const json = toJson(AuthenticationFlowSchema, f, { alwaysEmitImplicit: true }) as Record<string, unknown>;
  json.steps ??= [];
  return json;
}
