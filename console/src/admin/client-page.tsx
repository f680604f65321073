import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { FormFooter, useForm, type Values } from "../ui/form";
import { ConfirmButton, ErrorAlert, Loading, Notice, Section, useLoad } from "../ui/widgets";
import { go, href } from "./router";
import { ClientFields, clientBody, clientValues, type ClientRow } from "./client-fields";
import { SecretOnce } from "./secret-once";
import { ClientRoles, ClientScopesOf } from "./client-extras";
import { ClientEvaluate } from "./client-evaluate";

/** One client: settings, secret regeneration, roles, default and optional scopes, service account, delete. */
export function ClientPage(p: { session: AdminSession; realm: string; clientId: string }): JSX.Element {
  const path = `/admin/realms/${encodeURIComponent(p.realm)}/clients/${encodeURIComponent(p.clientId)}`;
  const client = useLoad(() => p.session.request<ClientRow>("GET", path), [path]);
  const [secret, setSecret] = useState("");
  if (!client.data) return client.error ? <ErrorAlert message={client.error} /> : <Loading what="client" />;
  const c = client.data;
  if (secret) return <SecretOnce clientId={c.clientId} secret={secret} onDone={() => setSecret("")} />;
  const confidential = c.clientType !== "PUBLIC";
  return (
    <>
      <div class="page-head">
        <h1>{c.clientId}</h1>
        <span class="badge">{confidential ? "Confidential" : "Public"}</span>
        <a href={href(p.realm, "clients")}>Back to clients</a>
      </div>
      <Settings session={p.session} path={path} client={c} onSaved={client.reload} />
      {confidential ? (
        <Section title="Credentials">
          <p>The secret is stored sealed and never shown again after creation. Regenerating it stops the current one from working.</p>
          <ConfirmButton label="Regenerate secret" question={`Regenerate the secret of ${c.clientId}? The current secret stops working.`} confirm="Regenerate"
            onConfirm={async () => { const r = await p.session.request<ClientRow>("POST", `${path}/regenerate-secret`); setSecret(r.secret ?? ""); }} />
          {c.grantTypes?.includes("client_credentials") ? <ServiceAccount session={p.session} realm={p.realm} path={path} /> : null}
        </Section>
      ) : null}
      <ClientRoles session={p.session} path={path} />
      <ClientScopesOf session={p.session} realm={p.realm} path={path} />
      <ClientEvaluate session={p.session} realm={p.realm} path={path} />
      <Section title="Delete client">
        <ConfirmButton label="Delete client" question={`Delete the client ${c.clientId}? Its tokens stop working.`} confirm="Delete"
          onConfirm={async () => { await p.session.request("DELETE", path); go(href(p.realm, "clients")); }} />
      </Section>
    </>
  );
}

function Settings(p: { session: AdminSession; path: string; client: ClientRow; onSaved(): void }): JSX.Element {
  const [saved, setSaved] = useState(false);
  const form = useForm<Values>(clientValues(p.client), async (v) => {
    setSaved(false);
    await p.session.request("PUT", p.path, clientBody(v, false, p.client));
    setSaved(true);
  });
  return (
    <form class="card" onSubmit={form.submit} noValidate aria-label="Client settings">
      <h2>Settings</h2>
      <ClientFields form={form} create={false} />
      {saved ? <Notice message="Client saved." /> : null}
      <FormFooter form={form} submit="Save" />
    </form>
  );
}

function ServiceAccount(p: { session: AdminSession; realm: string; path: string }): JSX.Element {
  const user = useLoad(() => p.session.request<{ id: string; username: string }>("GET", `${p.path}/service-account-user`), [p.path]);
  if (!user.data) return <ErrorAlert message={user.error} />;
  return <p>Service account user: <a href={href(p.realm, "users", user.data.id)}>{user.data.username}</a></p>;
}
