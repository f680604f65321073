/**
 * A read-through cache for lookups on hot paths (docs/performance.md: realm and client
 * configuration): a value is reused for at most `maxAgeMs`, which bounds how long a change made by
 * another process goes unseen; changes made through this process call `drop`/`dropWhere` and are
 * seen at once. A read that overlapped a drop never fills the cache, misses (null) are never cached,
 * and the map is bounded, since keys often come from requests.
 *
 * `stamp` lets a caller tie entries to a version it can see (a WriteCounter's value read before the
 * lookup): an entry stored under another stamp is read again.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, { value: V; at: number; stamp: number }>();
  /** Bumped by every drop: a read that started before one must not fill the cache. */
  private generation = 0;

  constructor(
    private readonly maxAgeMs: number,
    private readonly now: () => number = () => performance.now(),
    private readonly maxEntries = 10_000,
  ) {}

  /** The cached value when fresh, without a load: lets a hot path skip a promise on a hit. */
  peek(key: string, stamp = 0): V | undefined {
    return this.fresh(key, stamp)?.value;
  }

  async get(key: string, load: () => Promise<V | null>, stamp = 0): Promise<V | null> {
    const hit = this.fresh(key, stamp);
    if (hit) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (value === null) {
      this.entries.delete(key);
      return null;
    }
    if (generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, at: this.now(), stamp });
    }
    return value;
  }

  private fresh(key: string, stamp: number): { value: V } | undefined {
    const hit = this.entries.get(key);
    return hit && hit.stamp === stamp && this.now() - hit.at < this.maxAgeMs ? hit : undefined;
  }

  drop(key: string): void {
    this.generation++;
    this.entries.delete(key);
  }

  /** Drops every key starting with `prefix`. */
  dropWhere(prefix: string): void {
    this.generation++;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
