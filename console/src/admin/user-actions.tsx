import type { JSX } from "preact";
import { useRef, useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { messageOf } from "../ui/api-failure";
import { ConfirmButton, ErrorAlert, Notice, Section } from "../ui/widgets";

/** The required actions an execute-actions email may carry, with Keycloak's labels. */
const ACTIONS: Array<[string, string]> = [
  ["UPDATE_PASSWORD", "Update Password"],
  ["VERIFY_EMAIL", "Verify Email"],
  ["CONFIGURE_TOTP", "Configure OTP"],
];
const UNITS: Array<[number, string]> = [[60, "minutes"], [3_600, "hours"], [86_400, "days"]];

/**
 * Keycloak's "Credential reset" dialog: mails the user a link to run the chosen required actions
 * (execute-actions-email), working for the chosen time (Keycloak's default 12 hours).
 */
export function CredentialResetEmail(p: { session: AdminSession; path: string; hasEmail: boolean }): JSX.Element {
  const dialog = useRef<HTMLDialogElement>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [amount, setAmount] = useState("12");
  const [unit, setUnit] = useState(3_600);
  const [error, setError] = useState("");
  const [sent, setSent] = useState("");
  const [busy, setBusy] = useState(false);
  const toggle = (action: string, on: boolean) => setChosen((c) => on ? ACTIONS.map(([a]) => a).filter((a) => a === action || c.includes(a)) : c.filter((a) => a !== action));
  const send = async (): Promise<void> => {
    const n = Number(amount);
    if (!Number.isInteger(n) || n < 1) {
      setError("The link's lifetime must be a whole number above 0.");
      return;
    }
    setBusy(true);
    setError("");
    try {
      await p.session.request("PUT", `${p.path}/execute-actions-email?lifespan=${n * unit}`, chosen);
      dialog.current?.close();
      setSent(`An email was sent with ${chosen.length} action${chosen.length === 1 ? "" : "s"}.`);
      setChosen([]);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title="Send email">
      {p.hasEmail ? null : <p class="muted">The user has no email address.</p>}
      {sent ? <Notice message={sent} /> : null}
      <button type="button" disabled={!p.hasEmail} onClick={() => { setSent(""); setError(""); dialog.current?.showModal(); }}>Credential reset</button>
      <dialog ref={dialog} aria-label="Credential reset">
        <h2>Credential reset</h2>
        <fieldset>
          <legend>Reset actions</legend>
          {ACTIONS.map(([a, label]) => (
            <div class="field field-check">
              <input type="checkbox" id={`action-${a}`} checked={chosen.includes(a)} onChange={(e) => toggle(a, (e.currentTarget as HTMLInputElement).checked)} />
              <label for={`action-${a}`}>{label}</label>
            </div>
          ))}
        </fieldset>
        <div class="toolbar">
          <label for="actions-lifespan">Expires in</label>
          <input id="actions-lifespan" type="number" min="1" value={amount} onInput={(e) => setAmount((e.currentTarget as HTMLInputElement).value)} />
          <label for="actions-lifespan-unit" class="sr-only">Unit</label>
          <select id="actions-lifespan-unit" value={String(unit)} onChange={(e) => setUnit(Number((e.currentTarget as HTMLSelectElement).value))}>
            {UNITS.map(([s, name]) => <option value={String(s)}>{name}</option>)}
          </select>
        </div>
        <ErrorAlert message={error} />
        <div class="actions">
          <button type="button" disabled={busy || chosen.length === 0} onClick={() => void send()}>Send email</button>
          <button type="button" onClick={() => dialog.current?.close()}>Cancel</button>
        </div>
      </dialog>
    </Section>
  );
}

/**
 * Keycloak's "Impersonate": after a confirmation, the console's administrator gets an SSO session
 * as the user (the answer sets the realm's cookie in this browser) and the account console opens
 * in a new tab.
 */
export function ImpersonateUser(p: { session: AdminSession; path: string; username: string; enabled: boolean }): JSX.Element {
  const [opened, setOpened] = useState("");
  return (
    <Section title="Impersonate">
      <p class="muted">Sign in as this user in this browser; the realm's account console opens in a new tab.</p>
      {opened ? <Notice message={opened} /> : null}
      {p.enabled ? (
        <ConfirmButton label="Impersonate" danger={false} confirm="Impersonate"
          question={`Impersonate ${p.username}? This browser will be signed in to the realm as ${p.username}.`}
          onConfirm={async () => {
            const res = await p.session.impersonate(p.path);
            window.open(res.redirect, "_blank", "noopener");
            setOpened(`Signed in as ${p.username}: the account console opened in a new tab.`);
          }} />
      ) : <p class="muted">A disabled user cannot be impersonated.</p>}
    </Section>
  );
}
