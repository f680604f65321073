import type { KeyObject } from "node:crypto";
import { compactVerify, decodeProtectedHeader, jwtVerify, type JWTPayload } from "jose";
import { IamError } from "../../../kit/src/errors.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { SigningKeyRepository } from "../store/signing-key-repository.js";
import {
  DEFAULT_SIGNING_ALG, generateSigningKey, privateKeyObject, publicKeyObject,
  type PublicJwk, type SigningAlg,
} from "./signing-alg.js";
import { activeSlot, sealAad, type SigningKeyFields, type SigningKeyRecord } from "./signing-key.js";
import type { RealmScope } from "./realm-scope.js";
import { signCompact } from "./jws-sign.js";
import { VerifiedSignatures } from "./verified-signatures.js";

/** A key as the ring holds it: public record, plus the decrypted private key while active. */
interface LoadedKey {
  record: Omit<SigningKeyFields, "privateKeySealed">;
  publicKey: KeyObject;
  privateKey: KeyObject | undefined;
}

interface LoadedRealm {
  loadedAt: number;
  keys: LoadedKey[];
}

/** A realm's entry in the ring: the load (shared by concurrent readers) and, once done, its result. */
interface CachedRealm {
  pending: Promise<LoadedRealm>;
  loaded?: LoadedRealm;
}

export type KeyChange = "created" | "rotated" | "retired";

export interface KeyRingOptions {
  /**
   * How long a realm's decrypted keys are reused before the store is read again. Changes made in
   * this process invalidate at once, and other replicas drop theirs when `announce`'s event
   * reaches them; the TTL bounds what a missed announcement costs: another replica's JWKS without
   * a new key, or its signing with a key rotated out.
   */
  cacheTtlMs?: number;
  /**
   * Tells the other replicas that the realm's keys changed (iam.token.v1.signing-keys.changed).
   * Called after the store write; must not throw (the change is made either way).
   */
  announce?: (realmId: string, change: KeyChange) => Promise<void>;
}

/** A key as the Admin API sees it: never private material. */
export type KeyView = Omit<SigningKeyFields, "privateKeySealed" | "slot">;

/**
 * The per-realm signing keys (DESIGN 5): created on first use, rotated on demand or on schedule,
 * the old key published (passive) until `notAfter`, the time the last token it signed expires.
 * Signing uses in-memory KeyObjects, synchronously (jws-sign.ts); the store is read once per
 * realm per cache period.
 */
export class KeyRing {
  private readonly cache = new Map<string, CachedRealm>();
  private readonly creating = new Map<string, Promise<SigningKeyRecord>>();
  /** Signatures already verified, by token (verified-signatures.ts). */
  private readonly verified = new VerifiedSignatures();
  private readonly cacheTtlMs: number;
  private readonly announce: (realmId: string, change: KeyChange) => Promise<void>;

  constructor(
    private readonly repo: SigningKeyRepository,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    options: KeyRingOptions = {},
  ) {
    this.cacheTtlMs = options.cacheTtlMs ?? 30_000;
    this.announce = options.announce ?? (async () => undefined);
  }

  /** The realm's JWK Set members (RFC 7517 section 5), creating the default key on first use. */
  async publishedKeys(realm: RealmScope): Promise<PublicJwk[]> {
    await this.ensureSomeActive(realm);
    const loaded = await this.load(realm);
    return this.published(loaded).map((k) => k.record.publicJwk);
  }

  /** Every key of the realm, retired included, newest first, creating the default key on first use. */
  async listKeys(realm: RealmScope): Promise<KeyView[]> {
    await this.ensureSomeActive(realm);
    return (await this.repo.listAll(realm.id)).map(toView);
  }

  /**
   * Replaces the realm's active key of `alg`. The old key turns passive and stays published until
   * rotatedAt + the realm's token lifespan. With `onlyKid`, rotates only while that key is still
   * the active one (scheduled rotation never rotates twice). Returns false when nothing rotated.
   * A realm with no key of `alg` yet (the first rotation to ES256, say) gets one, and that is the
   * rotation: demoting a key created a moment before would only publish a key that never signed.
   * An administrator's rotation (no `onlyKid`) selects `alg` for the realm; a scheduled one keeps
   * a key created for a client's algorithm (clientOnly) from selecting it.
   */
  async rotate(realm: RealmScope, alg: SigningAlg = DEFAULT_SIGNING_ALG, onlyKid?: string): Promise<boolean> {
    const current = await this.repo.findActive(realm.id, alg);
    if (!current) {
      if (onlyKid) return false;
      await this.ensureActive(realm, alg); // announced as "created"
      return true;
    }
    if (onlyKid && current._id !== onlyKid) return false;
    // Generated before the demotion, so the realm is without an active key for as short as possible.
    const next = await this.newRecord(realm, alg, onlyKid !== undefined && current.clientOnly === true);
    const now = this.clock.now();
    const demoted = await this.repo.demote(current._id, now, now + realm.tokenLifespanSeconds * 1000);
    this.invalidate(realm.id);
    if (!demoted) return false;
    try {
      await this.repo.insert(next);
    } catch (e) {
      // A concurrent first use filled the slot in between: that key is the new active one.
      if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
    }
    this.invalidate(realm.id);
    await this.announce(realm.id, "rotated");
    return true;
  }

  /**
   * The algorithm new tokens are signed with: that of the newest active key. Rotating to ES256 or
   * EdDSA (RotateKeys with `alg`) thereby selects that algorithm for the realm (DESIGN 5).
   */
  async currentAlg(realm: RealmScope): Promise<SigningAlg> {
    let loaded = await this.load(realm);
    if (!loaded.keys.some((k) => k.record.status === "active")) loaded = await this.loadWith(realm, await this.ensureActive(realm, DEFAULT_SIGNING_ALG));
    return newestActiveAlg(loaded) ?? DEFAULT_SIGNING_ALG;
  }

  /**
   * currentAlg's answer when the realm's keys are in memory and fresh, else undefined (ask
   * currentAlg then). The token endpoint's hot path asks this first: with Node 20's
   * AsyncLocalStorage every promise costs a hook call, and a warm token request made about twenty
   * of them just to read this process's own memory (docs/performance.md).
   */
  currentAlgNow(realm: RealmScope): SigningAlg | undefined {
    const loaded = this.loadedNow(realm);
    return loaded ? newestActiveAlg(loaded) : undefined;
  }

  /**
   * Signs a JWT (RFC 7519 section 7.1) with the realm's active key of `alg`; `kid` names the key.
   * `forClient`: `alg` is a client's choice (its ID or access token algorithm), so a key created
   * for it here is clientOnly and leaves the realm's algorithm as it is.
   * With the keys in memory it goes straight to the signature, waiting on nothing (currentAlgNow).
   */
  sign(realm: RealmScope, payload: JWTPayload, options: { alg?: SigningAlg; typ?: string; forClient?: boolean } = {}): Promise<string> {
    const alg = options.alg ?? DEFAULT_SIGNING_ALG;
    const loaded = this.loadedNow(realm);
    const key = loaded ? this.activeIn(loaded, alg) : undefined;
    if (key?.privateKey) return signCompact({ alg, kid: key.record._id, typ: options.typ ?? "JWT" }, payload, key.privateKey);
    return this.signLoading(realm, payload, alg, options.typ, options.forClient === true);
  }

  private async signLoading(realm: RealmScope, payload: JWTPayload, alg: SigningAlg, typ: string | undefined, forClient: boolean): Promise<string> {
    let key = this.activeIn(await this.load(realm), alg);
    if (!key) key = this.activeIn(await this.loadWith(realm, await this.ensureActive(realm, alg, forClient)), alg);
    if (!key?.privateKey) throw new IamError({ code: "internal", reason: "no_signing_key", message: "no active signing key" });
    return signCompact({ alg, kid: key.record._id, typ: typ ?? "JWT" }, payload, key.privateKey);
  }

  /** The published key named by the JWT's `kid`, reloading once: another process may have rotated. */
  private async keyOf(realm: RealmScope, jwt: string) {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(jwt).kid;
    } catch {
      throw invalidToken("malformed token");
    }
    if (!kid) throw invalidToken("token has no kid");
    let key = this.published(await this.load(realm)).find((k) => k.record._id === kid);
    if (!key) {
      this.invalidate(realm.id);
      key = this.published(await this.load(realm)).find((k) => k.record._id === kid);
    }
    if (!key) throw invalidToken("unknown signing key");
    return key;
  }

  /**
   * Verifies a JWT signed by one of the realm's published keys (RFC 7515 section 5.2), with the
   * algorithm pinned to the key's own (RFC 8725 section 3.1), and its exp/nbf against the clock.
   */
  async verify(realm: RealmScope, jwt: string): Promise<JWTPayload> {
    const key = await this.keyOf(realm, jwt);
    const now = this.clock.now();
    const known = this.verified.get(realm.id, jwt, key.record._id, key.record.alg, now);
    if (known) return known;
    try {
      const { payload } = await jwtVerify(jwt, key.publicKey, {
        algorithms: [key.record.alg], currentDate: new Date(now),
      });
      this.verified.remember(realm.id, jwt, key.record._id, key.record.alg, payload);
      return payload;
    } catch {
      throw invalidToken("token signature or lifetime is invalid");
    }
  }

  /**
   * Verifies only the signature of a JWT signed by one of the realm's published keys, not its
   * lifetime: an expired ID token is still a valid `id_token_hint` (OIDC Core 1.0 section 3.1.2.1,
   * OIDC RP-Initiated Logout 1.0 section 2). Algorithm pinned to the key's own (RFC 8725 section 3.1).
   */
  async verifySignature(realm: RealmScope, jwt: string): Promise<JWTPayload> {
    const key = await this.keyOf(realm, jwt);
    try {
      const { payload } = await compactVerify(jwt, key.publicKey, { algorithms: [key.record.alg] });
      const claims = JSON.parse(new TextDecoder().decode(payload)) as unknown;
      if (!claims || typeof claims !== "object" || Array.isArray(claims)) throw new Error("not a claims set");
      return claims as JWTPayload;
    } catch {
      throw invalidToken("token signature is invalid");
    }
  }

  /** Retires passive keys past `notAfter`; returns how many realms changed. */
  async retireExpired(): Promise<number> {
    const realms = await this.repo.retireExpired(this.clock.now());
    for (const id of realms) {
      this.invalidate(id);
      await this.announce(id, "retired");
    }
    return realms.length;
  }

  /** Active keys older than `maxAgeMs`, for the rotation schedule. */
  dueForRotation(maxAgeMs: number, limit = 100): Promise<SigningKeyRecord[]> {
    return this.repo.activeCreatedBefore(this.clock.now() - maxAgeMs, limit);
  }

  /** Drops a deleted realm's keys created up to `upTo`. */
  async dropRealm(realmId: string, upTo: number): Promise<number> {
    const n = await this.repo.deleteRealm(realmId, upTo);
    this.invalidate(realmId);
    return n;
  }

  invalidate(realmId: string): void {
    this.cache.delete(realmId);
  }

  /** Drops every realm's cached keys (a replica that may have missed announcements). */
  invalidateAll(): void {
    this.cache.clear();
  }

  /**
   * Creates the default key only when the realm has no active key at all. A realm first rotated
   * to ES256 or EdDSA must not get a (newer) RS256 key from the next JWKS or key listing: the
   * newest active key selects the signing algorithm (currentAlg).
   */
  private async ensureSomeActive(realm: RealmScope): Promise<void> {
    if ((await this.load(realm)).keys.some((k) => k.record.status === "active")) return;
    await this.ensureActive(realm, DEFAULT_SIGNING_ALG);
    // The cached read saw no active key; another process may have created the one just found.
    this.invalidate(realm.id);
  }

  /** The active key of `alg`, created when missing; idempotent across processes (unique `slot`). */
  private async ensureActive(realm: RealmScope, alg: SigningAlg, clientOnly = false): Promise<SigningKeyRecord> {
    const existing = await this.repo.findActive(realm.id, alg);
    if (existing) return existing;
    const slot = activeSlot(realm.id, alg);
    let pending = this.creating.get(slot);
    if (!pending) {
      pending = this.createActive(realm, alg, clientOnly).finally(() => this.creating.delete(slot));
      this.creating.set(slot, pending);
    }
    return pending;
  }

  private async createActive(realm: RealmScope, alg: SigningAlg, clientOnly: boolean): Promise<SigningKeyRecord> {
    const record = await this.newRecord(realm, alg, clientOnly);
    try {
      await this.repo.insert(record);
      this.invalidate(realm.id);
      await this.announce(realm.id, "created");
      return record;
    } catch (e) {
      if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
      // Another caller created it first: re-read theirs.
      const winner = await this.repo.findActive(realm.id, alg);
      if (!winner) throw IamError.unavailable("signing key creation raced; retry");
      return winner;
    }
  }

  private async newRecord(realm: RealmScope, alg: SigningAlg, clientOnly = false): Promise<SigningKeyRecord> {
    const key = await generateSigningKey(alg);
    return {
      _id: key.kid,
      realmId: realm.id,
      realmName: realm.name,
      alg,
      status: "active",
      ...(clientOnly ? { clientOnly: true } : {}),
      slot: activeSlot(realm.id, alg),
      publicJwk: key.publicJwk,
      privateKeySealed: this.secrets.seal(key.privateKeyPem, sealAad(key.kid)),
      createdAt: this.clock.now(),
    };
  }

  /**
   * The realm's keys, including `key`, which ensureActive just found or made. A key another caller
   * is creating is visible to findActive as soon as its insert ran, before that caller's commit
   * resolves and it drops the cached set read without it; reusing that set here signed with no key
   * (500 no_signing_key for the requests that raced a realm's first key under load).
   */
  private async loadWith(realm: RealmScope, key: SigningKeyRecord): Promise<LoadedRealm> {
    const loaded = await this.load(realm);
    if (loaded.keys.some((k) => k.record._id === key._id)) return loaded;
    this.invalidate(realm.id);
    return this.load(realm);
  }

  /** The realm's keys when loaded and fresh, without waiting; undefined while a load is pending. */
  private loadedNow(realm: RealmScope): LoadedRealm | undefined {
    const loaded = this.cache.get(realm.id)?.loaded;
    return loaded && this.clock.now() - loaded.loadedAt < this.cacheTtlMs ? loaded : undefined;
  }

  private load(realm: RealmScope): Promise<LoadedRealm> {
    const cached = this.cache.get(realm.id);
    if (cached) return cached.pending.then((l) => (this.clock.now() - l.loadedAt < this.cacheTtlMs ? l : this.reload(realm)));
    return this.reload(realm);
  }

  private reload(realm: RealmScope): Promise<LoadedRealm> {
    const p = this.repo.listPublished(realm.id).then((records) => ({
      loadedAt: this.clock.now(),
      keys: records.map((r) => this.decrypt(r)),
    }));
    const entry: CachedRealm = { pending: p };
    this.cache.set(realm.id, entry);
    p.then((loaded) => { entry.loaded = loaded; }, () => {
      if (this.cache.get(realm.id) === entry) this.cache.delete(realm.id);
    });
    return p;
  }

  private decrypt(r: SigningKeyRecord): LoadedKey {
    const { privateKeySealed, ...record } = r as SigningKeyFields;
    return {
      record,
      publicKey: publicKeyObject(r.publicJwk),
      privateKey: r.status === "active" ? privateKeyObject(this.secrets.open(privateKeySealed, sealAad(r._id))) : undefined,
    };
  }

  private published(loaded: LoadedRealm): LoadedKey[] {
    const now = this.clock.now();
    return loaded.keys.filter((k) => k.record.status === "active" ||
      (k.record.status === "passive" && (k.record.notAfter ?? 0) > now));
  }

  private activeIn(loaded: LoadedRealm, alg: SigningAlg): LoadedKey | undefined {
    return loaded.keys.find((k) => k.record.status === "active" && k.record.alg === alg);
  }
}

/**
 * The algorithm of the newest active key (DESIGN 5: rotating to an algorithm selects it), not
 * counting keys created for a client's algorithm.
 */
function newestActiveAlg(loaded: LoadedRealm): SigningAlg | undefined {
  let newest: LoadedKey | undefined;
  for (const k of loaded.keys) if (k.record.status === "active" && k.record.clientOnly !== true && (!newest || k.record.createdAt > newest.record.createdAt)) newest = k;
  return newest?.record.alg;
}

function toView(r: SigningKeyRecord): KeyView {
  const view: KeyView = {
    _id: r._id, realmId: r.realmId, realmName: r.realmName, alg: r.alg, status: r.status,
    publicJwk: r.publicJwk, createdAt: r.createdAt,
  };
  if (r.rotatedAt !== undefined) view.rotatedAt = r.rotatedAt;
  if (r.notAfter !== undefined) view.notAfter = r.notAfter;
  return view;
}

function invalidToken(message: string): IamError {
  return IamError.oauth("invalid_token", message, "unauthenticated");
}
