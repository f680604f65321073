import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { ServiceProviderRepository } from "../store/service-provider-repository.js";
import { SAML_SERVICE_PROVIDER } from "../events/saml-admin-events.js";
import type { Outbox } from "../../../kit/src/bus/outbox.js";
import { expectFields, recordWriteKind } from "../../../kit/src/events/audited-write.js";
import { auditedWrite } from "./audited-write.js";
import type { RealmLookup, RealmRef } from "./realm-ref.js";
import { SP_DEFAULTS, serviceProviderView, type ServiceProviderInput, type ServiceProviderRecord } from "./service-provider.js";
import { checkRegisterInput, checkUpdateInput } from "./sp-rules.js";
import { parseSpCertificate } from "./sp-certificate.js";

const spFields = (sp: ServiceProviderRecord): ServiceProviderRecord => sp;

/**
 * SAML service provider administration (spec 2.11, 4.12). Each write stages its admin event in
 * the saml service's outbox with it (kit events/audited-write.ts): an SP's ACS URL and certificate
 * decide where assertions go, so a crash must not keep such a change and lose its record.
 */
export class ServiceProviderAdmin {
  private readonly kind = recordWriteKind("saml.service-provider", (realmId, id) => this.repo.findById(realmId, id), spFields);

  constructor(
    private readonly repo: ServiceProviderRepository,
    private readonly realms: RealmLookup,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.kind);
  }

  async register(realmName: string, input: ServiceProviderInput): Promise<ServiceProviderRecord> {
    checkRegisterInput(input);
    if (input.requireSignedRequests && !input.certificate) throw signingNeedsCertificate();
    const now = this.clock.now();
    const certificateInfo = input.certificate ? parseSpCertificate("certificate", input.certificate, now) : undefined;
    const realm = await this.realms.get(realmName);
    const sp: ServiceProviderRecord = {
      _id: randomUUID(),
      realmId: realm.id,
      realm: realm.name,
      entityId: input.entityId as string,
      name: input.name as string,
      enabled: input.enabled ?? SP_DEFAULTS.enabled,
      acsUrl: input.acsUrl as string,
      ...(input.sloUrl ? { sloUrl: input.sloUrl } : {}),
      ...(input.certificate && certificateInfo ? { certificate: input.certificate, certificateInfo } : {}),
      nameIdFormat: input.nameIdFormat ?? SP_DEFAULTS.nameIdFormat,
      signAssertions: input.signAssertions ?? SP_DEFAULTS.signAssertions,
      signResponses: input.signResponses ?? SP_DEFAULTS.signResponses,
      attributeStatements: input.attributeStatements ?? {},
      ...(input.requireSignedRequests !== undefined ? { requireSignedRequests: input.requireSignedRequests } : {}),
      createdAt: now,
      updatedAt: now,
    };
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id: sp._id, expect: "present" },
      { operationType: "CREATE", resourceType: SAML_SERVICE_PROVIDER, path: path(realm, sp._id), representation: serviceProviderView(sp) }, async () => {
        await this.unique(() => this.repo.insert(sp), sp.entityId);
        return true;
      });
    return sp;
  }

  async list(realmName: string): Promise<ServiceProviderRecord[]> {
    const realm = await this.realms.get(realmName);
    return this.repo.listByCreation(realm.id);
  }

  async get(realmName: string, id: string): Promise<ServiceProviderRecord> {
    const realm = await this.realms.get(realmName);
    return this.find(realm, id);
  }

  async update(realmName: string, id: string, input: ServiceProviderInput): Promise<ServiceProviderRecord> {
    checkUpdateInput(input);
    const now = this.clock.now();
    const realm = await this.realms.get(realmName);
    const current = await this.find(realm, id);
    const certificateAfter = input.certificate === undefined ? current.certificate : input.certificate;
    if (input.requireSignedRequests && !certificateAfter) throw signingNeedsCertificate();
    const { sloUrl, certificate, ...rest } = input;
    const set: Partial<ServiceProviderRecord> = { ...definedOnly(rest), updatedAt: now };
    const unset: string[] = [];
    if (sloUrl === "") unset.push("sloUrl");
    else if (sloUrl !== undefined) set.sloUrl = sloUrl;
    if (certificate === "") unset.push("certificate", "certificateInfo");
    else if (certificate !== undefined) {
      set.certificate = certificate;
      set.certificateInfo = parseSpCertificate("certificate", certificate, now);
    }
    const expected: ServiceProviderRecord = { ...current, ...set };
    for (const field of unset) delete (expected as Record<string, unknown>)[field];
    let updated = null as ServiceProviderRecord | null;
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id, expect: expectFields(spFields, expected) },
      { operationType: "UPDATE", resourceType: SAML_SERVICE_PROVIDER, path: path(realm, id), representation: serviceProviderView(expected) },
      async () => (updated = await this.unique(() => this.repo.update(realm.id, id, set, unset), input.entityId ?? "")) !== null);
    if (!updated) throw notFound(id);
    return updated;
  }

  async delete(realmName: string, id: string): Promise<void> {
    const realm = await this.realms.get(realmName);
    const deleted = await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id, expect: "absent" },
      { operationType: "DELETE", resourceType: SAML_SERVICE_PROVIDER, path: path(realm, id) },
      async () => (await this.repo.deleteById(realm.id, id)) !== null);
    if (!deleted) throw notFound(id);
  }

  private async find(realm: RealmRef, id: string): Promise<ServiceProviderRecord> {
    const sp = await this.repo.findById(realm.id, id);
    if (!sp) throw notFound(id);
    return sp;
  }

  /** entityId is unique per realm (spec 2.11): the unique index decides, so races cannot both win. */
  private async unique<T>(write: () => Promise<T>, entityId: string): Promise<T> {
    try {
      return await write();
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") {
        throw IamError.conflict(`SAML service provider with entityId "${entityId}" already exists`, "entityId");
      }
      throw e;
    }
  }
}

function signingNeedsCertificate(): IamError {
  return IamError.invalid("requireSignedRequests", "requireSignedRequests needs a certificate to verify the signatures");
}

function notFound(id: string): IamError {
  return IamError.notFound(`SAML service provider "${id}"`, "saml_service_provider_not_found");
}

function path(realm: RealmRef, id: string): string {
  return `realms/${realm.name}/saml-service-providers/${id}`;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
