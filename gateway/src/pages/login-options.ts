import { deepFreeze } from "../../../services/kit/src/deep-freeze.js";
import { ReadCache } from "../../../services/kit/src/read-cache.js";
import type { RpcClients } from "../rpc-clients.js";
import { organizationsOff } from "../http/organizations-off.js";

/** An identity provider as the login page offers it (spec 4.19). */
export interface LoginProvider {
  alias: string;
  displayName: string;
}

/**
 * How long a realm's login options are reused. This gateway's Admin API writes to the realm drop
 * them at once (`dropOnAdminWrite`), and so do the directory's realm events in every replica
 * (cache-watchers.ts); the age bounds what another replica keeps showing after a change of
 * providers or organizations made elsewhere, as LOOK_CACHE_MS does for the realm's look.
 */
export const LOGIN_OPTIONS_CACHE_MS = 5_000;

/**
 * What a realm's login page offers besides its look: the identity providers' buttons (and the
 * providers a `kc_idp_hint` may name), and whether the realm has organizations (the
 * identity-first step). Every login page asked the broker and the directory for both, two calls
 * and three store reads per page; they change only when an administrator edits the realm
 * (docs/performance.md). A failed call is not cached: it rejects, and the caller falls back as
 * before (no buttons, the usual form).
 */
export class LoginOptions {
  private readonly providerCache: ReadCache<readonly LoginProvider[]>;
  private readonly organizationCache: ReadCache<boolean>;

  constructor(private readonly rpc: RpcClients, now: () => number = () => performance.now()) {
    this.providerCache = new ReadCache(LOGIN_OPTIONS_CACHE_MS, now);
    this.organizationCache = new ReadCache(LOGIN_OPTIONS_CACHE_MS, now);
  }

  /** The realm's enabled identity providers, in the broker's order. */
  async providers(realm: string): Promise<readonly LoginProvider[]> {
    return (await this.providerCache.get(realm, async () => {
      const { providers } = await this.rpc.brokerLogin.listLoginProviders({ realm });
      return deepFreeze(providers.map((p) => ({ alias: p.alias, displayName: p.displayName })));
    })) ?? [];
  }

  /**
   * Whether the realm's organizations are in effect and there is at least one (Keycloak 26's
   * isEnabledAndOrganizationsPresent): a realm whose organizationsEnabled is off has none to route to.
   */
  async hasOrganizations(realm: string): Promise<boolean> {
    return (await this.organizationCache.get(realm, async () => {
      try {
        return (await this.rpc.organizations.countOrganizations({ realm })).count > 0n;
      } catch (e) {
        if (organizationsOff(e)) return false;
        throw e;
      }
    })) ?? false;
  }

  /** Drops one realm's options, or every realm's. */
  forget(realm?: string): void {
    if (realm === undefined) {
      this.providerCache.dropWhere("");
      this.organizationCache.dropWhere("");
      return;
    }
    this.providerCache.drop(realm);
    this.organizationCache.drop(realm);
  }
}
