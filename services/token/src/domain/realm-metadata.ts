import { IamError } from "../../../kit/src/errors.js";
import type { KeyRing, KeyView } from "./key-ring.js";
import type { RealmResolver, RealmScope } from "./realm-scope.js";
import { discoveryDocument } from "./discovery.js";
import type { DiscoveryScopes } from "./discovery-scopes.js";
import type { PublicJwk, SigningAlg } from "./signing-alg.js";

/**
 * The realm's public protocol metadata (spec 4.17) and key administration. An unknown realm is
 * `realm_not_found`; so is a disabled one for the public endpoints (as Keycloak, a disabled realm
 * serves no protocol endpoint), while the Admin API still manages a disabled realm's keys.
 */
export class RealmMetadata {
  /**
   * `published` resolves realms for the public endpoints (discovery, JWKS): the token service's
   * cached realm settings, so an unauthenticated GET costs no directory call and no store read
   * (dropped on `realm.updated`, read again after 5 s at most, unknown names never cached).
   * Key administration keeps the uncached `realms`. `scopes` lists discovery's scopes_supported,
   * cached the same way (discovery-scopes.ts).
   */
  constructor(
    private readonly realms: RealmResolver,
    private readonly keys: KeyRing,
    private readonly scopes: Pick<DiscoveryScopes, "supported">,
    private readonly published: RealmResolver = realms,
  ) {}

  async jwks(realmName: string): Promise<PublicJwk[]> {
    return this.keys.publishedKeys(await this.publicRealm(realmName));
  }

  async discovery(realmName: string, baseUrl: string): Promise<Record<string, unknown>> {
    const realm = await this.publicRealm(realmName);
    if (!/^https?:\/\//.test(baseUrl)) throw IamError.invalid("baseUrl", "baseUrl must be an http(s) URL");
    return discoveryDocument(baseUrl, realm.name, await this.scopes.supported(realm.name), {
      requirePushedAuthorizationRequests: realm.requirePushedAuthorizationRequests === true,
      uiLocalesSupported: realm.uiLocalesSupported ?? [],
    });
  }

  async listKeys(realmName: string): Promise<KeyView[]> {
    return this.keys.listKeys(await this.adminRealm(realmName));
  }

  async rotate(realmName: string, alg: SigningAlg): Promise<KeyView[]> {
    const realm = await this.adminRealm(realmName);
    await this.keys.rotate(realm, alg);
    return this.keys.listKeys(realm);
  }

  private async publicRealm(name: string): Promise<RealmScope> {
    const realm = await this.published.resolve(name);
    if (!realm || !realm.enabled) throw IamError.notFound("realm", "realm_not_found");
    return realm;
  }

  private async adminRealm(name: string): Promise<RealmScope> {
    const realm = await this.realms.resolve(name);
    if (!realm) throw IamError.notFound("realm", "realm_not_found");
    return realm;
  }
}
