import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AccountSession } from "./account-session";
import { FormFooter, TextField, useForm } from "../ui/form";
import { when } from "../ui/format";
import { ConfirmButton, ErrorAlert, Loading, Section, useLoad } from "../ui/widgets";
import { TotpSetup } from "./totp-setup";
import { RecoveryCodes } from "./recovery-codes";

/** Keycloak's application-initiated action for registering a passkey (kc_action). */
const PASSKEY_ACTION = "webauthn-register-passwordless";

interface Credential {
  id: string;
  type: "password" | "otp" | "webauthn";
  userLabel: string;
  createdDate: number;
}

export function SigningInPage(p: { session: AccountSession }): JSX.Element {
  const list = useLoad(() => p.session.request<Credential[]>("GET", "/credentials"), []);
  const password = list.data?.find((c) => c.type === "password");
  const otp = list.data?.filter((c) => c.type === "otp") ?? [];
  const passkeys = list.data?.filter((c) => c.type === "webauthn") ?? [];
  const remove = async (id: string) => {
    await p.session.request("DELETE", `/credentials/${encodeURIComponent(id)}`);
    list.reload();
  };
  return (
    <>
      <div class="page-head"><h1>Signing in</h1></div>
      {list.loading && !list.data ? <Loading what="your credentials" /> : null}
      <ErrorAlert message={list.error} />
      <PasswordForm session={p.session} changed={password ? when(new Date(password.createdDate).toISOString()) : ""} />
      <Section title="Two-factor authentication">
        <h3>Authenticator application</h3>
        {otp.length === 0 ? (list.data ? <><p class="muted">No authenticator application is set up.</p><TotpSetup session={p.session} done={list.reload} /></> : null) : (
          <ul class="plain">
            {otp.map((c) => (
              <li>
                <span>Authenticator application (TOTP), set up {when(new Date(c.createdDate).toISOString())}</span>{" "}
                <ConfirmButton label="Remove" name="Remove authenticator application" question="Remove the authenticator application? Signing in will no longer ask for its code."
                  confirm="Remove" onConfirm={() => remove(c.id)} />
              </li>
            ))}
          </ul>
        )}
        {otp.length > 0 ? <><h3>Recovery codes</h3><RecoveryCodes session={p.session} /></> : null}
        <h3>Passkeys</h3>
        {p.session.completedAction === PASSKEY_ACTION && passkeys.length > 0 ? <p class="alert alert-ok" role="status">Your passkey has been set up.</p> : null}
        {passkeys.length === 0 ? <p class="muted">No passkeys yet.</p> : (
          <ul class="plain">
            {passkeys.map((c) => (
              <li>
                <span>{c.userLabel || "Passkey"}, added {when(new Date(c.createdDate).toISOString())}</span>{" "}
                <ConfirmButton label="Remove" name={`Remove passkey ${c.userLabel || c.id}`} question={`Remove the passkey ${c.userLabel || ""}?`} confirm="Remove" onConfirm={() => remove(c.id)} />
              </li>
            ))}
          </ul>
        )}
        {/* Keycloak's "Set up passkey": the hosted pages' own WebAuthn ceremony, after the password again. */}
        <p class="muted">Setting up a passkey asks for your password, then your device or security key creates the passkey.</p>
        <button type="button" onClick={() => void p.session.signIn(PASSKEY_ACTION)}>Set up passkey</button>
      </Section>
    </>
  );
}

/**
 * The password change: the current password, then the new one twice. The server checks the
 * current one as a login does and applies the realm's policy; a change ends every session of the
 * user, this one too, so the console asks to sign in again.
 */
function PasswordForm(p: { session: AccountSession; changed: string }): JSX.Element {
  const [done, setDone] = useState(false);
  const form = useForm({ currentPassword: "", newPassword: "", confirmation: "" }, async (v) => {
    await p.session.request("POST", "/password", v);
    // The tokens held are dead now; the next call, or the button below, signs in again.
    setDone(true);
  });
  if (done) {
    return (
      <Section title="Password">
        <p class="alert alert-ok" role="status">Your password has been changed. Every session has been signed out; sign in again with the new password.</p>
        <button type="button" class="primary" onClick={() => void p.session.signIn()}>Sign in again</button>
      </Section>
    );
  }
  return (
    <Section title="Password">
      {p.changed ? <p class="muted">Last set {p.changed}.</p> : null}
      <form onSubmit={form.submit} noValidate>
        <TextField form={form} name="currentPassword" label="Current password" type="password" autoComplete="current-password" required />
        <TextField form={form} name="newPassword" label="New password" type="password" autoComplete="new-password" required />
        <TextField form={form} name="confirmation" label="Confirm new password" type="password" autoComplete="new-password" required />
        <FormFooter form={form} submit="Change password" />
      </form>
    </Section>
  );
}
