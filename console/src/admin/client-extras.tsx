import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { messageOf } from "../ui/api-failure";
import { FormFooter, TextField, useForm, type Values } from "../ui/form";
import { Empty, ErrorAlert, Section, useLoad } from "../ui/widgets";

interface Role { name: string; description?: string }
interface Scope { id: string; name: string; description?: string }

/** The client's roles (spec 4.4): list and create. */
export function ClientRoles(p: { session: AdminSession; path: string }): JSX.Element {
  const roles = useLoad(() => p.session.request<Role[]>("GET", `${p.path}/roles`), [p.path]);
  const form = useForm<Values>({ name: "", description: "" }, async (v) => {
    await p.session.request("POST", `${p.path}/roles`, { name: String(v.name).trim(), ...(String(v.description).trim() ? { description: String(v.description).trim() } : {}) });
    form.set("name", "");
    form.set("description", "");
    roles.reload();
  });
  return (
    <Section title="Client roles">
      <ErrorAlert message={roles.error} />
      {(roles.data ?? []).length === 0 ? <Empty what="client roles" /> : (
        <ul class="plain">{roles.data!.map((r) => <li><strong>{r.name}</strong>{r.description ? <span class="muted"> — {r.description}</span> : null}</li>)}</ul>
      )}
      <form onSubmit={form.submit} noValidate aria-label="Create client role" class="inline-form">
        <TextField form={form} name="name" label="Role name" required />
        <TextField form={form} name="description" label="Description" />
        <FormFooter form={form} submit="Create role" />
      </form>
    </Section>
  );
}

/** The client's default and optional scopes (spec 4.9): assign from the realm's scopes, remove. */
export function ClientScopesOf(p: { session: AdminSession; realm: string; path: string }): JSX.Element {
  const all = useLoad(() => p.session.request<Scope[]>("GET", `/admin/realms/${encodeURIComponent(p.realm)}/client-scopes`), [p.realm]);
  return (
    <Section title="Client scopes">
      <div class="split">
        <ScopeList session={p.session} path={`${p.path}/default-client-scopes`} kind="Default" all={all.data ?? []} />
        <ScopeList session={p.session} path={`${p.path}/optional-client-scopes`} kind="Optional" all={all.data ?? []} />
      </div>
    </Section>
  );
}

function ScopeList(p: { session: AdminSession; path: string; kind: string; all: Scope[] }): JSX.Element {
  const list = useLoad(() => p.session.request<Scope[]>("GET", p.path), [p.path]);
  const [pick, setPick] = useState("");
  const [error, setError] = useState("");
  const ids = new Set((list.data ?? []).map((s) => s.id));
  const change = async (run: () => Promise<unknown>): Promise<void> => {
    setError("");
    try {
      await run();
      setPick("");
      list.reload();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const id = `scope-${p.kind.toLowerCase()}`;
  return (
    <div>
      <h3>{p.kind} scopes</h3>
      <ErrorAlert message={error || list.error} />
      {(list.data ?? []).length === 0 ? <Empty what={`${p.kind.toLowerCase()} scopes`} /> : (
        <ul class="chips" aria-label={`${p.kind} scopes`}>
          {list.data!.map((s) => (
            <li><span>{s.name}</span><button type="button" class="link" aria-label={`Remove ${p.kind.toLowerCase()} scope ${s.name}`}
              onClick={() => void change(() => p.session.request("DELETE", `${p.path}/${encodeURIComponent(s.id)}`))}>Remove</button></li>
          ))}
        </ul>
      )}
      <div class="toolbar">
        <label for={id}>{p.kind} scope</label>
        <select id={id} value={pick} onChange={(e) => setPick((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">Choose a scope</option>
          {p.all.filter((s) => !ids.has(s.id)).map((s) => <option value={s.id}>{s.name}</option>)}
        </select>
        <button type="button" disabled={!pick} onClick={() => void change(() => p.session.request("POST", p.path, { clientScopeId: pick }))}>Add {p.kind.toLowerCase()} scope</button>
      </div>
    </div>
  );
}
