import { X509Certificate, createPrivateKey } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { Problem, SamlServiceProviderDoc, SamlSigningKeyDoc } from "../../../kit/src/realm-transfer/document-schema.js";
import type { ServiceProviderRepository } from "../store/service-provider-repository.js";
import type { IdpKeyRepository } from "../store/idp-key-repository.js";
import type { ServiceProviderRecord } from "./service-provider.js";
import { privateKeyAad, type IdpKeyRecord } from "./idp-key.js";
import { checkRegisterInput } from "./sp-rules.js";
import { parseSpCertificate } from "./sp-certificate.js";

export interface SamlPart {
  samlServiceProviders: SamlServiceProviderDoc[];
  samlSigningKeys?: SamlSigningKeyDoc[];
}

/**
 * The saml service's part of a realm export and import (DESIGN 3): its service providers, and
 * with includeSecrets the realm's IdP signing keys with their certificates, so SPs that pinned the
 * IdP certificate keep trusting the imported realm. Ids are kept.
 */
export class SamlTransfer {
  constructor(
    private readonly sps: ServiceProviderRepository,
    private readonly keys: IdpKeyRepository,
    private readonly secrets: SecretBox,
    private readonly now: () => number,
  ) {}

  async export(realmId: string, includeSecrets: boolean): Promise<SamlPart> {
    const sps = (await this.sps.listByCreation(realmId)).map((sp): SamlServiceProviderDoc => ({
      id: sp._id, entityId: sp.entityId, name: sp.name, enabled: sp.enabled, acsUrl: sp.acsUrl,
      ...(sp.sloUrl ? { sloUrl: sp.sloUrl } : {}), ...(sp.certificate ? { certificate: sp.certificate } : {}),
      nameIdFormat: sp.nameIdFormat, signAssertions: sp.signAssertions, signResponses: sp.signResponses,
      attributeStatements: { ...sp.attributeStatements },
      ...(sp.requireSignedRequests !== undefined ? { requireSignedRequests: sp.requireSignedRequests } : {}),
    }));
    if (!includeSecrets) return { samlServiceProviders: sps };
    const keys = (await this.keys.findPublished(realmId, this.now())).reverse().map((k): SamlSigningKeyDoc => ({
      id: k._id, status: k.status, algorithm: k.algorithm, certificate: k.certificate,
      privateKey: this.secrets.open(k.privateKeySealed, privateKeyAad(k)), createdAt: k.createdAt,
      ...(k.retiresAt !== undefined ? { retiresAt: k.retiresAt } : {}),
    }));
    return { samlServiceProviders: sps, samlSigningKeys: keys };
  }

  async validate(part: SamlPart, realmName: string): Promise<Problem[]> {
    const problems: Problem[] = [];
    const taken = async (section: string, ids: string[], find: (ids: string[]) => Promise<Array<{ _id: string; realm: string }>>) => {
      for (const r of await find(ids)) {
        if (r.realm !== realmName) problems.push({ path: `$.${section}[${ids.indexOf(r._id)}].id`, message: `id "${r._id}" belongs to realm "${r.realm}"` });
      }
    };
    await taken("samlServiceProviders", part.samlServiceProviders.map((s) => s.id), (ids) => this.sps.findByIds(ids));
    await taken("samlSigningKeys", (part.samlSigningKeys ?? []).map((k) => k.id), (ids) => this.keys.findByIds(ids));
    const entityIds = new Map<string, number>();
    for (const [i, sp] of part.samlServiceProviders.entries()) {
      const p = `$.samlServiceProviders[${i}]`;
      try {
        checkRegisterInput({ ...sp, ...(sp.sloUrl === undefined ? {} : { sloUrl: sp.sloUrl }) });
        if (sp.certificate) parseSpCertificate("certificate", sp.certificate, this.now());
      } catch (e) {
        if (!(e instanceof IamError)) throw e;
        problems.push({ path: e.field ? `${p}.${e.field}` : p, message: e.message });
      }
      if (entityIds.has(sp.entityId)) problems.push({ path: `${p}.entityId`, message: `entityId is also used at $.samlServiceProviders[${entityIds.get(sp.entityId)}]` });
      entityIds.set(sp.entityId, i);
    }
    const keys = part.samlSigningKeys ?? [];
    if (keys.filter((k) => k.status === "ACTIVE").length > 1) problems.push({ path: "$.samlSigningKeys", message: "more than one ACTIVE key" });
    for (const [i, k] of keys.entries()) {
      try {
        const cert = new X509Certificate(k.certificate);
        if (!cert.checkPrivateKey(createPrivateKey(k.privateKey))) problems.push({ path: `$.samlSigningKeys[${i}].privateKey`, message: "privateKey does not match the certificate" });
      } catch {
        problems.push({ path: `$.samlSigningKeys[${i}]`, message: "certificate must be an X.509 PEM and privateKey a PKCS#8 PEM" });
      }
    }
    return problems;
  }

  async import(realmId: string, realmName: string, part: SamlPart): Promise<void> {
    const now = this.now();
    for (const sp of part.samlServiceProviders) {
      const record: ServiceProviderRecord = {
        _id: sp.id, realmId, realm: realmName, entityId: sp.entityId, name: sp.name, enabled: sp.enabled, acsUrl: sp.acsUrl,
        ...(sp.sloUrl ? { sloUrl: sp.sloUrl } : {}),
        ...(sp.certificate ? { certificate: sp.certificate, certificateInfo: parseSpCertificate("certificate", sp.certificate, now) } : {}),
        nameIdFormat: sp.nameIdFormat, signAssertions: sp.signAssertions, signResponses: sp.signResponses,
        attributeStatements: { ...sp.attributeStatements },
        ...(sp.requireSignedRequests !== undefined ? { requireSignedRequests: sp.requireSignedRequests } : {}),
        createdAt: now, updatedAt: now,
      };
      await this.sps.putImported(record);
    }
    for (const k of part.samlSigningKeys ?? []) {
      const cert = new X509Certificate(k.certificate);
      const record: IdpKeyRecord = {
        _id: k.id, realmId, realm: realmName, slot: k.status === "ACTIVE" ? realmId : `passive:${k.id}`, status: k.status,
        algorithm: k.algorithm, certificate: k.certificate, privateKeySealed: this.secrets.seal(k.privateKey, privateKeyAad({ _id: k.id, realmId })),
        subject: cert.subject, notBefore: Date.parse(cert.validFrom), notAfter: Date.parse(cert.validTo),
        fingerprintSha256: cert.fingerprint256, createdAt: k.createdAt, ...(k.retiresAt !== undefined ? { retiresAt: k.retiresAt } : {}),
      };
      await this.keys.putImported(record);
    }
  }
}
