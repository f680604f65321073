import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { ErrorAlert, Empty, Loading, Pager, Section, useLoad } from "../ui/widgets";

export interface FilterField {
  name: string;
  label: string;
  options?: string[];
}

export interface Column<T> {
  label: string;
  cell(row: T): string | JSX.Element;
}

const PAGE = 25;

/**
 * An event query (spec 4.8) as a filter form over a paged table: the filters, `dateFrom`/`dateTo`
 * (a whole day each, UTC, as the API reads a bare date) and `first`/`max`. One more row than a page is asked for, to know
 * whether a next page exists.
 */
export function EventTable<T>(p: { session: AdminSession; path: string; title: string; filters: FilterField[]; columns: Column<T>[] }): JSX.Element {
  const blank = Object.fromEntries([...p.filters.map((f) => [f.name, ""]), ["dateFrom", ""], ["dateTo", ""]]) as Record<string, string>;
  const [draft, setDraft] = useState(blank);
  const [applied, setApplied] = useState(blank);
  const [first, setFirst] = useState(0);
  const q = new URLSearchParams({ first: String(first), max: String(PAGE + 1) });
  for (const [k, v] of Object.entries(applied)) {
    if (!v) continue;
    // A bare date: the API takes dateFrom as the start of that day and dateTo as its end (UTC).
    q.set(k, v);
  }
  const list = useLoad(() => p.session.request<T[]>("GET", `${p.path}?${q}`), [p.path, q.toString()]);
  const rows = (list.data ?? []).slice(0, PAGE);
  const input = (name: string, label: string, type: "text" | "date" = "text", options?: string[]): JSX.Element => (
    <div class="field">
      <label for={`ev-${name}`}>{label}</label>
      {options ? (
        <select id={`ev-${name}`} value={draft[name]} onChange={(e) => setDraft({ ...draft, [name]: (e.currentTarget as HTMLSelectElement).value })}>
          <option value="">Any</option>
          {options.map((o) => <option value={o}>{o}</option>)}
        </select>
      ) : (
        <input id={`ev-${name}`} type={type as "text"} value={draft[name]} onInput={(e) => setDraft({ ...draft, [name]: (e.currentTarget as HTMLInputElement).value })} />
      )}
    </div>
  );
  return (
    <>
      <form class="card filters" role="search" aria-label={`Filter ${p.title.toLowerCase()}`} onSubmit={(e) => { e.preventDefault(); setFirst(0); setApplied(draft); }}>
        <div class="grid">
          {p.filters.map((f) => input(f.name, f.label, "text", f.options))}
          {input("dateFrom", "From date", "date")}
          {input("dateTo", "To date", "date")}
        </div>
        <div class="actions">
          <button type="submit" class="primary">Search</button>
          <button type="button" onClick={() => { setDraft(blank); setApplied(blank); setFirst(0); }}>Reset filters</button>
        </div>
      </form>
      <Section title={p.title}>
        <ErrorAlert message={list.error} />
        {list.loading && !list.data ? <Loading what="events" /> : rows.length === 0 ? <Empty what="events match" /> : (
          <table>
            <caption class="sr-only">{p.title}</caption>
            <thead><tr>{p.columns.map((c) => <th scope="col">{c.label}</th>)}</tr></thead>
            <tbody>{rows.map((r) => <tr>{p.columns.map((c) => <td>{c.cell(r)}</td>)}</tr>)}</tbody>
          </table>
        )}
        <Pager label={p.title} first={first} max={PAGE} count={rows.length} more={(list.data?.length ?? 0) > PAGE} onPage={setFirst} />
      </Section>
    </>
  );
}
