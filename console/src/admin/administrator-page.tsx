import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { CheckField, FormFooter, TextField, useForm, type Values } from "../ui/form";
import { when } from "../ui/format";
import { ConfirmButton, ErrorAlert, Loading, Notice, Section, useLoad } from "../ui/widgets";
import { go } from "./router";
import { ADMINISTRATORS, type AdminRow } from "./administrators-page";
import { RealmAccessField, accessBody, accessValue, useRealmNames } from "./realm-access-field";

/**
 * One administrator: what it may do (server admin, realm access), a new password, delete. The
 * API refuses to remove the last server admin, an admin's own server admin role and its own
 * account (409); the message is shown where it was asked.
 */
export function AdministratorPage(p: { session: AdminSession; adminId: string }): JSX.Element {
  const path = `/admin/admins/${encodeURIComponent(p.adminId)}`;
  const admin = useLoad(() => p.session.request<AdminRow>("GET", path), [path]);
  if (!admin.data) {
    return (
      <>
        <div class="page-head"><h1>Administrator</h1></div>
        {admin.error ? <ErrorAlert message={admin.error} /> : <Loading what="the administrator" />}
        <a href={ADMINISTRATORS}>Back to administrators</a>
      </>
    );
  }
  const a = admin.data;
  const self = a.id === p.session.user?.id;
  return (
    <>
      <div class="page-head">
        <h1>{a.username}</h1>
        <a href={ADMINISTRATORS}>Back to administrators</a>
      </div>
      <dl class="facts">
        <dt>ID</dt><dd><code>{a.id}</code></dd>
        <dt>Created</dt><dd>{when(a.createdAt)}</dd>
        {self ? <><dt>Signed in</dt><dd>This is the account you are signed in with.</dd></> : null}
      </dl>
      <Access key={a.id} session={p.session} path={path} admin={a} onSaved={admin.reload} />
      <SetPassword session={p.session} path={path} self={self} />
      <Section title="Delete administrator">
        <p class="muted">Its sign-ins end with it. The last server admin and the account you are signed in with cannot be deleted.</p>
        <ConfirmButton label="Delete administrator" question={`Delete the administrator ${a.username}?`} confirm="Delete"
          onConfirm={async () => { await p.session.request("DELETE", path); go(ADMINISTRATORS); }} />
      </Section>
    </>
  );
}

/** Server admin and the realm access, sent together: the list replaces the admin's whole list. */
function Access(p: { session: AdminSession; path: string; admin: AdminRow; onSaved(): void }): JSX.Element {
  const realms = useRealmNames(p.session);
  const [saved, setSaved] = useState(false);
  const form = useForm<Values>({ serverAdmin: p.admin.serverAdmin, realmAccess: accessValue(p.admin.realmAccess) }, async (v) => {
    setSaved(false);
    const after = await p.session.request<AdminRow>("PUT", p.path, { serverAdmin: Boolean(v.serverAdmin), realmAccess: accessBody(v.realmAccess) });
    // The rows as the API keeps them (blank ones gone, roles in order).
    form.set("realmAccess", accessValue(after.realmAccess));
    setSaved(true);
    p.onSaved();
  });
  return (
    <Section title="Access">
      <form onSubmit={form.submit} noValidate aria-label="Access">
        <p class="hint">A change applies to the administrator's current sign-ins at once.</p>
        <CheckField form={form} name="serverAdmin" label="Server admin" />
        <RealmAccessField form={form} realms={realms} />
        {saved ? <Notice message="Access saved." /> : null}
        <FormFooter form={form} submit="Save" />
      </form>
    </Section>
  );
}

/** A new password; it ends every sign-in of the account (the signed-in admin's own: this one too). */
function SetPassword(p: { session: AdminSession; path: string; self: boolean }): JSX.Element {
  const [done, setDone] = useState(false);
  const form = useForm<Values>({ password: "" }, async (v) => {
    setDone(false);
    await p.session.request("PUT", p.path, { password: v.password });
    form.set("password", "");
    if (p.self) p.session.signOut("Your password was changed: sign in with the new one.");
    else setDone(true);
  });
  return (
    <Section title="Password">
      <form onSubmit={form.submit} noValidate class="inline-form" aria-label="Set password">
        <TextField form={form} name="password" label="New password" type="password" autoComplete="new-password" required
          hint={`At least 12 characters. It signs the administrator out everywhere${p.self ? ", you in this tab too" : ""}.`} />
        {done ? <Notice message="Password set; the administrator's sign-ins have ended." /> : null}
        <FormFooter form={form} submit="Set password" />
      </form>
    </Section>
  );
}
