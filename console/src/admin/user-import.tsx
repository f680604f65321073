import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { messageOf } from "../ui/api-failure";
import { ErrorAlert, Notice } from "../ui/widgets";
import { readUserFile, type UserFile } from "../../../sdk/typescript/src/user-file";

interface ImportAnswer {
  imported: number;
  skipped: number;
  failed: number;
  errors: Array<{ index: number; username: string; error: string; message: string }>;
}

/** Users per request: the API takes up to 10,000, in batches the progress can follow (as the CLI's). */
const BATCH = 500;

/**
 * Users imported from a file (spec 4.2's import; the CLI's `tessera users import` reads the same
 * files): a JSON array of users or `{"users": [...]}` (password hashes included), or CSV with a
 * header row (username, email, firstName, lastName, password, enabled, emailVerified,
 * requirePasswordReset). Sent in batches of 500; a user whose username or email is taken is skipped,
 * never overwritten; each failure is listed by its CSV line or its place in the list.
 */
export function ImportUsers(p: { session: AdminSession; realm: string; onClose(): void; onImported(): void }): JSX.Element {
  const [file, setFile] = useState<{ name: string; parsed: UserFile } | null>(null);
  const [error, setError] = useState("");
  const [progress, setProgress] = useState("");
  const [answer, setAnswer] = useState<(ImportAnswer & { total: number }) | null>(null);
  const [busy, setBusy] = useState(false);
  const choose = async (input: HTMLInputElement): Promise<void> => {
    setError("");
    setAnswer(null);
    setFile(null);
    const chosen = input.files?.[0];
    if (!chosen) return;
    try {
      setFile({ name: chosen.name, parsed: readUserFile(chosen.name, await chosen.text()) });
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const run = async (): Promise<void> => {
    if (!file || busy) return;
    const { users, lines } = file.parsed;
    const total: ImportAnswer = { imported: 0, skipped: 0, failed: 0, errors: [] };
    setBusy(true);
    setError("");
    try {
      for (let start = 0; start < users.length; start += BATCH) {
        setProgress(`Importing ${start + 1}–${Math.min(users.length, start + BATCH)} of ${users.length}…`);
        const a = await p.session.request<ImportAnswer>("POST", `/admin/realms/${encodeURIComponent(p.realm)}/users/import`, { users: users.slice(start, start + BATCH) });
        total.imported += a.imported;
        total.skipped += a.skipped;
        total.failed += a.failed;
        total.errors.push(...a.errors.map((e) => ({ ...e, index: e.index + start })));
      }
      setAnswer({ ...total, total: users.length });
      p.onImported();
    } catch (e) {
      // A refused batch stops the import; what went before it stays imported.
      setError(`${messageOf(e)} (${total.imported} imported before the failure)`);
      if (total.imported > 0) p.onImported();
    } finally {
      setBusy(false);
      setProgress("");
    }
  };
  const where = (index: number): string => (file?.parsed.lines ? `line ${file.parsed.lines[index]}` : `#${index + 1}`);
  return (
    <section class="card" aria-labelledby="import-users-title">
      <h2 id="import-users-title">Import users</h2>
      <p class="muted">A JSON file (an array of users, or <code>{'{"users": [...]}'}</code>, password hashes allowed) or a CSV file with a
        header row: username, email, firstName, lastName, password, enabled, emailVerified, requirePasswordReset. A username or email the
        realm already has is skipped, never overwritten.</p>
      <div class="field">
        <label for="import-users-file">User file</label>
        <input id="import-users-file" type="file" accept=".json,.csv,application/json,text/csv" disabled={busy}
          onChange={(e) => void choose(e.currentTarget as HTMLInputElement)} />
      </div>
      <ErrorAlert message={error} />
      {file && !answer ? <p>{file.name}: {file.parsed.users.length} users.</p> : null}
      {progress ? <p class="muted" role="status" aria-live="polite">{progress}</p> : null}
      {answer ? (
        <>
          <Notice message={`Imported ${answer.imported}, skipped ${answer.skipped}, failed ${answer.failed} of ${answer.total}.`} />
          {answer.errors.length > 0 ? (
            <table>
              <caption class="sr-only">Users not imported</caption>
              <thead><tr><th scope="col">Where</th><th scope="col">Username</th><th scope="col">Why</th></tr></thead>
              <tbody>
                {answer.errors.map((e) => <tr><td>{where(e.index)}</td><td>{e.username || "—"}</td><td>{e.error}: {e.message}</td></tr>)}
              </tbody>
            </table>
          ) : null}
        </>
      ) : null}
      <div class="actions">
        <button type="button" class="primary" disabled={!file || busy || file.parsed.users.length === 0 || answer !== null} aria-busy={busy}
          onClick={() => void run()}>{file ? `Import ${file.parsed.users.length} users` : "Import users"}</button>
        <button type="button" onClick={p.onClose}>Close</button>
      </div>
    </section>
  );
}
