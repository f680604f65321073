import { useEffect } from "preact/hooks";

/** What announces its changes: a console's signed-in session. */
export interface Changing {
  subscribe(listener: () => void): () => void;
}

/**
 * Calls `onChange` on every change `source` announces, and once as soon as it listens. Effects run
 * after the first frame, a frame that a background tab never draws (Preact then waits 100 ms, and a
 * throttled tab's timers longer still): a sign-in that finished first announced itself to nobody,
 * and the page stayed at "Signing in…" over a session that was already there.
 */
export function useChanges(source: Changing, onChange: () => void): void {
  useEffect(() => {
    const stop = source.subscribe(onChange);
    onChange();
    return stop;
  }, [source]); // onChange only sets state, and state setters never change
}
