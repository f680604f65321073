import { importJWK, jwtVerify, decodeProtectedHeader, calculateJwkThumbprint } from "jose";
import { openStore } from "../../../kit/src/store/open-store.js";
import type { Store } from "../../../kit/src/store/port.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
import { SecretBox, generateMasterKey } from "../../../kit/src/crypto/secret-box.js";
import { IamError } from "../../../kit/src/errors.js";
import { SigningKeyRepository } from "../store/signing-key-repository.js";
import { KeyRing } from "./key-ring.js";
import { SIGNING_ALGS } from "./signing-alg.js";
import type { RealmScope } from "./realm-scope.js";

const realm: RealmScope = { id: "realm-id-1", name: "acme", enabled: true, tokenLifespanSeconds: 1800 };

describe("KeyRing", () => {
  let store: Store;
  let clock: TestClock;
  let secrets: SecretBox;
  let repo: SigningKeyRepository;
  let ring: KeyRing;

  beforeEach(async () => {
    clock = new TestClock();
    store = await openStore({ kind: "sqlite", path: ":memory:", clock, sweepIntervalMs: 0 });
    secrets = new SecretBox(generateMasterKey());
    repo = await SigningKeyRepository.open(store);
    ring = new KeyRing(repo, secrets, clock);
  });
  afterEach(async () => store.close());

  const rawKeys = async () => (await store.collection({ name: "signing_keys" })).find({}, { sort: [["createdAt", 1]] });

  it("creates one active RS256 key on first use, with an RFC 7638 thumbprint as kid", async () => {
    const jwks = await ring.publishedKeys(realm);
    expect(jwks).toHaveLength(1);
    const [jwk] = jwks;
    expect(jwk).toMatchObject({ kty: "RSA", use: "sig", alg: "RS256", e: "AQAB" });
    expect(jwk!.kid).toBe(await calculateJwkThumbprint({ kty: "RSA", n: jwk!.n!, e: jwk!.e! }, "sha256"));
    expect(Buffer.from(jwk!.n!, "base64url").length).toBe(256);
    await importJWK(jwk as never, "RS256");
    expect(await ring.publishedKeys(realm)).toEqual(jwks);
    const docs = await rawKeys();
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ _id: jwk!.kid, realmId: realm.id, realmName: "acme", status: "active", createdAt: TestClock.START });
  });

  it("keeps the algorithm a new realm was first rotated to: listing keys or the JWKS adds no RS256 key", async () => {
    expect(await ring.rotate(realm, "ES256")).toBe(true);
    clock.advance(1_000);
    const listed = await ring.listKeys(realm);
    // One key: the first rotation to an algorithm creates its key, it does not also demote one.
    expect(listed.map((k) => [k.alg, k.status])).toEqual([["ES256", "active"]]);
    expect((await ring.publishedKeys(realm)).every((k) => k.alg === "ES256")).toBe(true);
    expect(await ring.currentAlg(realm)).toBe("ES256");
    const jwt = await ring.sign(realm, { sub: "s" }, { alg: "ES256" });
    expect(decodeProtectedHeader(jwt).alg).toBe("ES256");
    expect((await ring.verify(realm, jwt)).sub).toBe("s");
  });

  it("signs a client's algorithm with a key of its own that leaves the realm's algorithm as it was", async () => {
    expect(await ring.currentAlg(realm)).toBe("RS256");
    clock.advance(1_000);
    const jwt = await ring.sign(realm, { sub: "s" }, { alg: "PS256", forClient: true });
    const header = decodeProtectedHeader(jwt);
    expect(header.alg).toBe("PS256");
    const listed = await ring.listKeys(realm);
    expect(listed.map((k) => [k.alg, k.status])).toEqual([["PS256", "active"], ["RS256", "active"]]);
    expect(listed[0]!._id).toBe(header.kid);
    // The newer PS256 key was made for a client: the realm still signs RS256.
    expect(await ring.currentAlg(realm)).toBe("RS256");
    expect(ring.currentAlgNow(realm)).toBe("RS256");
    expect(await ring.sign(realm, { sub: "s" }, { alg: "PS256", forClient: true }).then((t) => decodeProtectedHeader(t).kid)).toBe(header.kid);
    // A scheduled rotation of that key keeps it the client's; an administrator's rotation selects it.
    clock.advance(1_000);
    expect(await ring.rotate(realm, "PS256", header.kid)).toBe(true);
    expect(await ring.currentAlg(realm)).toBe("RS256");
    clock.advance(1_000);
    expect(await ring.rotate(realm, "PS256")).toBe(true);
    expect(await ring.currentAlg(realm)).toBe("PS256");
  });

  it("creates exactly one active key when many callers (and processes) use a new realm at once", async () => {
    const rings = Array.from({ length: 6 }, () => new KeyRing(repo, secrets, clock));
    const results = await Promise.all(rings.flatMap((r) => [r.publishedKeys(realm), r.publishedKeys(realm)]));
    const kids = new Set(results.map((keys) => keys.map((k) => k.kid).join(",")));
    expect(kids.size).toBe(1);
    const docs = await rawKeys();
    expect(docs).toHaveLength(1);
    expect(docs[0]!.status).toBe("active");
  });

  it("keeps the private key sealed at rest, bound to its kid", async () => {
    await ring.publishedKeys(realm);
    const [doc] = await rawKeys();
    const text = JSON.stringify(doc);
    expect(text).not.toContain("PRIVATE KEY");
    expect(text).not.toContain("\"d\"");
    expect(String(doc!.privateKeySealed)).toMatch(/^v1:/);
    expect(secrets.open(String(doc!.privateKeySealed), `signing-key:${doc!._id}`)).toContain("BEGIN PRIVATE KEY");
    expect(() => secrets.open(String(doc!.privateKeySealed), "signing-key:other")).toThrow();
  });

  it.each(SIGNING_ALGS)("signs and verifies with %s, kid naming the key in the JWKS", async (alg) => {
    const now = Math.floor(clock.now() / 1000);
    const jwt = await ring.sign(realm, { sub: "u1", iat: now, exp: now + 300 }, { alg });
    const header = decodeProtectedHeader(jwt);
    expect(header).toMatchObject({ alg, typ: "JWT" });
    const published = await ring.publishedKeys(realm);
    const jwk = published.find((k) => k.kid === header.kid);
    expect(jwk?.alg).toBe(alg);
    // An independent verifier, with nothing but the published JWK.
    const { payload } = await jwtVerify(jwt, await importJWK(jwk as never, alg), { currentDate: new Date(clock.now()) });
    expect(payload.sub).toBe("u1");
    expect((await ring.verify(realm, jwt)).sub).toBe("u1");
  });

  it("refuses a tampered, expired, foreign or malformed token with invalid_token", async () => {
    const now = Math.floor(clock.now() / 1000);
    const jwt = await ring.sign(realm, { sub: "u1", iat: now, exp: now + 60 });
    const [h, p, s] = jwt.split(".");
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: "admin", iat: now, exp: now + 60 })).toString("base64url")}.${s}`;
    await expect(ring.verify(realm, forged)).rejects.toMatchObject({ reason: "invalid_token", code: "unauthenticated" });
    await expect(ring.verify(realm, "not-a-jwt")).rejects.toBeInstanceOf(IamError);
    const other: RealmScope = { ...realm, id: "realm-id-2", name: "other" };
    await expect(ring.verify(other, jwt)).rejects.toMatchObject({ reason: "invalid_token" });
    expect(p).toBeDefined();
    clock.advance(61_000);
    await expect(ring.verify(realm, jwt)).rejects.toMatchObject({ reason: "invalid_token" });
  });

  it("rotating to an algorithm the realm has no key of adds one active key of it and keeps the others", async () => {
    const [rs] = await ring.publishedKeys(realm);
    clock.advance(1_000);
    expect(await ring.rotate(realm, "ES256")).toBe(true);
    const listed = await ring.listKeys(realm);
    expect(listed.map((k) => [k.alg, k.status])).toEqual([["ES256", "active"], ["RS256", "active"]]);
    expect(listed[1]!._id).toBe(rs!.kid);
    expect(await ring.currentAlg(realm)).toBe("ES256");
    // The schedule names the key it found due; with none of that algorithm there is nothing to rotate.
    expect(await ring.rotate(realm, "EdDSA", "some-kid")).toBe(false);
    expect((await ring.listKeys(realm)).map((k) => k.alg)).toEqual(["ES256", "RS256"]);
  });

  it("rotates: the old key stays published (passive) and verifying, new tokens use the new key", async () => {
    const now = Math.floor(clock.now() / 1000);
    const before = await ring.sign(realm, { sub: "u1", iat: now, exp: now + 300 });
    const oldKid = decodeProtectedHeader(before).kid;
    clock.advance(1000);
    expect(await ring.rotate(realm)).toBe(true);
    const published = await ring.publishedKeys(realm);
    expect(published.map((k) => k.kid)).toHaveLength(2);
    expect(published.map((k) => k.kid)).toContain(oldKid);
    const keys = await ring.listKeys(realm);
    expect(keys.map((k) => k.status).sort()).toEqual(["active", "passive"]);
    const old = keys.find((k) => k._id === oldKid)!;
    expect(old.rotatedAt).toBe(TestClock.START + 1000);
    expect(old.notAfter).toBe(TestClock.START + 1000 + 1800 * 1000);
    expect(keys.some((k) => "privateKeySealed" in k || "slot" in k)).toBe(false);
    const after = await ring.sign(realm, { sub: "u2", iat: now, exp: now + 300 });
    expect(decodeProtectedHeader(after).kid).not.toBe(oldKid);
    expect((await ring.verify(realm, before)).sub).toBe("u1");
    expect((await ring.verify(realm, after)).sub).toBe("u2");
  });

  it("retires a rotated key after notAfter: removed from the JWKS, its tokens no longer verify", async () => {
    const long: RealmScope = { ...realm, tokenLifespanSeconds: 3600 };
    const now = Math.floor(clock.now() / 1000);
    const before = await ring.sign(long, { sub: "u1", iat: now, exp: now + 7200 });
    await ring.rotate(long);
    clock.advance(3600 * 1000 - 1);
    expect(await ring.publishedKeys(long)).toHaveLength(2);
    expect(await ring.retireExpired()).toBe(0);
    clock.advance(1);
    // Unpublished at notAfter even before the schedule's next pass...
    expect(await ring.publishedKeys(long)).toHaveLength(1);
    await expect(ring.verify(long, before)).rejects.toMatchObject({ reason: "invalid_token" });
    // ...and retired by it.
    expect(await ring.retireExpired()).toBe(1);
    expect((await ring.listKeys(long)).map((k) => k.status).sort()).toEqual(["active", "retired"]);
  });

  it("another process's rotation is picked up when an unknown kid arrives", async () => {
    const other = new KeyRing(repo, secrets, clock);
    await ring.publishedKeys(realm);
    await other.rotate(realm);
    const now = Math.floor(clock.now() / 1000);
    const jwt = await other.sign(realm, { sub: "x", iat: now, exp: now + 60 });
    expect((await ring.verify(realm, jwt)).sub).toBe("x");
  });

  it("announces each change of a realm's keys once, so other replicas drop theirs; a lost race announces nothing", async () => {
    const heard: Array<[string, string]> = [];
    const other = new KeyRing(repo, secrets, clock);
    const announcing = new KeyRing(repo, secrets, clock, {
      announce: async (realmId, change) => {
        heard.push([realmId, change]);
        other.invalidate(realmId);
      },
    });
    const first = await other.publishedKeys(realm);
    expect(heard).toEqual([]); // `other` created it, and `other` announces nothing
    expect(await announcing.rotate(realm)).toBe(true);
    expect(heard).toEqual([["realm-id-1", "rotated"]]);
    // `other` had the realm cached (TTL 30 s): the announcement is why it publishes the new key now.
    const after = await other.publishedKeys(realm);
    expect(after.map((k) => k.kid)).toEqual(expect.arrayContaining([first[0]!.kid]));
    expect(after).toHaveLength(2);
    expect(await announcing.rotate(realm, "RS256", first[0]!.kid)).toBe(false);
    expect(heard).toHaveLength(1);
    const fresh: RealmScope = { ...realm, id: "realm-id-3", name: "fresh" };
    await announcing.publishedKeys(fresh);
    expect(heard).toEqual([["realm-id-1", "rotated"], ["realm-id-3", "created"]]);
    clock.advance(1801 * 1000);
    expect(await announcing.retireExpired()).toBe(1);
    expect(heard.at(-1)).toEqual(["realm-id-1", "retired"]);
  });

  it("without an announcement another replica keeps its cached JWKS until the TTL", async () => {
    const other = new KeyRing(repo, secrets, clock);
    await other.publishedKeys(realm);
    await ring.rotate(realm);
    expect(await other.publishedKeys(realm)).toHaveLength(1);
    clock.advance(30_000);
    expect(await other.publishedKeys(realm)).toHaveLength(2);
  });

  it("scheduled rotation rotates only keys past their age, once", async () => {
    await ring.publishedKeys(realm);
    expect(await ring.dueForRotation(30 * 86_400_000)).toHaveLength(0);
    clock.advance(30 * 86_400_000);
    const due = await ring.dueForRotation(30 * 86_400_000);
    expect(due).toHaveLength(1);
    expect(await ring.rotate(realm, due[0]!.alg, due[0]!._id)).toBe(true);
    expect(await ring.rotate(realm, due[0]!.alg, due[0]!._id)).toBe(false);
    expect(await ring.dueForRotation(30 * 86_400_000)).toHaveLength(0);
    expect(await rawKeys()).toHaveLength(2);
  });

  it("concurrent rotations of one key demote it once", async () => {
    await ring.publishedKeys(realm);
    const rings = Array.from({ length: 4 }, () => new KeyRing(repo, secrets, clock));
    const results = await Promise.all(rings.map((r) => r.rotate(realm)));
    expect(results.filter(Boolean)).toHaveLength(1);
    const docs = await rawKeys();
    expect(docs.filter((d) => d.status === "active")).toHaveLength(1);
    expect(docs.filter((d) => d.status === "passive")).toHaveLength(1);
  });

  it("drops a deleted realm's keys created up to deleted_at, and the cache with them", async () => {
    const first = await ring.publishedKeys(realm);
    const other: RealmScope = { ...realm, id: "realm-id-2", name: "other" };
    await ring.publishedKeys(other);
    expect(await ring.dropRealm(realm.id, clock.now())).toBe(1);
    expect(await rawKeys()).toHaveLength(1);
    clock.advance(10);
    const fresh = await ring.publishedKeys(realm);
    expect(fresh[0]!.kid).not.toBe(first[0]!.kid);
    // A late redelivery with the old deleted_at keeps the newer key.
    expect(await ring.dropRealm(realm.id, TestClock.START)).toBe(0);
  });
  it("signs with a realm's first key when it joins another caller's creation after the insert, before its commit", async () => {
    // A store insert is visible to reads as soon as it runs, and resolves only once the group commit
    // is durable; this repository holds that resolution until the second request has read the key.
    let inserted!: () => void;
    const insertRan = new Promise<void>((r) => { inserted = r; });
    let release!: () => void;
    const committed = new Promise<void>((r) => { release = r; });
    const gated = Object.assign(Object.create(repo) as SigningKeyRepository, {
      insert: async (k: Parameters<SigningKeyRepository["insert"]>[0]) => {
        await repo.insert(k);
        inserted();
        await committed;
      },
    });
    const racing = new KeyRing(gated, secrets, clock);
    const first = racing.sign(realm, { sub: "a" });
    await insertRan;
    // The ring still holds the set it read before the key existed; findActive already sees the key.
    const second = await racing.sign(realm, { sub: "b" });
    release();
    const [kid] = (await rawKeys()).map((k) => k._id);
    expect(decodeProtectedHeader(second).kid).toBe(kid);
    expect(decodeProtectedHeader(await first).kid).toBe(kid);
    expect((await racing.verify(realm, second)).sub).toBe("b");
    expect(await rawKeys()).toHaveLength(1);
  });
});
