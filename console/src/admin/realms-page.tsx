import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { href } from "./router";
import { Empty, ErrorAlert, Loading, Pager, Section, useLoad } from "../ui/widgets";

interface RealmRow {
  name: string;
  displayName?: string;
  enabled?: boolean;
}

const PAGE = 20;

/**
 * The realm switcher: a searched, paged list (`search`, `first`, `max` of GET /admin/realms), one
 * page at a time however many realms the server holds.
 */
export function RealmsPage(p: { session: AdminSession }): JSX.Element {
  const [search, setSearch] = useState("");
  const [applied, setApplied] = useState("");
  const [first, setFirst] = useState(0);
  const q = new URLSearchParams({ first: String(first), max: String(PAGE + 1), ...(applied ? { search: applied } : {}) });
  const list = useLoad(() => p.session.request<RealmRow[]>("GET", `/admin/realms?${q}`), [applied, first]);
  const rows = (list.data ?? []).slice(0, PAGE);
  return (
    <>
      <div class="page-head">
        <h1>Realms</h1>
        {/* Creating and importing realms is a server admin's (docs/security.md, Administrators). */}
        {p.session.user?.serverAdmin ? (
          <>
            <a class="button" href="#/import">Import realm</a>
            <a class="button primary" href="#/create-realm">Create realm</a>
          </>
        ) : null}
      </div>
      <Section title="Choose a realm">
        <form role="search" class="toolbar" onSubmit={(e) => { e.preventDefault(); setFirst(0); setApplied(search.trim()); }}>
          <label for="realm-search" class="sr-only">Search realms</label>
          <input id="realm-search" type="search" placeholder="Search realms by name" value={search}
            onInput={(e) => setSearch((e.currentTarget as HTMLInputElement).value)} />
          <button type="submit">Search</button>
        </form>
        <ErrorAlert message={list.error} />
        {list.loading && !list.data ? <Loading what="realms" /> : rows.length === 0 ? <Empty what="realms match" /> : (
          <table>
            <caption class="sr-only">Realms</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Display name</th><th scope="col">Status</th></tr></thead>
            <tbody>
              {rows.map((r) => (
                <tr>
                  <td><a href={href(r.name, "users")}>{r.name}</a></td>
                  <td>{r.displayName || "—"}</td>
                  <td>{r.enabled === false ? "Disabled" : "Enabled"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager label="Realms" first={first} max={PAGE} count={rows.length} more={(list.data?.length ?? 0) > PAGE} onPage={setFirst} />
      </Section>
    </>
  );
}
