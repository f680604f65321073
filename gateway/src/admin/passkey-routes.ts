import type { Request } from "express";
import type { RouteTable } from "../http/route-table.js";
import type { RpcClients } from "../rpc-clients.js";
import type { Passkey } from "../../../gen/iam/directory/v1/passkey_pb.js";

const PASSKEYS = "/admin/realms/:realmName/users/:userId/passkeys";

/**
 * A user's passkeys (WebAuthn credentials) in the Admin API: listed (a user has at most 20, so
 * the list is whole) and removed one at a time (204, a DELETE admin event). Keycloak users find
 * these among the user's credentials, typed "webauthn-passwordless"; the public key is not shown.
 */
export function addPasskeyRoutes(table: RouteTable, rpc: RpcClients): void {
  table
    .add("GET", PASSKEYS, "admin", async (req) => {
      const res = await rpc.passkeys.listPasskeys(userRef(req));
      return { status: 200, body: res.passkeys.map(passkeyView) };
    })
    .add("DELETE", `${PASSKEYS}/:passkeyId`, "admin", async (req) => {
      await rpc.passkeys.deletePasskey({ ...userRef(req), passkeyId: String(req.params.passkeyId) });
      return { status: 204 };
    });
}

export function passkeyView(k: Passkey): Record<string, unknown> {
  return {
    id: k.id, type: "webauthn-passwordless", userLabel: k.label, credentialId: k.credentialId, transports: [...k.transports],
    signCount: Number(k.signCount), backedUp: k.backedUp, createdDate: Number(k.created), lastUsedDate: k.lastUsed > 0n ? Number(k.lastUsed) : null,
  };
}

function userRef(req: Request): { realm: string; userId: string } {
  return { realm: String(req.params.realmName), userId: String(req.params.userId) };
}
