/**
 * A module imported on its first use rather than at start. Loading modules is most of a cold
 * start's CPU (docs/performance.md, "Cold start"), and some libraries serve only a few requests
 * (passkeys, SAML XML, SMTP, QR codes): importing them on demand lets `/health` answer sooner.
 *
 * The import runs once and every caller awaits the same promise; a failed import is forgotten so
 * the next use tries again and reports its own error. Every holder is also listed for
 * warmLazyImports, which a process calls once it serves, so the first request needing one of these
 * modules rarely waits for it.
 */
export type LazyImport<T> = () => Promise<T>;

const holders: LazyImport<unknown>[] = [];

export function lazyImport<T>(load: () => Promise<T>): LazyImport<T> {
  let pending: Promise<T> | undefined;
  const get: LazyImport<T> = () => {
    if (!pending) {
      pending = load();
      pending.catch(() => { pending = undefined; });
    }
    return pending;
  };
  holders.push(get);
  return get;
}

/**
 * Imports every lazy module, one after the other, each after a turn of the event loop so requests
 * arriving meanwhile are not held behind the whole set. Failures are left to the first use, which
 * reports them where they matter (its request). Resolves when all were tried.
 */
export async function warmLazyImports(): Promise<void> {
  for (const get of holders) {
    await new Promise((r) => setImmediate(r));
    await get().catch(() => undefined);
  }
}
