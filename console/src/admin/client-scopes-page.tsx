import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { FormFooter, TextField, useForm, type Values } from "../ui/form";
import { ConfirmButton, Empty, ErrorAlert, Loading, Section, useLoad } from "../ui/widgets";

interface Mapper { id: string; name: string; mapperType: string; config?: Record<string, string> }
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

function ScopeDetail(p: { session: AdminSession; base: string; scope: Scope; onChanged(): void; onDeleted(): void }): JSX.Element {
  const path = `${p.base}/${encodeURIComponent(p.scope.id)}`;
  const mapper = useForm<Values>({ name: "", mapperType: "oidc-usermodel-attribute-mapper", userAttribute: "", claimName: "" }, async (v) => {
    const config: Record<string, string> = { "id.token.claim": "true", "access.token.claim": "true", "userinfo.token.claim": "true" };
    if (String(v.userAttribute).trim()) config["user.attribute"] = String(v.userAttribute).trim();
    if (String(v.claimName).trim()) config["claim.name"] = String(v.claimName).trim();
    await p.session.request("POST", `${path}/protocol-mappers`, { name: String(v.name).trim(), mapperType: String(v.mapperType).trim(), config });
    mapper.set("name", "");
    p.onChanged();
  });
  const mappers = p.scope.protocolMappers ?? [];
  return (
    <Section title={`Scope ${p.scope.name}`} actions={
      <ConfirmButton label="Delete scope" question={`Delete the client scope ${p.scope.name}? Clients lose it.`} confirm="Delete"
        onConfirm={async () => { await p.session.request("DELETE", path); p.onDeleted(); }} />
    }>
      {p.scope.description ? <p>{p.scope.description}</p> : null}
      <h3>Protocol mappers</h3>
      {mappers.length === 0 ? <Empty what="mappers" /> : (
        <table>
          <caption class="sr-only">Protocol mappers</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Claim</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {mappers.map((m) => (
              <tr>
                <td>{m.name}</td><td>{m.mapperType}</td><td>{m.config?.["claim.name"] ?? "—"}</td>
                <td><ConfirmButton label={`Delete ${m.name}`} question={`Delete the mapper ${m.name}?`} confirm="Delete"
                  onConfirm={async () => { await p.session.request("DELETE", `${path}/protocol-mappers/${encodeURIComponent(m.id)}`); p.onChanged(); }} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={mapper.submit} noValidate aria-label="Add mapper" class="grid">
        <TextField form={mapper} name="name" label="Mapper name" required />
        <TextField form={mapper} name="mapperType" label="Mapper type" required />
        <TextField form={mapper} name="userAttribute" label="User attribute" />
        <TextField form={mapper} name="claimName" label="Token claim name" />
        <FormFooter form={mapper} submit="Add mapper" />
      </form>
    </Section>
  );
}
