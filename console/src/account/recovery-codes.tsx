import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AccountSession } from "./account-session";
import { FormFooter, TextField, useForm } from "../ui/form";

/**
 * New recovery codes without enrolling the authenticator again: the current password first (the
 * API refuses without it), then the ten new codes, shown this once; the earlier ones stop working.
 */
export function RecoveryCodes(p: { session: AccountSession }): JSX.Element {
  const [open, setOpen] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const form = useForm({ currentPassword: "" }, async (v) => {
    const r = await p.session.request<{ recoveryCodes: string[] }>("POST", "/totp/recovery-codes", v);
    form.set("currentPassword", "");
    setCodes(r.recoveryCodes);
  });
  if (codes) {
    return (
      <div class="totp-setup">
        <p class="alert alert-ok" role="status">New recovery codes. Keep them somewhere safe: each signs in once without the application, they are not shown again, and the earlier codes no longer work.</p>
        <ul class="plain mono" aria-label="Recovery codes">{codes.map((c) => <li>{c}</li>)}</ul>
        <button type="button" class="primary" onClick={() => { setCodes(null); setOpen(false); }}>Done</button>
      </div>
    );
  }
  if (!open) return <button type="button" onClick={() => setOpen(true)}>New recovery codes</button>;
  return (
    <form onSubmit={form.submit} noValidate aria-label="New recovery codes" class="totp-setup">
      <p>Your current recovery codes stop working. Enter your password to get new ones.</p>
      <TextField form={form} name="currentPassword" label="Password for new recovery codes" type="password" autoComplete="current-password" required />
      <FormFooter form={form} submit="Get new recovery codes"><button type="button" onClick={() => setOpen(false)}>Cancel</button></FormFooter>
    </form>
  );
}
