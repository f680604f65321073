import { createRouterTransport, type Transport } from "@connectrpc/connect";
import { FederationService } from "../../../../gen/iam/federation/v1/federation_pb.js";

/**
 * A federation service with no LDAP provider in any realm, for in-process test worlds that run
 * the directory without it: AuthenticatePassword's fallback finds no entry, so unknown usernames
 * stay unknown. Test use only.
 */
export function noFederationTransport(): Transport {
  return createRouterTransport((r) => r.service(FederationService, { findEntry: async () => ({ found: false }) }));
}
