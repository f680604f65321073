import { constants, createPublicKey, verify } from "node:crypto";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { generateSigningKey, privateKeyObject, SIGNING_ALGS } from "./signing-alg.js";
import { signCompact } from "./jws-sign.js";

// The hand-built compact JWS (docs/performance.md) must be what jose accepts for every
// algorithm a realm can sign with, against the JWK as published.
describe("signCompact", () => {
  it.each(SIGNING_ALGS)("signs %s tokens that jose verifies against the published JWK", async (alg) => {
    const key = await generateSigningKey(alg);
    const jwt = await signCompact({ alg, kid: key.kid, typ: "JWT" }, { sub: "u1", scope: "a b", n: 1, "ü": "ß" }, privateKeyObject(key.privateKeyPem));
    expect(decodeProtectedHeader(jwt)).toEqual({ alg, kid: key.kid, typ: "JWT" });
    const { payload } = await jwtVerify(jwt, createLocalJWKSet({ keys: [key.publicJwk as never] }), { algorithms: [alg] });
    expect(payload).toEqual({ sub: "u1", scope: "a b", n: 1, "ü": "ß" });
    if (alg === "ES256") expect(Buffer.from(jwt.split(".")[2]!, "base64url").length).toBe(64);
  });

  it("signs PS256 with RSASSA-PSS under an RSA 2048 key of its own, which RS256 verification refuses", async () => {
    const key = await generateSigningKey("PS256");
    expect(key.publicJwk).toMatchObject({ kty: "RSA", use: "sig", alg: "PS256", e: "AQAB" });
    expect(Buffer.from(key.publicJwk.n!, "base64url").length).toBe(256);
    const jwt = await signCompact({ alg: "PS256", kid: key.kid, typ: "JWT" }, { sub: "u1" }, privateKeyObject(key.privateKeyPem));
    const [h, p, s] = jwt.split(".");
    const pub = createPublicKey({ key: key.publicJwk as never, format: "jwk" });
    const pss = { key: pub, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 };
    // RFC 7518 section 3.5: PSS with SHA-256 and a 32-byte salt, not PKCS#1 v1.5.
    expect(verify("sha256", Buffer.from(`${h}.${p}`), pss, Buffer.from(s!, "base64url"))).toBe(true);
    expect(verify("sha256", Buffer.from(`${h}.${p}`), pub, Buffer.from(s!, "base64url"))).toBe(false);
    // PSS is randomized: the same input signs differently each time.
    expect(await signCompact({ alg: "PS256", kid: key.kid, typ: "JWT" }, { sub: "u1" }, privateKeyObject(key.privateKeyPem))).not.toBe(jwt);
    await expect(jwtVerify(jwt, createLocalJWKSet({ keys: [{ ...key.publicJwk, alg: "RS256" } as never] }), { algorithms: ["RS256"] })).rejects.toThrow();
  });

  it("produces a signature that fails verification once the payload is altered", async () => {
    const key = await generateSigningKey("RS256");
    const [h, , s] = (await signCompact({ alg: "RS256", kid: key.kid, typ: "JWT" }, { sub: "a" }, privateKeyObject(key.privateKeyPem))).split(".");
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: "b" })).toString("base64url")}.${s}`;
    await expect(jwtVerify(forged, createLocalJWKSet({ keys: [key.publicJwk as never] }))).rejects.toThrow();
  });

  it("gives each key and typ its own header, also once the headers are kept", async () => {
    const a = await generateSigningKey("RS256");
    const b = await generateSigningKey("ES256");
    for (let round = 0; round < 2; round++) {
      expect(decodeProtectedHeader(await signCompact({ alg: "RS256", kid: a.kid, typ: "JWT" }, { sub: "x" }, privateKeyObject(a.privateKeyPem))))
        .toEqual({ alg: "RS256", kid: a.kid, typ: "JWT" });
      expect(decodeProtectedHeader(await signCompact({ alg: "RS256", kid: a.kid, typ: "logout+jwt" }, { sub: "x" }, privateKeyObject(a.privateKeyPem))))
        .toEqual({ alg: "RS256", kid: a.kid, typ: "logout+jwt" });
      expect(decodeProtectedHeader(await signCompact({ alg: "ES256", kid: b.kid, typ: "JWT" }, { sub: "x" }, privateKeyObject(b.privateKeyPem))))
        .toEqual({ alg: "ES256", kid: b.kid, typ: "JWT" });
    }
  });
});
