import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { CheckField, FormFooter, TextField, useForm, type Values } from "../ui/form";
import { Empty, ErrorAlert, Loading, Pager, Section, useLoad } from "../ui/widgets";
import { go } from "./router";
import { grantText, type RealmGrant } from "./admin-access";
import { RealmAccessField, accessBody, accessValue, useRealmNames } from "./realm-access-field";

/** An admin account as the API reads it (docs/admin-api.md, "Administrators"); never its password. */
export interface AdminRow {
  id: string;
  username: string;
  createdAt?: string;
  serverAdmin: boolean;
  realmAccess: RealmGrant[];
}

export const ADMINISTRATORS = "#/administrators";

/** An administrator's page. */
export function adminHref(id: string): string {
  return `${ADMINISTRATORS}/${encodeURIComponent(id)}`;
}

const PAGE = 20;

/**
 * The administrators (Keycloak's master realm users with their realm-management roles): searched
 * by username and paged (`search`, `first`, `max`), with the create form. Server admins only; any
 * other admin sees the API's 403 message.
 */
export function AdministratorsPage(p: { session: AdminSession }): JSX.Element {
  const [search, setSearch] = useState("");
  const [applied, setApplied] = useState("");
  const [first, setFirst] = useState(0);
  const [creating, setCreating] = useState(false);
  // One more than a page, to know whether a next page exists.
  const q = new URLSearchParams({ first: String(first), max: String(PAGE + 1), ...(applied ? { search: applied } : {}) });
  const list = useLoad(() => p.session.request<AdminRow[]>("GET", `/admin/admins?${q}`), [applied, first]);
  const rows = (list.data ?? []).slice(0, PAGE);
  return (
    <>
      <div class="page-head">
        <h1>Administrators</h1>
        {!creating && p.session.user?.serverAdmin ? <button type="button" class="primary" onClick={() => setCreating(true)}>Create administrator</button> : null}
      </div>
      {creating ? <CreateAdministrator session={p.session} onCancel={() => setCreating(false)} /> : null}
      <Section title="Administrator list">
        <form role="search" class="toolbar" onSubmit={(e) => { e.preventDefault(); setFirst(0); setApplied(search.trim()); }}>
          <label for="admin-search" class="sr-only">Search administrators</label>
          <input id="admin-search" type="search" placeholder="Search by username" value={search}
            onInput={(e) => setSearch((e.currentTarget as HTMLInputElement).value)} />
          <button type="submit">Search</button>
        </form>
        <ErrorAlert message={list.error} />
        {list.loading && !list.data ? <Loading what="administrators" /> : rows.length === 0 ? <Empty what="administrators match" /> : (
          <table>
            <caption class="sr-only">Administrators</caption>
            <thead><tr><th scope="col">Username</th><th scope="col">Server admin</th><th scope="col">Realm access</th></tr></thead>
            <tbody>
              {rows.map((a) => (
                <tr>
                  <td><a href={adminHref(a.id)}>{a.username}</a></td>
                  <td>{a.serverAdmin ? "Yes" : "No"}</td>
                  <td>
                    {a.realmAccess.length === 0 ? (a.serverAdmin ? "Every realm" : "—") : (
                      <ul class="bare">{a.realmAccess.map((g) => <li>{grantText(g)}</li>)}</ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager label="Administrators" first={first} max={PAGE} count={rows.length} more={(list.data?.length ?? 0) > PAGE} onPage={setFirst} />
      </Section>
    </>
  );
}

function CreateAdministrator(p: { session: AdminSession; onCancel(): void }): JSX.Element {
  const realms = useRealmNames(p.session);
  const form = useForm<Values>({ username: "", password: "", serverAdmin: false, realmAccess: accessValue([]) }, async (v) => {
    const created = await p.session.request<AdminRow>("POST", "/admin/admins", {
      username: String(v.username).trim(), password: v.password, serverAdmin: Boolean(v.serverAdmin), realmAccess: accessBody(v.realmAccess),
    });
    go(adminHref(created.id));
  });
  return (
    <form class="card" onSubmit={form.submit} noValidate aria-label="Create administrator">
      <h2>Create administrator</h2>
      <div class="grid">
        <TextField form={form} name="username" label="Username" required
          hint="1-64 lowercase letters, digits, '.', '_', '@' or '-'." />
        <TextField form={form} name="password" label="Password" type="password" autoComplete="new-password" required
          hint="At least 12 characters." />
        <CheckField form={form} name="serverAdmin" label="Server admin" />
      </div>
      <RealmAccessField form={form} realms={realms} />
      <FormFooter form={form} submit="Create"><button type="button" onClick={p.onCancel}>Cancel</button></FormFooter>
    </form>
  );
}
