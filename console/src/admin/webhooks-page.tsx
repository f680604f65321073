import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { FormFooter, useForm, type Values } from "../ui/form";
import { Empty, ErrorAlert, Loading, Pager, Section, useLoad } from "../ui/widgets";
import { go, href } from "./router";
import { SecretOnce } from "./secret-once";
import { WebhookFields, webhookBody, webhookValues, type WebhookRow } from "./webhook-fields";

const PAGE = 50;

/** Webhooks (docs/webhooks.md): the list, the create form, the signing secret shown once. */
export function WebhooksPage(p: { session: AdminSession; realm: string }): JSX.Element {
  const base = `/admin/realms/${encodeURIComponent(p.realm)}/webhooks`;
  const [first, setFirst] = useState(0);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<WebhookRow | null>(null);
  // One more than a page, to know whether a next page exists.
  const list = useLoad(() => p.session.request<WebhookRow[]>("GET", `${base}?${new URLSearchParams({ first: String(first), max: String(PAGE + 1) })}`), [base, first]);
  const rows = (list.data ?? []).slice(0, PAGE);
  if (created?.secret) {
    return <SecretOnce clientId={created.url} secret={created.secret} what="Signing secret"
      hint="Copy the secret now: it is shown only this once. The receiver verifies each delivery's webhook-signature with it (Standard Webhooks). Rotate it if it is lost."
      onDone={() => go(href(p.realm, "webhooks", created.id))} />;
  }
  return (
    <>
      <div class="page-head">
        <h1>Webhooks</h1>
        {!creating ? <button type="button" class="primary" onClick={() => setCreating(true)}>Create webhook</button> : null}
      </div>
      {creating ? <CreateWebhook session={p.session} base={base} onCancel={() => setCreating(false)} onCreated={setCreated} /> : null}
      <Section title="Webhook list">
        <ErrorAlert message={list.error} />
        {list.loading && !list.data ? <Loading what="webhooks" /> : rows.length === 0 ? <Empty what="webhooks" /> : (
          <table>
            <caption class="sr-only">Webhooks</caption>
            <thead><tr><th scope="col">Endpoint URL</th><th scope="col">Event types</th><th scope="col">Status</th></tr></thead>
            <tbody>
              {rows.map((w) => (
                <tr>
                  <td><a href={href(p.realm, "webhooks", w.id)}>{w.url}</a></td>
                  <td>{w.eventTypes.join(", ")}</td>
                  <td>{w.enabled === false ? "Disabled" : "Enabled"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager label="Webhooks" first={first} max={PAGE} count={rows.length} more={(list.data?.length ?? 0) > PAGE} onPage={setFirst} />
      </Section>
    </>
  );
}

function CreateWebhook(p: { session: AdminSession; base: string; onCancel(): void; onCreated(w: WebhookRow): void }): JSX.Element {
  const form = useForm<Values>(webhookValues({}), async (v) => {
    p.onCreated(await p.session.request<WebhookRow>("POST", p.base, webhookBody(v)));
  });
  return (
    <form class="card" onSubmit={form.submit} noValidate aria-label="Create webhook">
      <h2>Create webhook</h2>
      <WebhookFields form={form} />
      <FormFooter form={form} submit="Create"><button type="button" onClick={p.onCancel}>Cancel</button></FormFooter>
    </form>
  );
}
