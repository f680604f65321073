import type { ServiceImpl } from "@connectrpc/connect";
import { FederatedUserService, UpsertOutcome } from "../../../../gen/iam/directory/v1/federated_user_pb.js";
import type { FederatedUsers } from "../domain/federated-users.js";

/** Thin handlers: check -> domain -> convert. */
export function federatedUserRpc(users: FederatedUsers): ServiceImpl<typeof FederatedUserService> {
  return {
    async upsertFederatedUsers(req) {
      const results = await users.upsertMany(req.realm, req.providerId, req.entries);
      return { results: results.map((r) => ({ ...r, outcome: UpsertOutcome[r.outcome] })) };
    },
    async listFederationLinks(req) {
      const page = await users.links(req.realm, req.providerId, req.skip, req.limit);
      return { links: page.map((u) => ({ userId: u._id, externalId: u.federationExternalId ?? "", missing: u.federationMissing === true })) };
    },
    async releaseFederatedUsers(req) {
      return { released: await users.release(req.realm, req.providerId, req.userIds, req.unlink) };
    },
    async removeFederatedUsers(req) {
      return { removed: await users.removeAll(req.realm, req.providerId) };
    },
  };
}
