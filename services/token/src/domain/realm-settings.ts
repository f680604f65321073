import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { RealmScope } from "./realm-scope.js";

/** The realm settings the OAuth endpoints read (spec 2.1): lifespans and events. */
export interface OAuthRealm extends RealmScope {
  accessTokenLifespan: number;
  refreshTokenLifespan: number;
  offlineTokenLifespan: number;
  eventsEnabled: boolean;
  eventsExpiration: number;
  /** Self-service registration (spec 2.1), read by the browser flow. */
  registrationAllowed: boolean;
}

const MAX_AGE_MS = 5_000;

/**
 * Realm settings cached for the token endpoint's and the browser flow's hot paths: read from the
 * directory at most once per MAX_AGE_MS per realm, dropped at once on
 * `iam.directory.v1.realm.updated` (invalidate).
 */
export class RealmSettings {
  private readonly client: Client<typeof RealmService>;
  private readonly cache = new Map<string, { realm: OAuthRealm | null; at: number }>();

  constructor(transport: Transport, private readonly clock: Clock) {
    this.client = createClient(RealmService, transport);
  }

  /** The realm, or null when unknown (disabled realms included). */
  async find(name: string): Promise<OAuthRealm | null> {
    const hit = this.cache.get(name);
    if (hit && this.clock.now() - hit.at < MAX_AGE_MS) return hit.realm;
    let realm: OAuthRealm | null = null;
    try {
      const r = (await this.client.getRealm({ name })).realm;
      if (r) {
        realm = {
          id: r.id, name: r.name, enabled: r.enabled,
          tokenLifespanSeconds: Math.max(r.accessTokenLifespan, r.refreshTokenLifespan),
          accessTokenLifespan: r.accessTokenLifespan || 300,
          refreshTokenLifespan: r.refreshTokenLifespan || 1800,
          offlineTokenLifespan: r.offlineTokenLifespan || 2_592_000,
          eventsEnabled: r.eventsEnabled,
          eventsExpiration: r.eventsExpiration || 604_800,
          registrationAllowed: r.registrationAllowed,
        };
      }
    } catch (e) {
      if (!(e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.InvalidArgument))) throw e;
    }
    this.cache.set(name, { realm, at: this.clock.now() });
    return realm;
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
    if (name === undefined) this.cache.clear();
    else this.cache.delete(name);
  }
}
