import { createPrivateKey, createPublicKey, sign, verify, X509Certificate } from "node:crypto";
import { SqliteStore } from "../../../kit/src/store/sqlite-store.js";
import { SecretBox, generateMasterKey } from "../../../kit/src/crypto/secret-box.js";
import { IdpKeyRepository } from "../store/idp-key-repository.js";
import { IdpKeys } from "./idp-keys.js";
import { buildIdpMetadata } from "./idp-metadata.js";

describe("IdpKeys (per-realm SAML signing keys)", () => {
  let store: SqliteStore;
  let repo: IdpKeyRepository;
  let now = Date.parse("2026-06-01T00:00:00Z");
  const clock = { now: () => now };
  const box = new SecretBox(generateMasterKey());
  const grace = 7 * 24 * 3600 * 1000;
  const realm = { id: "11111111-1111-4111-8111-111111111111", name: "acme", adminEventsEnabled: false };

  beforeEach(async () => {
    store = new SqliteStore({ path: ":memory:", clock });
    repo = await IdpKeyRepository.open(store);
  });
  afterEach(async () => store.close());

  const keys = () => new IdpKeys(repo, box, clock, { rsaBits: 2048, graceMs: grace });

  it("creates one RSA key on first use: CN=<realm>, 10 years, private key sealed and usable", async () => {
    const k = await keys().active(realm);
    const x = new X509Certificate(k.certificate);
    expect(x.subject).toBe("CN=acme");
    expect(x.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(Date.parse(x.validTo) - now).toBeGreaterThanOrEqual(10 * 365 * 24 * 3600 * 1000);
    expect(k.privateKeySealed.startsWith("v1:")).toBe(true);
    expect(k.privateKeySealed).not.toContain("PRIVATE KEY");
    const pem = keys().privateKeyPem(k);
    const sig = sign("sha256", Buffer.from("x"), createPrivateKey(pem));
    expect(verify("sha256", Buffer.from("x"), createPublicKey(k.certificate), sig)).toBe(true);
    expect((await keys().active(realm))._id).toBe(k._id);
  });

  it("agrees on one key under concurrent first use", async () => {
    const all = await Promise.all(Array.from({ length: 5 }, () => keys().active(realm)));
    expect(new Set(all.map((k) => k._id)).size).toBe(1);
    expect(await keys().published(realm)).toHaveLength(1);
  });

  it("rotates: the new key is active, the old one stays published for the grace period, then goes", async () => {
    const first = await keys().active(realm);
    now += 1000;
    const second = await keys().rotate(realm);
    expect(second._id).not.toBe(first._id);
    expect((await keys().active(realm))._id).toBe(second._id);
    const published = await keys().published(realm);
    expect(published.map((k) => [k._id, k.status])).toEqual([[second._id, "ACTIVE"], [first._id, "PASSIVE"]]);
    expect(published[1]?.retiresAt).toBe(now + grace);
    now += grace;
    expect((await keys().published(realm)).map((k) => k._id)).toEqual([second._id]);
    now += 1000;
    await keys().rotate(realm);
    expect(await repo.findPublished(realm.id, 0)).toHaveLength(2); // the retired first key was dropped
  });

  it("keeps realms apart and drops a deleted realm's keys", async () => {
    const other = { ...realm, id: "22222222-2222-4222-8222-222222222222", name: "other" };
    const a = await keys().active(realm);
    const b = await keys().active(other);
    expect(a._id).not.toBe(b._id);
    expect(await repo.deleteRealm(realm.id, now)).toBe(1);
    expect(await repo.findActive(realm.id)).toBeNull();
    expect((await repo.findActive(other.id))?._id).toBe(b._id);
  });

  it("builds metadata with one KeyDescriptor per published certificate, escaping values", async () => {
    const xml = await buildIdpMetadata({ entityId: "https://idp.test/realms/a&b", protocolUrl: "https://idp.test/\"<x>", signingCertificates: ["AAAA", "BBBB"] });
    expect(xml).toContain('entityID="https://idp.test/realms/a&amp;b"');
    expect(xml).toContain('Location="https://idp.test/&quot;&lt;x&gt;"');
    expect(xml.match(/<KeyDescriptor use="signing">/g)).toHaveLength(2);
  });
});
