import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { ClientScopeService } from "../../../../gen/iam/directory/v1/client_scope_pb.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { ReadCache } from "../../../kit/src/read-cache.js";

/** The protocol of the client scopes discovery lists (spec 2.8: a scope is OIDC or SAML). */
const OIDC = "openid-connect";

/** A cached list lives at most this long even without an invalidation event. */
const MAX_AGE_MS = 30_000;

/**
 * Discovery's `scopes_supported` (OIDC Discovery 1.0 section 3: "the OAuth 2.0 scope values that
 * this server supports"), per realm: `openid` and the names of the realm's OpenID Connect client
 * scopes, in the directory's name order, as Keycloak lists them, so a scope an admin creates
 * appears and a deleted built-in goes. Discovery is a hot public path (benchmarked), so the list
 * is read from the directory once per realm and kept: dropped in every replica on
 * `token-config.changed` (the directory announces every client scope write with it) and on
 * realm.deleted (cache-watchers.ts), and after MAX_AGE_MS as a safety net for a missed event.
 * Only realms discovery already resolved are asked for, and misses are not cached (ReadCache).
 */
export class DiscoveryScopes {
  private readonly client: Client<typeof ClientScopeService>;
  private readonly cache: ReadCache<string[]>;

  constructor(transport: Transport, clock: Clock) {
    this.client = createClient(ClientScopeService, transport);
    this.cache = new ReadCache(MAX_AGE_MS, () => clock.now());
  }

  /** The realm's supported scope values; just `openid` when the directory no longer knows the realm. */
  async supported(realm: string): Promise<string[]> {
    return (await this.cache.get(realm, () => this.read(realm))) ?? ["openid"];
  }

  /** Drops one realm's list, or (no realm) every list. */
  invalidate(realm?: string): void {
    if (realm === undefined) this.cache.dropWhere("");
    else this.cache.drop(realm);
  }

  private async read(realm: string): Promise<string[] | null> {
    try {
      const { scopes } = await this.client.listClientScopes({ realm });
      const names = scopes.filter((s) => s.protocol === OIDC).map((s) => s.name);
      return ["openid", ...names.filter((n) => n !== "openid")];
    } catch (e) {
      if (e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.InvalidArgument)) return null;
      throw e;
    }
  }
}
