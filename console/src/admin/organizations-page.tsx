import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { FormFooter, useForm, type Values } from "../ui/form";
import { Empty, ErrorAlert, Loading, Pager, Section, useLoad } from "../ui/widgets";
import { go, href } from "./router";
import { OrganizationFields, organizationBody, organizationValues, type OrganizationRow, useProviderChoices } from "./organization-fields";

const PAGE = 20;
/** The Admin API's 404 while the realm's organizationsEnabled is off (Keycloak 26's message). */
const SWITCHED_OFF = "Organizations not enabled for this realm.";

/**
 * Organizations (docs/organizations.md): searched and paged by the API (`search`, `first`, `max`),
 * the total from `/organizations/count`, and the create form.
 */
export function OrganizationsPage(p: { session: AdminSession; realm: string }): JSX.Element {
  const [search, setSearch] = useState("");
  const [applied, setApplied] = useState("");
  const [first, setFirst] = useState(0);
  const [creating, setCreating] = useState(false);
  const base = `/admin/realms/${encodeURIComponent(p.realm)}/organizations`;
  const filter: Record<string, string> = applied ? { search: applied } : {};
  const q = new URLSearchParams({ first: String(first), max: String(PAGE), ...filter });
  const list = useLoad(async () => {
    const [rows, total] = await Promise.all([
      p.session.request<OrganizationRow[]>("GET", `${base}?${q}`),
      p.session.request<number>("GET", `${base}/count?${new URLSearchParams(filter)}`),
    ]);
    return { rows, total };
  }, [base, applied, first]);
  const rows = list.data?.rows ?? [];
  if (list.error === SWITCHED_OFF) {
    return (
      <>
        <div class="page-head"><h1>Organizations</h1></div>
        <p class="alert" role="status">Organizations are off for this realm. Turn on <strong>Organizations</strong> in <a href={href(p.realm, "settings")}>Realm settings</a> to manage them.</p>
      </>
    );
  }
  return (
    <>
      <div class="page-head">
        <h1>Organizations</h1>
        {!creating ? <button type="button" class="primary" onClick={() => setCreating(true)}>Create organization</button> : null}
      </div>
      {creating ? <CreateOrganization session={p.session} base={base} realm={p.realm} onCancel={() => setCreating(false)} /> : null}
      <Section title="Organization list">
        <form role="search" class="toolbar" onSubmit={(e) => { e.preventDefault(); setFirst(0); setApplied(search.trim()); }}>
          <label for="org-search" class="sr-only">Search organizations</label>
          <input id="org-search" type="search" placeholder="Name or domain" value={search}
            onInput={(e) => setSearch((e.currentTarget as HTMLInputElement).value)} />
          <button type="submit">Search</button>
        </form>
        <ErrorAlert message={list.error} />
        {list.loading && !list.data ? <Loading what="organizations" /> : rows.length === 0 ? <Empty what="organizations match" /> : (
          <table>
            <caption class="sr-only">Organizations</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Alias</th><th scope="col">Domains</th><th scope="col">Status</th></tr></thead>
            <tbody>
              {rows.map((o) => (
                <tr>
                  <td><a href={href(p.realm, "organizations", o.id)}>{o.name}</a></td>
                  <td><code>{o.alias ?? ""}</code></td>
                  <td>{(o.domains ?? []).map((d) => `${d.name}${d.verified ? " (verified)" : ""}`).join(", ") || "—"}</td>
                  <td>{o.enabled === false ? "Disabled" : "Enabled"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager label="Organizations" first={first} max={PAGE} count={rows.length} total={list.data?.total}
          more={first + rows.length < (list.data?.total ?? 0)} onPage={setFirst} />
      </Section>
    </>
  );
}

function CreateOrganization(p: { session: AdminSession; base: string; realm: string; onCancel(): void }): JSX.Element {
  const providers = useProviderChoices(p.session, p.realm);
  const form = useForm<Values>(organizationValues({}), async (v) => {
    const created = await p.session.request<OrganizationRow>("POST", p.base, organizationBody(v, true));
    go(href(p.realm, "organizations", created.id));
  });
  return (
    <form class="card" onSubmit={form.submit} noValidate aria-label="Create organization">
      <h2>Create organization</h2>
      <OrganizationFields form={form} create providers={providers} />
      <FormFooter form={form} submit="Create"><button type="button" onClick={p.onCancel}>Cancel</button></FormFooter>
    </form>
  );
}
