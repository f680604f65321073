import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { FormFooter, useForm, type Values } from "../ui/form";
import { when } from "../ui/format";
import { ConfirmButton, ErrorAlert, Loading, Notice, Section, useLoad } from "../ui/widgets";
import { go, href } from "./router";
import { SecretOnce } from "./secret-once";
import { WebhookFields, webhookBody, webhookValues, type WebhookRow } from "./webhook-fields";
import { WebhookDeliveries } from "./webhook-deliveries";

/** One webhook: its settings, a secret rotation (the new secret shown once), delete, its deliveries. */
export function WebhookPage(p: { session: AdminSession; realm: string; webhookId: string }): JSX.Element {
  const path = `/admin/realms/${encodeURIComponent(p.realm)}/webhooks/${encodeURIComponent(p.webhookId)}`;
  const hook = useLoad(() => p.session.request<WebhookRow>("GET", path), [path]);
  const [rotated, setRotated] = useState("");
  if (!hook.data) {
    return (
      <>
        <div class="page-head"><h1>Webhook</h1></div>
        {hook.error ? <ErrorAlert message={hook.error} /> : <Loading what="the webhook" />}
        <a href={href(p.realm, "webhooks")}>Back to webhooks</a>
      </>
    );
  }
  const w = hook.data;
  if (rotated) {
    return <SecretOnce clientId={w.url} secret={rotated} what="Signing secret"
      hint="Copy the new secret now: it is shown only this once. The old one keeps signing beside it for the grace period, then stops." onDone={() => setRotated("")} />;
  }
  return (
    <>
      <div class="page-head">
        <h1>Webhook {w.url}</h1>
        <div class="actions">
          <ConfirmButton label="Rotate secret" danger={false} question="Replace the signing secret? The old one keeps signing beside it for the webhook's grace period." confirm="Rotate"
            onConfirm={async () => setRotated((await p.session.request<{ secret: string }>("POST", `${path}/secret`)).secret)} />
          <ConfirmButton label="Delete webhook" question={`Delete the webhook to ${w.url} and its deliveries?`} confirm="Delete"
            onConfirm={async () => { await p.session.request("DELETE", path); go(href(p.realm, "webhooks")); }} />
        </div>
      </div>
      <p class="muted">ID <code>{w.id}</code> · created {when(w.createdAt)} · updated {when(w.updatedAt)}</p>
      <EditWebhook key={w.id} session={p.session} path={path} hook={w} onSaved={hook.reload} />
      <WebhookDeliveries session={p.session} path={path} />
    </>
  );
}

function EditWebhook(p: { session: AdminSession; path: string; hook: WebhookRow; onSaved(): void }): JSX.Element {
  const [saved, setSaved] = useState(false);
  const form = useForm<Values>(webhookValues(p.hook), async (v) => {
    setSaved(false);
    await p.session.request("PUT", p.path, webhookBody(v));
    setSaved(true);
    p.onSaved();
  });
  return (
    <Section title="Settings">
      <form onSubmit={form.submit} noValidate aria-label="Webhook settings">
        <WebhookFields form={form} />
        {saved ? <Notice message="Saved." /> : null}
        <FormFooter form={form} submit="Save" />
      </form>
    </Section>
  );
}
