import { createHash, randomUUID } from "node:crypto";
import { SignJWT, exportJWK, generateKeyPair, type JWK, type CryptoKey } from "jose";
import { SecretBox, generateMasterKey } from "../../../kit/src/crypto/secret-box.js";
import { IamError } from "../../../kit/src/errors.js";
import { adaptersUnderTest } from "../../../kit/src/store/adapters-under-test.js";
import type { Store } from "../../../kit/src/store/port.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
import { SpentJtiRepository } from "../store/spent-jti-repository.js";
import { DpopNonces, NONCE_WINDOW_S } from "./dpop-nonce.js";
import { DpopProofs, MAX_PROOF_AGE_S, type ProofContext } from "./dpop-proof.js";

const HTU = "https://id.example.com/realms/r1/protocol/openid-connect/token";
const CTX: ProofContext = { realm: "r1", htm: "POST", htu: HTU, nonceRequired: false };

interface ProofParts {
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  alg?: string;
}

// RFC 9449 section 4.3's checks one by one, on each store adapter (the jti store is the replay check).
describe.each(adaptersUnderTest("DpopProofs"))("DpopProofs on %s", (_name, openStore) => {
  let clock: TestClock;
  let store: Store;
  let proofs: DpopProofs;
  let nonces: DpopNonces;
  let privateKey: CryptoKey;
  let jwk: JWK;

  beforeAll(async () => {
    const pair = await generateKeyPair("ES256", { extractable: true });
    privateKey = pair.privateKey;
    jwk = await exportJWK(pair.publicKey);
  });
  beforeEach(async () => {
    clock = new TestClock();
    store = await openStore(clock);
    await (await store.collection({ name: "spent_dpop_proofs", ttl: true })).deleteMany({});
    nonces = new DpopNonces(new SecretBox(generateMasterKey()), clock);
    proofs = new DpopProofs(await SpentJtiRepository.forDpopProofs(store), nonces, clock);
  });
  afterEach(() => store.close());

  const now = () => Math.floor(clock.now() / 1000);
  const proof = (p: ProofParts = {}): Promise<string> =>
    new SignJWT({ jti: randomUUID(), htm: "POST", htu: HTU, iat: now(), ...p.claims })
      .setProtectedHeader({ alg: p.alg ?? "ES256", typ: "dpop+jwt", jwk, ...p.header })
      .sign(privateKey);
  const refusal = async (p: Promise<unknown>): Promise<[string, string]> => {
    const e = await p.then(() => null, (x: unknown) => x);
    if (!(e instanceof IamError)) throw new Error(`expected a refusal, got ${String(e)}`);
    return [e.oauthError ?? "", e.message];
  };

  it("accepts a good proof and answers its key's RFC 7638 thumbprint", async () => {
    const expected = createHash("sha256").update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest("base64url");
    expect(await proofs.check(await proof(), CTX)).toEqual({ jkt: expected });
  });

  it("compares htu without query and fragment", async () => {
    const p = await proof({ claims: { htu: `${HTU}?a=1#frag` } });
    await expect(proofs.check(p, CTX)).resolves.toHaveProperty("jkt");
  });

  it("refuses a wrong typ", async () => {
    expect(await refusal(proofs.check(await proof({ header: { typ: "JWT" } }), CTX))).toEqual(["invalid_dpop_proof", "the proof's typ must be dpop+jwt"]);
  });

  it("refuses alg none and HMAC algorithms", async () => {
    const h = Buffer.from(JSON.stringify({ alg: "none", typ: "dpop+jwt", jwk })).toString("base64url");
    const c = Buffer.from(JSON.stringify({ jti: "j1", htm: "POST", htu: HTU, iat: now() })).toString("base64url");
    expect((await refusal(proofs.check(`${h}.${c}.`, CTX)))[0]).toBe("invalid_dpop_proof");
    const hs = await new SignJWT({ jti: "j2", htm: "POST", htu: HTU, iat: now() })
      .setProtectedHeader({ alg: "HS256", typ: "dpop+jwt", jwk: { kty: "oct", k: "c2VjcmV0" } as unknown as JWK }).sign(new TextEncoder().encode("secret"));
    expect(await refusal(proofs.check(hs, CTX))).toEqual(["invalid_dpop_proof", "the proof's alg must be one of ES256, RS256, PS256, EdDSA"]);
  });

  it("refuses a private key in the jwk header", async () => {
    const priv = await exportJWK(privateKey);
    expect(await refusal(proofs.check(await proof({ header: { jwk: priv } }), CTX))).toEqual(["invalid_dpop_proof", "the proof's jwk must not hold a private key"]);
  });

  it("refuses a proof signed by another key than its jwk", async () => {
    const other = await generateKeyPair("ES256");
    const p = await new SignJWT({ jti: "j", htm: "POST", htu: HTU, iat: now() })
      .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk }).sign(other.privateKey);
    expect(await refusal(proofs.check(p, CTX))).toEqual(["invalid_dpop_proof", "the proof's signature does not verify with its jwk"]);
  });

  it("refuses a htm or htu of another request", async () => {
    expect(await refusal(proofs.check(await proof({ claims: { htm: "GET" } }), CTX))).toEqual(["invalid_dpop_proof", "the proof's htm does not match the request method"]);
    const otherUrl = "https://id.example.com/realms/r1/protocol/openid-connect/userinfo";
    expect(await refusal(proofs.check(await proof({ claims: { htu: otherUrl } }), CTX))).toEqual(["invalid_dpop_proof", "the proof's htu does not match the request URL"]);
  });

  it("refuses an iat too old or in the future", async () => {
    expect(await refusal(proofs.check(await proof({ claims: { iat: now() - MAX_PROOF_AGE_S - 1 } }), CTX))).toEqual(["invalid_dpop_proof", "the proof is too old"]);
    expect(await refusal(proofs.check(await proof({ claims: { iat: now() + 120 } }), CTX))).toEqual(["invalid_dpop_proof", "the proof is issued in the future"]);
  });

  it("refuses a replayed jti", async () => {
    const p = await proof();
    await proofs.check(p, CTX);
    expect(await refusal(proofs.check(p, CTX))).toEqual(["invalid_dpop_proof", "the proof's jti was already used"]);
  });

  it("checks ath against the access token at a resource", async () => {
    const token = "eyJ.access.token";
    const ath = createHash("sha256").update(token).digest("base64url");
    const ctx = { ...CTX, accessToken: token };
    await expect(proofs.check(await proof({ claims: { ath } }), ctx)).resolves.toHaveProperty("jkt");
    expect(await refusal(proofs.check(await proof({ claims: { ath: "x" + ath.slice(1) } }), ctx))).toEqual(["invalid_dpop_proof", "the proof's ath does not match the access token"]);
    expect(await refusal(proofs.check(await proof(), ctx))).toEqual(["invalid_dpop_proof", "the proof's ath does not match the access token"]);
  });

  it("answers use_dpop_nonce with the current nonce, accepts it, and refuses it two windows later", async () => {
    const ctx = { ...CTX, nonceRequired: true };
    const e = await proofs.check(await proof(), ctx).then(() => null, (x: unknown) => x as IamError);
    expect(e?.oauthError).toBe("use_dpop_nonce");
    expect(e?.dpopNonce).toBe(nonces.current("r1"));
    await expect(proofs.check(await proof({ claims: { nonce: e!.dpopNonce } }), ctx)).resolves.toHaveProperty("jkt");
    // Another realm's nonce is not this one's.
    expect(nonces.accepts("r2", e!.dpopNonce!)).toBe(false);
    clock.advance(2 * NONCE_WINDOW_S * 1000);
    expect((await refusal(proofs.check(await proof({ claims: { nonce: e!.dpopNonce } }), ctx)))[0]).toBe("use_dpop_nonce");
  });

  it("refuses a proof replayed to another replica (a second checker on the same store), which agrees on nonces", async () => {
    const box = new SecretBox(generateMasterKey());
    const [a, b] = [0, 1].map(() => new DpopNonces(box, clock));
    const replicaA = new DpopProofs(await SpentJtiRepository.forDpopProofs(store), a!, clock);
    const replicaB = new DpopProofs(await SpentJtiRepository.forDpopProofs(store), b!, clock);
    const p = await proof({ claims: { nonce: a!.current("r1") } });
    await replicaA.check(p, { ...CTX, nonceRequired: true });
    expect(await refusal(replicaB.check(p, { ...CTX, nonceRequired: true }))).toEqual(["invalid_dpop_proof", "the proof's jti was already used"]);
  });

  it("accepts RS256, PS256 and EdDSA proofs", async () => {
    for (const alg of ["RS256", "PS256", "EdDSA"]) {
      const pair = await generateKeyPair(alg, { extractable: true });
      const p = await new SignJWT({ jti: randomUUID(), htm: "POST", htu: HTU, iat: now() })
        .setProtectedHeader({ alg, typ: "dpop+jwt", jwk: await exportJWK(pair.publicKey) }).sign(pair.privateKey);
      await expect(proofs.check(p, CTX)).resolves.toHaveProperty("jkt");
    }
  });

  it("refuses something that is not one JWT", async () => {
    const p = await proof();
    expect(await refusal(proofs.check(`${p}, ${p}`, CTX))).toEqual(["invalid_dpop_proof", "the DPoP header must hold one JWT"]);
  });
});
