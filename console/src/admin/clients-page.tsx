import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { FormFooter, TextField, useForm, type Values } from "../ui/form";
import { Empty, ErrorAlert, Loading, Section, useLoad } from "../ui/widgets";
import { go, href } from "./router";
import { ClientFields, clientBody, clientValues, type ClientRow } from "./client-fields";
import { SecretOnce } from "./secret-once";

/** Clients (spec 4.3): the list, the create form, the new secret shown once. */
export function ClientsPage(p: { session: AdminSession; realm: string }): JSX.Element {
  const base = `/admin/realms/${encodeURIComponent(p.realm)}/clients`;
  const list = useLoad(() => p.session.request<ClientRow[]>("GET", base), [base]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ClientRow | null>(null);
  const [filter, setFilter] = useState("");
  const rows = (list.data ?? []).filter((c) => !filter || c.clientId.includes(filter.toLowerCase()) || (c.name ?? "").toLowerCase().includes(filter.toLowerCase()));
  if (created?.secret) {
    return <SecretOnce clientId={created.clientId} secret={created.secret} onDone={() => go(href(p.realm, "clients", created.clientId))} />;
  }
  return (
    <>
      <div class="page-head">
        <h1>Clients</h1>
        {!creating ? <button type="button" class="primary" onClick={() => setCreating(true)}>Create client</button> : null}
      </div>
      {creating ? (
        <CreateClient session={p.session} base={base} onCancel={() => setCreating(false)}
          onCreated={(c) => (c.secret ? setCreated(c) : go(href(p.realm, "clients", c.clientId)))} />
      ) : null}
      <Section title="Client list">
        <div class="toolbar">
          <label for="client-filter" class="sr-only">Filter clients</label>
          <input id="client-filter" type="search" placeholder="Filter by client ID or name" value={filter}
            onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)} />
        </div>
        <ErrorAlert message={list.error} />
        {list.loading && !list.data ? <Loading what="clients" /> : rows.length === 0 ? <Empty what="clients match" /> : (
          <table>
            <caption class="sr-only">Clients</caption>
            <thead><tr><th scope="col">Client ID</th><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Status</th></tr></thead>
            <tbody>
              {rows.map((c) => (
                <tr>
                  <td><a href={href(p.realm, "clients", c.clientId)}>{c.clientId}</a></td>
                  <td>{c.name || "—"}</td>
                  <td>{c.clientType === "PUBLIC" ? "Public" : "Confidential"}</td>
                  <td>{c.enabled === false ? "Disabled" : "Enabled"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </>
  );
}

function CreateClient(p: { session: AdminSession; base: string; onCancel(): void; onCreated(c: ClientRow): void }): JSX.Element {
  const form = useForm<Values>({ clientId: "", ...clientValues({}, true) }, async (v) => {
    const created = await p.session.request<ClientRow>("POST", p.base, { clientId: String(v.clientId).trim(), ...clientBody(v, true) });
    p.onCreated(created);
  });
  return (
    <form class="card" onSubmit={form.submit} noValidate aria-label="Create client">
      <h2>Create client</h2>
      <TextField form={form} name="clientId" label="Client ID" required hint="Lowercase letters, digits and dashes; the client_id of OAuth requests." />
      <ClientFields form={form} create />
      <FormFooter form={form} submit="Create"><button type="button" onClick={p.onCancel}>Cancel</button></FormFooter>
    </form>
  );
}
