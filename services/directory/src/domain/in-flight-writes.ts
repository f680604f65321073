/**
 * Writes this process started without waiting for them, by key, so that whoever reads or changes
 * what they write can wait for them first (read-your-writes within the process). A tracked write
 * must never reject: its owner catches and logs its failure.
 */
export class InFlightWrites {
  private readonly byKey = new Map<string, Set<Promise<void>>>();

  track(key: string, write: Promise<void>): void {
    let writes = this.byKey.get(key);
    if (!writes) this.byKey.set(key, (writes = new Set()));
    writes.add(write);
    void write.then(() => {
      writes.delete(write);
      if (writes.size === 0 && this.byKey.get(key) === writes) this.byKey.delete(key);
    });
  }

  /** Resolves once every write tracked under `key` so far has finished. */
  async settled(key: string): Promise<void> {
    const writes = this.byKey.get(key);
    if (writes) await Promise.all([...writes]);
  }

  /** Resolves once every write tracked so far under a key starting with `prefix` has finished ("": all). */
  async settledUnder(prefix: string): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const [key, writes] of this.byKey) if (key.startsWith(prefix)) pending.push(...writes);
    await Promise.all(pending);
  }
}
