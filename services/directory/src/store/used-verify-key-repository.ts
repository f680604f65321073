import { IamError } from "../../../kit/src/errors.js";
import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

interface UsedVerifyKey extends Doc {
  realmId: string;
  userId: string;
  usedAt: number;
  /** Kept until the key would have expired anyway (TTL), then a replay fails on expiry. */
  expiresAt: number;
}

/**
 * Single-use keys already consumed, under the key's SHA-256: email verification links and password
 * reset links (their keys are sealed under different associated data, so they never collide).
 */
export class UsedVerifyKeyRepository {
  private constructor(private readonly keys: Collection<UsedVerifyKey>) {}

  static async open(store: Store): Promise<UsedVerifyKeyRepository> {
    return new UsedVerifyKeyRepository(await store.collection<UsedVerifyKey>({
      name: "used_verify_keys", ttl: true, indexes: [{ fields: ["realmId"] }],
    }));
  }

  /** Records the key as used; false when it already was (the unique _id makes this atomic). */
  async markUsed(keyHash: string, realmId: string, userId: string, now: number, expiresAt: number): Promise<boolean> {
    try {
      await this.keys.insert({ _id: keyHash, realmId, userId, usedAt: now, expiresAt });
      return true;
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") return false;
      throw e;
    }
  }

  /** Whether the key was consumed (what a page says; consuming is markUsed's conditional insert alone). */
  async isUsed(keyHash: string): Promise<boolean> {
    return (await this.keys.get(keyHash)) !== null;
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.keys.deleteMany({ realmId });
  }
}
