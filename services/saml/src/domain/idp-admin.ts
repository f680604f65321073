import type { RealmLookup } from "./realm-ref.js";
import type { IdpKeys } from "./idp-keys.js";
import type { IdpKeyRecord } from "./idp-key.js";
import { idpKeyView } from "./idp-key.js";
import type { ServiceProviderRepository } from "../store/service-provider-repository.js";
import { requiresSignedRequests } from "./service-provider.js";
import { buildIdpMetadata, idpEntityId } from "./idp-metadata.js";
import { SAML_SIGNING_KEY } from "../events/saml-admin-events.js";
import type { Outbox } from "../../../kit/src/bus/outbox.js";
import { recordWriteKind } from "../../../kit/src/events/audited-write.js";
import { auditedWrite } from "./audited-write.js";

/** The realm's IdP side: signing keys (admin) and metadata (spec 4.18). */
export class IdpAdmin {
  /** A rotation, as the relay finds it: its new key stored. */
  private readonly rotationKind = recordWriteKind("saml.key-rotation", (realmId, id) => this.keys.find(realmId, id), (k: IdpKeyRecord) => k._id);

  constructor(
    private readonly realms: RealmLookup,
    private readonly keys: IdpKeys,
    private readonly outbox: Outbox,
    private readonly publicUrl: string,
    private readonly sps?: ServiceProviderRepository,
  ) {
    outbox.register(this.rotationKind);
  }

  async listKeys(realmName: string): Promise<IdpKeyRecord[]> {
    return this.keys.published(await this.realms.get(realmName));
  }

  async rotate(realmName: string): Promise<IdpKeyRecord> {
    const realm = await this.realms.get(realmName);
    // The key is made first, so its admin event is staged with the rotation (auditedWrite); a
    // rotation that lost the race to another records nothing (the other recorded its own).
    const fresh = await this.keys.generate(realm);
    let active = fresh;
    await auditedWrite(this.outbox, this.rotationKind, realm, { realmId: realm.id, id: fresh._id, expect: "present" },
      { operationType: "ACTION", resourceType: SAML_SIGNING_KEY, path: `realms/${realm.name}/saml-keys/rotate`, representation: idpKeyView(fresh) },
      async () => (active = await this.keys.rotateTo(realm, fresh))._id === fresh._id);
    return active;
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
