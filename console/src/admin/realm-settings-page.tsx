import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { FormFooter, TextField, useForm, type Values } from "../ui/form";
import { ConfirmButton, ErrorAlert, Loading, Notice, Section, useLoad } from "../ui/widgets";
import { go } from "./router";
import { REALM_GROUPS, realmBody, realmValues } from "./realm-fields";
import { RealmFieldsForm } from "./realm-fields-form";

/** Spec 2.1's update fields only; the rest are fixed at creation (shown on export). */
const GROUPS = REALM_GROUPS.map((g) => ({ ...g, fields: g.fields.filter((f) => f.updatable) })).filter((g) => g.fields.length > 0);
const FIELDS = GROUPS.flatMap((g) => g.fields);

export function RealmSettingsPage(p: { session: AdminSession; realm: string }): JSX.Element {
  const path = `/admin/realms/${encodeURIComponent(p.realm)}`;
  const realm = useLoad(() => p.session.request<Record<string, unknown>>("GET", path), [path]);
  const themes = useLoad(() => p.session.request<string[]>("GET", "/admin/realms/themes"), []);
  if (!realm.data) return realm.error ? <ErrorAlert message={realm.error} /> : <Loading what="realm" />;
  return (
    <>
      <div class="page-head"><h1>Realm settings</h1><span class="muted">{p.realm}</span></div>
      <SettingsForm session={p.session} path={path} realm={realm.data} themes={themes.data ?? []} />
      <TestEmail session={p.session} path={path} />
      <Section title="Export">
        <ExportRealm session={p.session} path={path} realm={p.realm} />
      </Section>
      <Section title="Danger zone">
        <p>Deleting the realm removes its users, clients, sessions and events.</p>
        <ConfirmButton label="Delete realm" question={`Delete the realm ${p.realm} and everything in it?`} confirm="Delete"
          onConfirm={async () => { await p.session.request("DELETE", path); go("#/realms"); }} />
      </Section>
    </>
  );
}

function SettingsForm(p: { session: AdminSession; path: string; realm: Record<string, unknown>; themes: string[] }): JSX.Element {
  const [saved, setSaved] = useState(false);
  const form = useForm<Values>(realmValues(p.realm, FIELDS), async (v) => {
    setSaved(false);
    await p.session.request("PUT", p.path, realmBody(v, FIELDS));
    setSaved(true);
  });
  return (
    <form class="card" onSubmit={form.submit} noValidate aria-label="Realm settings">
      <RealmFieldsForm form={form} groups={GROUPS} themes={p.themes} />
      {saved ? <Notice message="Realm settings saved." /> : null}
      <FormFooter form={form} submit="Save" />
    </form>
  );
}

function TestEmail(p: { session: AdminSession; path: string }): JSX.Element {
  const [result, setResult] = useState("");
  const form = useForm<Values>({ to: "" }, async (v) => {
    setResult("");
    const res = await p.session.request<{ message: string }>("POST", `${p.path}/email/test`, { to: v.to });
    setResult(res.message);
  });
  return (
    <Section title="Test the email settings">
      <form onSubmit={form.submit} noValidate class="inline-form">
        <TextField form={form} name="to" label="Recipient" type="email" required />
        {result ? <Notice message={result} /> : null}
        <FormFooter form={form} submit="Send test email" />
      </form>
    </Section>
  );
}

/** The realm's JSON (spec 4.1 export) saved as a file; secrets only when asked for. */
function ExportRealm(p: { session: AdminSession; path: string; realm: string }): JSX.Element {
  const [users, setUsers] = useState(false);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const run = async (): Promise<void> => {
    setBusy(true);
    setError("");
    try {
      const json = await p.session.request<unknown>("GET", `${p.path}/export?includeUsers=${users}`);
      const url = URL.createObjectURL(new Blob([JSON.stringify(json, null, 2)], { type: "application/json" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = `realm-${p.realm}.json`;
      a.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="inline-form">
      <div class="field field-check">
        <input id="export-users" type="checkbox" checked={users} onChange={(e) => setUsers((e.currentTarget as HTMLInputElement).checked)} />
        <label for="export-users">Include users</label>
      </div>
      <ErrorAlert message={error} />
      <div class="actions"><button type="button" disabled={busy} aria-busy={busy} onClick={() => void run()}>{busy ? "Exporting…" : "Export realm"}</button></div>
    </div>
  );
}
