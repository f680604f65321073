import { createPrivateKey, createPublicKey } from "node:crypto";
import { calculateJwkThumbprint, exportJWK } from "jose";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { OidcSigningKeyDoc, Problem } from "../../../kit/src/realm-transfer/document-schema.js";
import type { SigningKeyRepository } from "../store/signing-key-repository.js";
import { activeSlot, sealAad, type SigningKeyRecord } from "./signing-key.js";
import type { PublicJwk } from "./signing-alg.js";

/**
 * The token service's part of a realm export and import (DESIGN 3): the realm's OIDC signing
 * keys, private halves included, only ever with includeSecrets. Imported keys keep their kid
 * (the RFC 7638 thumbprint) and status, so tokens signed before the export verify after the
 * import, and a passive key stays published until its `notAfter`.
 */
export class KeyTransfer {
  constructor(private readonly repo: SigningKeyRepository, private readonly secrets: SecretBox) {}

  async export(realmId: string): Promise<OidcSigningKeyDoc[]> {
    const keys = await this.repo.listAll(realmId);
    return keys.filter((k) => k.status !== "retired").reverse().map((k) => ({
      kid: k._id, alg: k.alg, status: k.status, ...(k.clientOnly ? { clientOnly: true } : {}), publicJwk: { ...k.publicJwk },
      privateKey: this.secrets.open(k.privateKeySealed, sealAad(k._id)),
      createdAt: k.createdAt, ...(k.rotatedAt !== undefined ? { rotatedAt: k.rotatedAt } : {}), ...(k.notAfter !== undefined ? { notAfter: k.notAfter } : {}),
    }));
  }

  /** Each key must be a private key whose thumbprint is its kid; one active key per algorithm. */
  async validate(keys: OidcSigningKeyDoc[], realmName: string): Promise<Problem[]> {
    const problems: Problem[] = [];
    const active = new Set<string>();
    for (const [i, k] of keys.entries()) {
      const p = `$.signingKeys[${i}]`;
      try {
        const jwk = await exportJWK(createPublicKey(createPrivateKey(k.privateKey)));
        if ((await calculateJwkThumbprint(jwk)) !== k.kid) problems.push({ path: `${p}.kid`, message: "kid is not the RFC 7638 thumbprint of the key" });
      } catch {
        problems.push({ path: `${p}.privateKey`, message: "privateKey must be a PKCS#8 PEM private key" });
      }
      if (k.status === "active") {
        if (active.has(k.alg)) problems.push({ path: `${p}.status`, message: `more than one active ${k.alg} key` });
        active.add(k.alg);
      }
    }
    for (const taken of await this.repo.findByKids(keys.map((k) => k.kid))) {
      if (taken.realmName !== realmName) {
        const i = keys.findIndex((k) => k.kid === taken._id);
        problems.push({ path: `$.signingKeys[${i}].kid`, message: `kid "${taken._id}" belongs to realm "${taken.realmName}"` });
      }
    }
    return problems;
  }

  async import(realmId: string, realmName: string, keys: OidcSigningKeyDoc[]): Promise<void> {
    for (const k of keys) {
      const record: SigningKeyRecord = {
        _id: k.kid, realmId, realmName, alg: k.alg, status: k.status, ...(k.clientOnly ? { clientOnly: true } : {}),
        slot: k.status === "active" ? activeSlot(realmId, k.alg) : k.kid,
        publicJwk: k.publicJwk as unknown as PublicJwk, privateKeySealed: this.secrets.seal(k.privateKey, sealAad(k.kid)),
        createdAt: k.createdAt, ...(k.rotatedAt !== undefined ? { rotatedAt: k.rotatedAt } : {}), ...(k.notAfter !== undefined ? { notAfter: k.notAfter } : {}),
      };
      await this.repo.putImported(record);
    }
  }
}
