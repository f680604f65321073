import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, createHash, timingSafeEqual } from "node:crypto";

/**
 * AES-256-GCM under the master key for secrets at rest (client secrets, IdP secrets, LDAP bind
 * credentials, SMTP passwords, private keys; DESIGN 5). Format: "v1:" + base64url(iv|tag|ciphertext).
 * The associated data binds a ciphertext to its place (e.g. "realm:<id>:smtpPassword"), so a value
 * copied into another record does not decrypt.
 *
 * Also a MAC under the master key, for values a service hands out and must later recognise as its
 * own without a store read (every replica of a service holds the same master key).
 */
export class SecretBox {
  private readonly key: Buffer;
  private readonly macKey: Buffer;

  constructor(masterKey: string | Buffer) {
    const raw = typeof masterKey === "string" ? Buffer.from(masterKey, "base64url") : masterKey;
    if (raw.length !== 32) throw new Error("master key must be 32 bytes (base64url)");
    // Derive a dedicated key so the master key is never used directly for more than one purpose.
    this.key = createHash("sha256").update("tessera-secret-box-v1").update(raw).digest();
    this.macKey = Buffer.from(hkdfSync("sha256", raw, "tessera", "secret-box-mac-v1", 32));
  }

  /**
   * HMAC-SHA256 of `data` for `purpose` (which keeps one use's tags from passing for another's),
   * truncated to 128 bits (RFC 2104 section 5: no less than half the hash), base64url.
   */
  mac(purpose: string, data: string): string {
    return createHmac("sha256", this.macKey).update(purpose).update("\0").update(data).digest().subarray(0, 16).toString("base64url");
  }

  /** Whether `tag` is mac(purpose, data), compared in constant time. */
  verifyMac(purpose: string, data: string, tag: string): boolean {
    const expected = Buffer.from(this.mac(purpose, data));
    const given = Buffer.from(tag);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  seal(plaintext: string, aad: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv("aes-256-gcm", this.key, iv);
    c.setAAD(Buffer.from(aad));
    const ct = Buffer.concat([c.update(plaintext, "utf8"), c.final()]);
    return "v1:" + Buffer.concat([iv, c.getAuthTag(), ct]).toString("base64url");
  }

  open(sealed: string, aad: string): string {
    if (!sealed.startsWith("v1:")) throw new Error("unknown sealed format");
    const raw = Buffer.from(sealed.slice(3), "base64url");
    const d = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
    d.setAAD(Buffer.from(aad));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString("utf8");
  }
}

export function generateMasterKey(): string {
  return randomBytes(32).toString("base64url");
}
