import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AccountSession } from "./account-session";
import { FormFooter, TextField, useForm } from "../ui/form";
import { ErrorAlert } from "../ui/widgets";
import { messageOf } from "../ui/api-failure";

interface Begun {
  secret: string;
  otpauthUri: string;
  qrCode: string;
}

/**
 * Enrolling an authenticator application (RFC 6238), as the login's "Set up an authenticator"
 * step: the QR code and the secret as text, a first code to confirm, then the recovery codes,
 * shown this once.
 */
export function TotpSetup(p: { session: AccountSession; done(): void }): JSX.Element {
  const [begun, setBegun] = useState<Begun | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState("");
  const form = useForm({ code: "" }, async (v) => {
    const r = await p.session.request<{ recoveryCodes: string[] }>("POST", "/totp/confirm", v);
    setCodes(r.recoveryCodes);
  });
  if (codes) {
    return (
      <div class="totp-setup">
        <p class="alert alert-ok" role="status">The authenticator application is set up. Keep these recovery codes somewhere safe: each signs in once without the application, and they are not shown again.</p>
        <ul class="plain mono" aria-label="Recovery codes">{codes.map((c) => <li>{c}</li>)}</ul>
        <button type="button" class="primary" onClick={p.done}>Done</button>
      </div>
    );
  }
  if (!begun) {
    return (
      <>
        <ErrorAlert message={error} />
        <button type="button" class="primary" onClick={() => {
          setError("");
          p.session.request<Begun>("POST", "/totp").then(setBegun, (e: unknown) => setError(messageOf(e)));
        }}>Set up authenticator application</button>
      </>
    );
  }
  return (
    <div class="totp-setup">
      <p>Scan the code with an authenticator application (FreeOTP, Google Authenticator, ...), or type the key, then enter the six digits it shows.</p>
      <img src={begun.qrCode} width={200} height={200} alt="QR code of the authenticator key" />
      <p>Key: <span class="mono" id="otp-secret">{begun.secret}</span></p>
      <form onSubmit={form.submit} noValidate>
        <TextField form={form} name="code" label="Authenticator code" autoComplete="one-time-code" required />
        <FormFooter form={form} submit="Verify" />
      </form>
    </div>
  );
}
