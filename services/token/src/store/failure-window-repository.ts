import { IamError } from "../../../kit/src/errors.js";
import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/** One failure counted against a key: its own id, so a success takes back exactly it. */
export interface CountedFailure {
  id: string;
  /** Epoch ms. */
  at: number;
}

/**
 * A key's failures within its sliding window (FailureLimiter), in the token service's store so
 * every token replica counts against the same record. `version` orders the writes: each is a
 * compare-and-set on it, so two replicas counting at once cannot overwrite each other's failure.
 */
export interface FailureWindowRecord extends Doc {
  failures: CountedFailure[];
  version: number;
  /** The latest failure's time (0 when none is left): what the sweep of stale keys reads. */
  lastAt: number;
}

/**
 * The failure windows of the device verification page's user-code lookups (RFC 8628 section 5.1),
 * and of the password reset requests (reset-credentials-flow.ts).
 */
export class FailureWindowRepository {
  private constructor(private readonly windows: Collection<FailureWindowRecord>) {}

  /** `name`: each limiter its own collection, since a limiter's sweep drops keys by its own window. */
  static async open(store: Store, name = "user_code_failures"): Promise<FailureWindowRepository> {
    return new FailureWindowRepository(await store.collection<FailureWindowRecord>({
      name,
      indexes: [{ fields: ["lastAt"] }],
    }));
  }

  get(key: string): Promise<FailureWindowRecord | null> {
    return this.windows.get(key);
  }

  /**
   * Writes the key's failures if its record is still at `version` (undefined: there was none, and
   * it is created); false when another write came first, and the caller reads again.
   */
  async swap(key: string, version: number | undefined, failures: CountedFailure[]): Promise<boolean> {
    const lastAt = failures.reduce((m, f) => Math.max(m, f.at), 0);
    if (version === undefined) {
      try {
        await this.windows.insert({ _id: key, failures, version: 1, lastAt });
        return true;
      } catch (e) {
        if (e instanceof IamError && e.code === "alreadyExists") return false;
        throw e;
      }
    }
    return (await this.windows.update({ _id: key, version }, { $set: { failures, lastAt, version: version + 1 } })) === 1;
  }

  /** Drops the keys whose latest failure is at or before `before` (all of theirs left the window). */
  dropStale(before: number): Promise<number> {
    return this.windows.deleteMany({ lastAt: { $lte: before } });
  }
}
