import type { ServiceImpl } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ClaimsService, ResolveClaimsResponseSchema } from "../../../../gen/iam/directory/v1/claims_pb.js";
import type { ClaimsResolver, ResolvedClaims } from "../domain/claims-resolver.js";
import { NO_SESSION, type LoginSession } from "../domain/plugin-claims.js";

type ClaimsReply = MessageInitShape<typeof ResolveClaimsResponseSchema>;

/**
 * Thin handler: the claims of a user for a client, as JSON per token. A cached resolution
 * (ResolvedClaimsCache) is the same frozen object each time, so its reply is built once.
 */
export function claimsRpc(resolver: ClaimsResolver): ServiceImpl<typeof ClaimsService> {
  const replies = new WeakMap<ResolvedClaims, ClaimsReply>();
  const replyOf = (r: ResolvedClaims): ClaimsReply => {
    let reply = replies.get(r);
    if (!reply) {
      reply = {
        accessTokenClaimsJson: JSON.stringify(r.access),
        idTokenClaimsJson: JSON.stringify(r.id),
        userinfoClaimsJson: JSON.stringify(r.userinfo),
        grantedScopes: r.grantedScopes,
        realmRoles: r.realmRoles,
        clientRoles: r.clientRoles,
      };
      if (Object.isFrozen(r)) replies.set(r, reply);
    }
    return reply;
  };
  return {
    async resolveClaims(req) {
      const resolved = await resolver.resolve(req.realm, req.userId, req.clientId, req.scopes, req.onlyRequested, req.fromStore, sessionOf(req));
      // Introspection's claims only for introspection, which asks for them rarely (claims-engine.ts
      // introspectionDiffers): the token grants' replies stay as short as before.
      return req.introspection ? { ...replyOf(resolved), introspectionClaimsJson: JSON.stringify(resolved.introspection) } : replyOf(resolved);
    },
  };
}

/** The request's login (proto ResolveClaimsRequest session_id, auth_time); NO_SESSION, shared, when it names none. */
function sessionOf(req: { sessionId: string; authTime?: bigint | undefined }): LoginSession {
  if (!req.sessionId) return NO_SESSION;
  return { id: req.sessionId, authTime: req.authTime === undefined ? undefined : Number(req.authTime) };
}
