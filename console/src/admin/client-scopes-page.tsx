import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { FormFooter, TextField, useForm, type Values } from "../ui/form";
import { ConfirmButton, Empty, ErrorAlert, Loading, Notice, Section, useLoad } from "../ui/widgets";
import { MapperForm, type Mapper } from "./mapper-form";
interface Scope { id: string; name: string; description?: string; protocol?: string; protocolMappers?: Mapper[] }

/** Client scopes and their protocol mappers (spec 4.9). */
export function ClientScopesPage(p: { session: AdminSession; realm: string }): JSX.Element {
  const base = `/admin/realms/${encodeURIComponent(p.realm)}/client-scopes`;
  const scopes = useLoad(() => p.session.request<Scope[]>("GET", base), [base]);
  const [open, setOpen] = useState("");
  const form = useForm<Values>({ name: "", description: "" }, async (v) => {
    await p.session.request("POST", base, { name: String(v.name).trim(), ...(String(v.description).trim() ? { description: String(v.description).trim() } : {}) });
    form.set("name", "");
    form.set("description", "");
    scopes.reload();
  });
  const chosen = (scopes.data ?? []).find((s) => s.id === open);
  return (
    <>
      <div class="page-head"><h1>Client scopes</h1></div>
      <div class="split">
        <Section title="Scope list">
          <ErrorAlert message={scopes.error} />
          {scopes.loading && !scopes.data ? <Loading what="client scopes" /> : (scopes.data ?? []).length === 0 ? <Empty what="client scopes" /> : (
            <ul class="plain">
              {scopes.data!.map((s) => (
                <li><button type="button" class="link" aria-current={s.id === open ? "true" : undefined} onClick={() => setOpen(s.id)}>{s.name}</button>
                  <span class="muted"> {s.protocol ?? "openid-connect"} · {(s.protocolMappers ?? []).length} mappers</span></li>
              ))}
            </ul>
          )}
          <form onSubmit={form.submit} noValidate aria-label="Create client scope" class="stacked">
            <h3>Create client scope</h3>
            <TextField form={form} name="name" label="Scope name" required />
            <TextField form={form} name="description" label="Description" />
            <FormFooter form={form} submit="Create scope" />
          </form>
        </Section>
        {chosen ? <ScopeDetail key={chosen.id} session={p.session} base={base} scope={chosen} onChanged={scopes.reload} onDeleted={() => { setOpen(""); scopes.reload(); }} />
          : <Section title="Scope"><p class="muted">Choose a scope to see its protocol mappers.</p></Section>}
      </div>
    </>
  );
}

/** Which tokens a mapper writes to, by its switches, in Keycloak's words. */
function tokensOf(m: Mapper): string {
  const on = [["id.token.claim", "ID"], ["access.token.claim", "access"], ["userinfo.token.claim", "userinfo"], ["introspection.token.claim", "introspection"]]
    .filter(([flag]) => m.config?.[flag!] === "true").map(([, name]) => name);
  return on.length ? on.join(", ") : "none";
}

function ScopeDetail(p: { session: AdminSession; base: string; scope: Scope; onChanged(): void; onDeleted(): void }): JSX.Element {
  const path = `${p.base}/${encodeURIComponent(p.scope.id)}`;
  const [editing, setEditing] = useState("");
  const [notice, setNotice] = useState("");
  const settings = useForm<Values>({ name: p.scope.name, description: p.scope.description ?? "" }, async (v) => {
    await p.session.request("PUT", path, { name: String(v.name).trim(), description: String(v.description).trim() });
    setNotice("Scope saved.");
    p.onChanged();
  });
  const mappers = p.scope.protocolMappers ?? [];
  const edited = mappers.find((m) => m.id === editing);
  const mapperPath = (m: Mapper) => `${path}/protocol-mappers/${encodeURIComponent(m.id)}`;
  return (
    <Section title={`Scope ${p.scope.name}`} actions={
      <ConfirmButton label="Delete scope" question={`Delete the client scope ${p.scope.name}? Clients lose it.`} confirm="Delete"
        onConfirm={async () => { await p.session.request("DELETE", path); p.onDeleted(); }} />
    }>
      {notice ? <Notice message={notice} /> : null}
      <form onSubmit={settings.submit} noValidate aria-label="Scope settings" class="stacked">
        <h3>Settings</h3>
        <TextField form={settings} name="name" label="Scope name" required />
        <TextField form={settings} name="description" label="Description" multiline />
        <FormFooter form={settings} submit="Save scope" />
      </form>
      <h3>Protocol mappers</h3>
      {mappers.length === 0 ? <Empty what="mappers" /> : (
        <table>
          <caption class="sr-only">Protocol mappers</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Claim</th><th scope="col">Tokens</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {mappers.map((m) => (
              <tr>
                <td>{m.name}</td><td>{m.mapperType}</td><td>{m.config?.["claim.name"] ?? "—"}</td><td>{tokensOf(m)}</td>
                <td><div class="actions">
                  <button type="button" aria-label={`Edit ${m.name}`} onClick={() => { setNotice(""); setEditing(m.id); }}>Edit</button>
                  <ConfirmButton label={`Delete ${m.name}`} question={`Delete the mapper ${m.name}?`} confirm="Delete"
                    onConfirm={async () => { await p.session.request("DELETE", mapperPath(m)); if (editing === m.id) setEditing(""); p.onChanged(); }} />
                </div></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {edited ? (
        <MapperForm key={edited.id} mapper={edited} onCancel={() => setEditing("")} save={async (body) => {
          await p.session.request("PUT", mapperPath(edited), body);
          setEditing("");
          setNotice(`Mapper ${body.name} saved.`);
          p.onChanged();
        }} />
      ) : (
        <MapperForm save={async (body) => {
          await p.session.request("POST", `${path}/protocol-mappers`, body);
          setNotice(`Mapper ${body.name} added.`);
          p.onChanged();
        }} />
      )}
    </Section>
  );
}
