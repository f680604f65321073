import { createCipheriv, createDecipheriv, randomBytes, createHash } from "node:crypto";

/**
 * AES-256-GCM under the master key for secrets at rest (client secrets, IdP secrets, LDAP bind
 * credentials, SMTP passwords, private keys; DESIGN 5). Format: "v1:" + base64url(iv|tag|ciphertext).
 * The associated data binds a ciphertext to its place (e.g. "realm:<id>:smtpPassword"), so a value
 * copied into another record does not decrypt.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(masterKey: string | Buffer) {
    const raw = typeof masterKey === "string" ? Buffer.from(masterKey, "base64url") : masterKey;
    if (raw.length !== 32) throw new Error("master key must be 32 bytes (base64url)");
    // Derive a dedicated key so the master key is never used directly for more than one purpose.
    this.key = createHash("sha256").update("tessera-secret-box-v1").update(raw).digest();
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
