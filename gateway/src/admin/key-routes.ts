import { toJson } from "@bufbuild/protobuf";
import { RotateKeysRequestSchema, SigningKeySchema, type SigningKey } from "../../../gen/iam/token/v1/token_pb.js";
import type { RouteTable } from "../http/route-table.js";
import { parseBody } from "../http/json-input.js";
import type { RpcClients } from "../rpc-clients.js";

/** Realm signing keys (Admin API): list and rotate. Only public material is ever returned. */
export function addKeyRoutes(table: RouteTable, rpc: RpcClients): void {
  table
    .add("GET", "/admin/realms/:realmName/keys", "admin", async (req) => {
      const res = await rpc.token.listKeys({ realm: String(req.params.realmName) });
      return { status: 200, body: res.keys.map(keyJson) };
    })
    .add("POST", "/admin/realms/:realmName/keys/rotate", "admin", async (req) => {
      const input = parseBody(RotateKeysRequestSchema, req.body ?? {}, ["realm"]);
      const res = await rpc.token.rotateKeys({ ...input, realm: String(req.params.realmName) });
      return { status: 200, body: res.keys.map(keyJson) };
    });
}

function keyJson(k: SigningKey): Record<string, unknown> {
  const { kid, alg, status, createdAt, rotatedAt, notAfter, publicKey } = toJson(SigningKeySchema, k) as Record<string, unknown>;
  return {
    kid, alg, status, use: "sig", createdAt,
    ...(rotatedAt ? { rotatedAt } : {}), ...(notAfter ? { notAfter } : {}), publicKey,
  };
}
