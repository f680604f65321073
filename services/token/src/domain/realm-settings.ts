import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { RealmScope } from "./realm-scope.js";
import { ReadCache } from "../../../kit/src/read-cache.js";

/** The realm settings the OAuth endpoints read (spec 2.1): lifespans and events. */
export interface OAuthRealm extends RealmScope {
  accessTokenLifespan: number;
  refreshTokenLifespan: number;
  offlineTokenLifespan: number;
  eventsEnabled: boolean;
  eventsExpiration: number;
  /** Whether the sessions admin records admin events (spec 2.7). */
  adminEventsEnabled: boolean;
  /** Self-service registration (spec 2.1), read by the browser flow. */
  registrationAllowed: boolean;
  /** Seconds a login may last however active it stays; 0 for no bound (session-max.ts). */
  ssoSessionMaxLifespan: number;
  /** Keycloak's "Remember me": the login page offers it; read by the browser flow. */
  rememberMe: boolean;
  /** The idle and absolute bounds of a remember-me login, in seconds; 0 = the usual ones (session-max.ts forLogin). */
  ssoSessionIdleTimeoutRememberMe: number;
  ssoSessionMaxLifespanRememberMe: number;
  /** "Forgot password?" (Keycloak's resetPasswordAllowed), read by the browser flow. */
  resetPasswordAllowed: boolean;
  /** RFC 9126 section 6: every client must push its authorization requests. */
  requirePushedAuthorizationRequests: boolean;
  /** The aliases of its browser and direct-grant authentication flows (absent: the built-in ones). */
  browserFlow?: string;
  directGrantFlow?: string;
}

const MAX_AGE_MS = 5_000;

/**
 * Realm settings cached for the token endpoint's and the browser flow's hot paths: read from the
 * directory at most once per MAX_AGE_MS per realm, dropped at once on
 * `iam.directory.v1.realm.updated` (invalidate). On a ReadCache: the name comes from the URL, so an
 * unknown realm is never cached (one created a moment later serves at once, and made-up names
 * cannot fill memory) and the entries are bounded.
 */
export class RealmSettings {
  private readonly client: Client<typeof RealmService>;
  private readonly cache: ReadCache<OAuthRealm>;

  constructor(transport: Transport, clock: Clock) {
    this.client = createClient(RealmService, transport);
    this.cache = new ReadCache(MAX_AGE_MS, () => clock.now());
  }

  /** The realm, or null when unknown; disabled realms are returned (callers decide). */
  find(name: string): Promise<OAuthRealm | null> {
    return this.cache.get(name, () => this.read(name));
  }

  private async read(name: string): Promise<OAuthRealm | null> {
    try {
      const r = (await this.client.getRealm({ name })).realm;
      if (r) {
        return {
          id: r.id, name: r.name, enabled: r.enabled,
          tokenLifespanSeconds: Math.max(r.accessTokenLifespan, r.refreshTokenLifespan),
          accessTokenLifespan: r.accessTokenLifespan || 300,
          refreshTokenLifespan: r.refreshTokenLifespan || 1800,
          offlineTokenLifespan: r.offlineTokenLifespan || 2_592_000,
          eventsEnabled: r.eventsEnabled,
          eventsExpiration: r.eventsExpiration || 604_800,
          adminEventsEnabled: r.adminEventsEnabled,
          registrationAllowed: r.registrationAllowed,
          ssoSessionMaxLifespan: r.ssoSessionMaxLifespan,
          rememberMe: r.rememberMe,
          ssoSessionIdleTimeoutRememberMe: r.ssoSessionIdleTimeoutRememberMe,
          ssoSessionMaxLifespanRememberMe: r.ssoSessionMaxLifespanRememberMe,
          resetPasswordAllowed: r.resetPasswordAllowed,
          requirePushedAuthorizationRequests: r.requirePushedAuthorizationRequests,
          browserFlow: r.browserFlow, directGrantFlow: r.directGrantFlow,
          uiLocalesSupported: r.internationalizationEnabled ? [...r.supportedLocales] : [],
        };
      }
    } catch (e) {
      if (!(e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.InvalidArgument))) throw e;
    }
    return null;
  }

  /** publicRealm's answer when the realm is cached and enabled, else undefined (then ask publicRealm). */
  cachedPublicRealm(name: string): OAuthRealm | undefined {
    const realm = this.cache.peek(name);
    return realm?.enabled ? realm : undefined;
  }

  /** A realm serving protocol endpoints: unknown or disabled is `realm_not_found` (as RealmMetadata). */
  async publicRealm(name: string): Promise<OAuthRealm> {
    const realm = name ? await this.find(name) : null;
    if (!realm || !realm.enabled) throw IamError.notFound("realm", "realm_not_found");
    return realm;
  }

  /** A realm for the Admin API (disabled realms too). */
  async adminRealm(name: string): Promise<OAuthRealm> {
    const realm = name ? await this.find(name) : null;
    if (!realm) throw IamError.notFound("realm", "realm_not_found");
    return realm;
  }

  invalidate(name?: string): void {
    if (name === undefined) this.cache.dropWhere("");
    else this.cache.drop(name);
  }
}
