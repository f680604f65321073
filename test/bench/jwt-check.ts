import { createPublicKey, verify, type KeyObject, type JsonWebKey } from "node:crypto";

/**
 * Synchronous JWT signature check for autocannon's verifyBody (it cannot await): every response of
 * a benchmark is a 200 whose token verifies against the server's published keys.
 */
export class JwtCheck {
  private readonly keys = new Map<string, KeyObject>();

  constructor(jwks: { keys: Array<JsonWebKey & { kid?: string }> }) {
    for (const k of jwks.keys) if (k.kid) this.keys.set(k.kid, createPublicKey({ key: k, format: "jwk" }));
  }

  /** True when `body` is a token response whose access_token verifies. */
  tokenResponseOk(body: string): boolean {
    try {
      const token = (JSON.parse(body) as { access_token?: string }).access_token;
      return typeof token === "string" && this.verifyJwt(token);
    } catch {
      return false;
    }
  }

  verifyJwt(jwt: string): boolean {
    const [h, p, s] = jwt.split(".");
    if (!h || !p || !s) return false;
    const header = JSON.parse(Buffer.from(h, "base64url").toString()) as { alg: string; kid: string };
    const key = this.keys.get(header.kid);
    if (!key) return false;
    const data = Buffer.from(`${h}.${p}`);
    const sig = Buffer.from(s, "base64url");
    if (header.alg === "RS256") return verify("sha256", data, key, sig);
    if (header.alg === "ES256") return verify("sha256", data, { key, dsaEncoding: "ieee-p1363" }, sig);
    if (header.alg === "EdDSA") return verify(null, data, key, sig);
    return false;
  }
}
