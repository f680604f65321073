import type { JSX } from "preact";
import { CopyButton } from "../ui/widgets";

/**
 * A client secret as the API returns it, once (on creation and regeneration, spec 2.3): shown
 * here with Copy, never fetched again; leaving the page forgets it.
 */
export function SecretOnce(p: { clientId: string; secret: string; onDone(): void }): JSX.Element {
  return (
    <section class="card secret" aria-label="Client secret">
      <h2>Client secret of {p.clientId}</h2>
      <p>Copy the secret now: it is shown only this once. Regenerate it if it is lost.</p>
      <div class="secret-row">
        <label for="client-secret">Client secret</label>
        <input id="client-secret" readOnly value={p.secret} class="mono" />
        <CopyButton value={p.secret} />
      </div>
      <div class="actions"><button type="button" class="primary" onClick={p.onDone}>Done</button></div>
    </section>
  );
}
