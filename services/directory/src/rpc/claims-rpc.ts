import type { ServiceImpl } from "@connectrpc/connect";
import type { ClaimsService } from "../../../../gen/iam/directory/v1/claims_pb.js";
import type { ClaimsResolver } from "../domain/claims-resolver.js";

/** Thin handler: the claims of a user for a client, as JSON per token. */
export function claimsRpc(resolver: ClaimsResolver): ServiceImpl<typeof ClaimsService> {
  return {
    async resolveClaims(req) {
      const r = await resolver.resolve(req.realm, req.userId, req.clientId, req.scopes, req.onlyRequested, req.fromStore);
      return {
        accessTokenClaimsJson: JSON.stringify(r.access),
        idTokenClaimsJson: JSON.stringify(r.id),
        userinfoClaimsJson: JSON.stringify(r.userinfo),
        grantedScopes: r.grantedScopes,
        realmRoles: r.realmRoles,
        clientRoles: r.clientRoles,
      };
    },
  };
}
