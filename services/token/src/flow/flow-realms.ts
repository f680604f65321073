import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import type { RealmScope } from "../domain/realm-scope.js";

/** What the browser flow needs of a realm (owned by the directory). */
export interface FlowRealm extends RealmScope {
  /** SSO sessions idle out after this (SsoSessionRecord.expiresAt). */
  refreshTokenLifespanSeconds: number;
  /** Login events (spec 6.1) and self-service registration (spec 2.1). */
  eventsEnabled: boolean;
  eventsExpiration: number;
  registrationAllowed: boolean;
}

/** Realm lookups through the directory's generated client. */
export class FlowRealms {
  private readonly client: Client<typeof RealmService>;

  constructor(transport: Transport) {
    this.client = createClient(RealmService, transport);
  }

  /** The enabled realm, or null when unknown or disabled. */
  async get(name: string): Promise<FlowRealm | null> {
    try {
      const { realm } = await this.client.getRealm({ name });
      if (!realm || !realm.enabled) return null;
      return {
        id: realm.id, name: realm.name, enabled: realm.enabled,
        tokenLifespanSeconds: Math.max(realm.accessTokenLifespan, realm.refreshTokenLifespan),
        refreshTokenLifespanSeconds: realm.refreshTokenLifespan || 1800,
        eventsEnabled: realm.eventsEnabled, eventsExpiration: realm.eventsExpiration || 604_800,
        registrationAllowed: realm.registrationAllowed,
      };
    } catch (e) {
      if (e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.InvalidArgument)) return null;
      throw e;
    }
  }
}

/** The issuer of a realm (spec 4.17): {base_url}/realms/{realm}. */
export function issuerOf(baseUrl: string, realm: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/realms/${realm}`;
}
