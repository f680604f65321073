import type { JSX } from "preact";
import { CopyButton } from "../ui/widgets";

/**
 * A secret as the API returns it, once (a client's on creation and regeneration, spec 2.3; a
 * webhook's signing secret on creation and rotation): shown here with Copy, never fetched again;
 * leaving the page forgets it. `what` names the secret ("Client secret" unless told).
 */
export function SecretOnce(p: { clientId: string; secret: string; onDone(): void; what?: string; hint?: string }): JSX.Element {
  const what = p.what ?? "Client secret";
  return (
    <section class="card secret" aria-label={what}>
      <h2>{what} of {p.clientId}</h2>
      <p>{p.hint ?? "Copy the secret now: it is shown only this once. Regenerate it if it is lost."}</p>
      <div class="secret-row">
        <label for="once-secret">{what}</label>
        <input id="once-secret" readOnly value={p.secret} class="mono" />
        <CopyButton value={p.secret} />
      </div>
      <div class="actions"><button type="button" class="primary" onClick={p.onDone}>Done</button></div>
    </section>
  );
}
