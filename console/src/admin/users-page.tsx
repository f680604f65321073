import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { CheckField, FormFooter, TextField, useForm, type Values } from "../ui/form";
import { Empty, ErrorAlert, Loading, Pager, Section, useLoad } from "../ui/widgets";
import { go, href } from "./router";
import { LockedUsers } from "./locked-users";
import { ImportUsers } from "./user-import";

export interface UserRow {
  id: string;
  username: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  enabled?: boolean;
  emailVerified?: boolean;
  federationLink?: string;
  attributes?: Record<string, string[]>;
}

const PAGE = 20;

/** Users (spec 4.2): searched and paged by the API (`search`, `skip`, `limit`), with the create form. */
export function UsersPage(p: { session: AdminSession; realm: string }): JSX.Element {
  const [search, setSearch] = useState("");
  const [applied, setApplied] = useState("");
  const [skip, setSkip] = useState(0);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const base = `/admin/realms/${encodeURIComponent(p.realm)}/users`;
  const q = new URLSearchParams({ skip: String(skip), limit: String(PAGE), ...(applied ? { search: applied } : {}) });
  const list = useLoad(() => p.session.request<{ total: number; users: UserRow[] }>("GET", `${base}?${q}`), [base, applied, skip]);
  const users = list.data?.users ?? [];
  return (
    <>
      <div class="page-head">
        <h1>Users</h1>
        <div class="actions">
          {!importing ? <button type="button" onClick={() => setImporting(true)}>Import users</button> : null}
          {!creating ? <button type="button" class="primary" onClick={() => setCreating(true)}>Create user</button> : null}
        </div>
      </div>
      {creating ? <CreateUser session={p.session} base={base} realm={p.realm} onCancel={() => setCreating(false)} /> : null}
      {importing ? <ImportUsers session={p.session} realm={p.realm} onClose={() => setImporting(false)} onImported={list.reload} /> : null}
      <Section title="User list">
        <form role="search" class="toolbar" onSubmit={(e) => { e.preventDefault(); setSkip(0); setApplied(search.trim()); }}>
          <label for="user-search" class="sr-only">Search users</label>
          <input id="user-search" type="search" placeholder="Username, email, first or last name" value={search}
            onInput={(e) => setSearch((e.currentTarget as HTMLInputElement).value)} />
          <button type="submit">Search</button>
        </form>
        <ErrorAlert message={list.error} />
        {list.loading && !list.data ? <Loading what="users" /> : users.length === 0 ? <Empty what="users match" /> : (
          <table>
            <caption class="sr-only">Users</caption>
            <thead><tr><th scope="col">Username</th><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Status</th></tr></thead>
            <tbody>
              {users.map((u) => (
                <tr>
                  <td><a href={href(p.realm, "users", u.id)}>{u.username}</a></td>
                  <td>{u.email || "—"}</td>
                  <td>{[u.firstName, u.lastName].filter(Boolean).join(" ") || "—"}</td>
                  <td>{u.enabled === false ? "Disabled" : "Enabled"}{u.federationLink ? " · federated" : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager label="Users" first={skip} max={PAGE} count={users.length} total={list.data?.total} more={skip + users.length < (list.data?.total ?? 0)} onPage={setSkip} />
      </Section>
      <LockedUsers session={p.session} realm={p.realm} />
    </>
  );
}

function CreateUser(p: { session: AdminSession; base: string; realm: string; onCancel(): void }): JSX.Element {
  const form = useForm<Values>({ username: "", email: "", firstName: "", lastName: "", enabled: true, password: "" }, async (v) => {
    const body: Record<string, unknown> = { username: v.username, enabled: v.enabled };
    for (const k of ["email", "firstName", "lastName", "password"] as const) if (String(v[k]).trim() !== "") body[k] = k === "password" ? v[k] : String(v[k]).trim();
    const created = await p.session.request<UserRow>("POST", p.base, body);
    go(href(p.realm, "users", created.id));
  });
  return (
    <form class="card" onSubmit={form.submit} noValidate aria-label="Create user">
      <h2>Create user</h2>
      <div class="grid">
        <TextField form={form} name="username" label="Username" required />
        <TextField form={form} name="email" label="Email" type="email" />
        <TextField form={form} name="firstName" label="First name" />
        <TextField form={form} name="lastName" label="Last name" />
        <TextField form={form} name="password" label="Initial password" type="password" autoComplete="new-password"
          hint="Optional; the realm's password policy applies." />
        <CheckField form={form} name="enabled" label="Enabled" />
      </div>
      <FormFooter form={form} submit="Create"><button type="button" onClick={p.onCancel}>Cancel</button></FormFooter>
    </form>
  );
}
