/** How often adapters delete expired documents unless told otherwise. */
export const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

/**
 * Runs `sweep` every `intervalMs` (0 disables it) and returns the function that stops it. The timer
 * is unref'd so an open store never keeps a process alive, and sweeps never overlap. A failed sweep
 * is reported to `onError` and retried at the next tick: reads already hide expired documents, so
 * the sweep only reclaims space and correctness never depends on it.
 */
export function startSweeper(
  sweep: () => Promise<number>,
  intervalMs: number = DEFAULT_SWEEP_INTERVAL_MS,
  onError: (err: unknown) => void = () => {},
): () => void {
  if (!(intervalMs > 0)) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweep()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
