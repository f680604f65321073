import type { RealmLookup } from "./realm-ref.js";
import type { IdpKeys } from "./idp-keys.js";
import type { IdpKeyRecord } from "./idp-key.js";
import { idpKeyView } from "./idp-key.js";
import type { ServiceProviderRepository } from "../store/service-provider-repository.js";
import { requiresSignedRequests } from "./service-provider.js";
import { buildIdpMetadata, idpEntityId } from "./idp-metadata.js";
import { SAML_SIGNING_KEY, type SamlAdminEvents } from "../events/saml-admin-events.js";

/** The realm's IdP side: signing keys (admin) and metadata (spec 4.18). */
export class IdpAdmin {
  constructor(
    private readonly realms: RealmLookup,
    private readonly keys: IdpKeys,
    private readonly events: SamlAdminEvents,
    private readonly publicUrl: string,
    private readonly sps?: ServiceProviderRepository,
  ) {}

  async listKeys(realmName: string): Promise<IdpKeyRecord[]> {
    return this.keys.published(await this.realms.get(realmName));
  }

  async rotate(realmName: string): Promise<IdpKeyRecord> {
    const realm = await this.realms.get(realmName);
    const key = await this.keys.rotate(realm);
    await this.events.record(realm, "ACTION", SAML_SIGNING_KEY, `realms/${realm.name}/saml-keys/rotate`, idpKeyView(key));
    return key;
  }

  /** The public metadata: `realm_not_found` for an unknown or disabled realm (RealmLookup.published). */
  async metadata(realmName: string): Promise<string> {
    const realm = await this.realms.published(realmName);
    const keys = await this.keys.published(realm);
    const entityId = idpEntityId(this.publicUrl, realm.name);
    return buildIdpMetadata({
      entityId,
      protocolUrl: `${entityId}/protocol/saml`,
      signingCertificates: keys.map((k) => k.certificate),
      wantAuthnRequestsSigned: await this.allRequireSigned(realm.id),
    });
  }

  /** True when the realm has enabled SPs and every one requires signed requests. */
  private async allRequireSigned(realmId: string): Promise<boolean> {
    const enabled = (await this.sps?.listByCreation(realmId) ?? []).filter((sp) => sp.enabled);
    return enabled.length > 0 && enabled.every(requiresSignedRequests);
  }
}
