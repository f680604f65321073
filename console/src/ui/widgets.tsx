import type { ComponentChildren, JSX } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { messageOf } from "./api-failure";

/** A load that re-runs when `deps` change; `reload` runs it again (after a write). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | undefined; error: string; loading: boolean; reload(): void } {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState("");
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (d) => { if (live) { setData(d); setError(""); setLoading(false); } },
      (e: unknown) => { if (live) { setError(messageOf(e)); setLoading(false); } },
    );
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  return { data, error, loading, reload: useCallback(() => setTick((t) => t + 1), []) };
}

export function Loading(p: { what: string }): JSX.Element {
  return <p class="muted" role="status" aria-live="polite">Loading {p.what}…</p>;
}

export function ErrorAlert(p: { message: string }): JSX.Element | null {
  return p.message ? <p class="alert alert-error" role="alert">{p.message}</p> : null;
}

export function Notice(p: { message: string }): JSX.Element {
  return <p class="alert alert-ok" role="status" aria-live="polite">{p.message}</p>;
}

/** Previous / next over `first`/`max` pages; `more` is whether a next page may exist. */
export function Pager(p: { first: number; max: number; count: number; total?: number; more: boolean; onPage(first: number): void; label: string }): JSX.Element {
  const from = p.count === 0 ? 0 : p.first + 1;
  const to = p.first + p.count;
  return (
    <nav class="pager" aria-label={`${p.label} pages`}>
      <span class="muted">{p.count === 0 ? "No results" : `${from}–${to}${p.total !== undefined ? ` of ${p.total}` : ""}`}</span>
      <button type="button" disabled={p.first === 0} onClick={() => p.onPage(Math.max(0, p.first - p.max))}>Previous page</button>
      <button type="button" disabled={!p.more} onClick={() => p.onPage(p.first + p.max)}>Next page</button>
    </nav>
  );
}

/**
 * A destructive action behind a modal confirmation (a native <dialog>: focus moves into it,
 * Escape cancels, focus returns to the button).
 */
export function ConfirmButton(p: {
  label: string; question: string; confirm: string; onConfirm(): Promise<void> | void; danger?: boolean;
  /** A fuller accessible name that starts with the visible label (WCAG 2.5.3), where rows repeat the button. */
  name?: string;
}): JSX.Element {
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const run = async (): Promise<void> => {
    setBusy(true);
    setError("");
    try {
      await p.onConfirm();
      dialog.current?.close();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class={p.danger === false ? "" : "danger"} aria-label={p.name} onClick={() => dialog.current?.showModal()}>{p.label}</button>
      <dialog ref={dialog} aria-label={p.question}>
        <p class="dialog-question">{p.question}</p>
        <ErrorAlert message={error} />
        <div class="actions">
          <button type="button" class="danger" disabled={busy} onClick={() => void run()}>{p.confirm}</button>
          <button type="button" onClick={() => dialog.current?.close()}>Cancel</button>
        </div>
      </dialog>
    </>
  );
}

export function Section(p: { title: string; children: ComponentChildren; actions?: ComponentChildren }): JSX.Element {
  return (
    <section class="card" aria-label={p.title}>
      <header class="card-head"><h2>{p.title}</h2>{p.actions ? <div class="card-actions">{p.actions}</div> : null}</header>
      {p.children}
    </section>
  );
}

export function Empty(p: { what: string }): JSX.Element {
  return <p class="muted empty">No {p.what}.</p>;
}

/** A value copied to the clipboard, the button saying so for a moment. */
export function CopyButton(p: { value: string; label?: string }): JSX.Element {
  const [done, setDone] = useState(false);
  return (
    <button type="button" aria-label={p.label ?? "Copy"} onClick={() => {
      void navigator.clipboard.writeText(p.value).then(() => setDone(true), () => setDone(false));
    }}>{done ? "Copied" : "Copy"}</button>
  );
}
