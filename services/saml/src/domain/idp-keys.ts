import { generateKeyPair, randomUUID, X509Certificate, type KeyObject } from "node:crypto";
import { promisify } from "node:util";
import { IamError } from "../../../kit/src/errors.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { IdpKeyRepository } from "../store/idp-key-repository.js";
import { privateKeyAad, type IdpKeyRecord } from "./idp-key.js";
import type { RealmRef } from "./realm-ref.js";
import { selfSignedCertificate } from "./self-signed-cert.js";

const generateRsa = promisify(generateKeyPair);
const TEN_YEARS_MS = 10 * 365.25 * 24 * 3600 * 1000;

export interface IdpKeyOptions {
  rsaBits: number;
  /** How long a rotated-out key stays published in metadata (ms). */
  graceMs: number;
}

/**
 * A realm's SAML IdP signing keys: RSA, self-signed certificate CN=<realm>, SHA-256, valid 10 years.
 * The first one is created on first use. Rotation makes a new key ACTIVE (it signs from then on) and
 * keeps the previous one PASSIVE, still published as a second KeyDescriptor in the metadata (SAML 2.0
 * metadata section 2.4.1.1) for `graceMs`, so SPs that refresh metadata periodically pick up the new
 * certificate before the old one disappears; after that it is dropped.
 */
export class IdpKeys {
  constructor(
    private readonly repo: IdpKeyRepository,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    private readonly options: IdpKeyOptions,
  ) {}

  /** The realm's active key, created on first use; concurrent first uses agree on one key. */
  async active(realm: RealmRef): Promise<IdpKeyRecord> {
    const found = await this.repo.findActive(realm.id);
    if (found) return found;
    return this.insertActive(realm, await this.generate(realm));
  }

  /** The keys published in metadata: the active one first, then passive ones in their grace period. */
  async published(realm: RealmRef): Promise<IdpKeyRecord[]> {
    await this.active(realm);
    const keys = await this.repo.findPublished(realm.id, this.clock.now());
    return [...keys.filter((k) => k.status === "ACTIVE"), ...keys.filter((k) => k.status !== "ACTIVE")];
  }

  /** Makes a fresh key active; the previous one stays published for the grace period. */
  async rotate(realm: RealmRef): Promise<IdpKeyRecord> {
    return this.rotateTo(realm, await this.generate(realm));
  }

  /**
   * Makes `fresh` (from `generate`) the active key, as `rotate`; returns the active key, another
   * request's when that one won the race.
   */
  async rotateTo(realm: RealmRef, fresh: IdpKeyRecord): Promise<IdpKeyRecord> {
    const current = await this.repo.findActive(realm.id);
    const now = this.clock.now();
    if (current) await this.repo.demote(current, now + this.options.graceMs);
    await this.repo.deleteRetired(realm.id, now);
    return this.insertActive(realm, fresh);
  }

  /** The key, whatever its status, or null once deleted. */
  find(realmId: string, id: string): Promise<IdpKeyRecord | null> {
    return this.repo.findById(realmId, id);
  }

  /** The private key, for signing (SSO). */
  privateKeyPem(key: IdpKeyRecord): string {
    return this.secrets.open(key.privateKeySealed, privateKeyAad(key));
  }

  private async insertActive(realm: RealmRef, key: IdpKeyRecord): Promise<IdpKeyRecord> {
    try {
      await this.repo.insert(key);
      return key;
    } catch (e) {
      if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
      // Another request created (or rotated in) the active key first: use that one.
      const winner = await this.repo.findActive(realm.id);
      if (!winner) throw e;
      return winner;
    }
  }

  /** A new key for the realm, not yet stored. */
  async generate(realm: RealmRef): Promise<IdpKeyRecord> {
    const { publicKey, privateKey } = (await generateRsa("rsa", { modulusLength: this.options.rsaBits })) as {
      publicKey: KeyObject; privateKey: KeyObject;
    };
    const now = this.clock.now();
    const notBefore = now - 60_000; // tolerate SP clock skew
    const certificate = selfSignedCertificate({
      commonName: realm.name, publicKey, privateKey, notBefore, notAfter: now + TEN_YEARS_MS,
    });
    const x509 = new X509Certificate(certificate);
    const id = randomUUID();
    const pkcs8 = privateKey.export({ type: "pkcs8", format: "pem" }) as string;
    return {
      _id: id,
      realmId: realm.id,
      realm: realm.name,
      slot: realm.id,
      status: "ACTIVE",
      algorithm: "RSA-SHA256",
      certificate,
      privateKeySealed: this.secrets.seal(pkcs8, privateKeyAad({ _id: id, realmId: realm.id })),
      subject: x509.subject,
      notBefore: Date.parse(x509.validFrom),
      notAfter: Date.parse(x509.validTo),
      fingerprintSha256: x509.fingerprint256,
      createdAt: now,
    };
  }
}
