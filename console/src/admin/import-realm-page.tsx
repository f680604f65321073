import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { messageOf } from "../ui/api-failure";
import { ErrorAlert, Notice } from "../ui/widgets";
import { href } from "./router";

interface Imported {
  name: string;
  importReport?: { path: string; message: string }[];
}

/** Realm import (spec 4.1; docs/export-import.md): a Tessera or Keycloak export, with progress while it runs. */
export function ImportRealmPage(p: { session: AdminSession }): JSX.Element {
  const [file, setFile] = useState<File | null>(null);
  const [overwrite, setOverwrite] = useState(false);
  const [stage, setStage] = useState<"" | "reading" | "importing">("");
  const [error, setError] = useState("");
  const [done, setDone] = useState<Imported | null>(null);
  const run = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (!file) { setError("Choose a realm file first."); return; }
    setError("");
    setDone(null);
    try {
      setStage("reading");
      let doc: unknown;
      try {
        doc = JSON.parse(await file.text());
      } catch {
        throw new Error(`${file.name} is not JSON`);
      }
      setStage("importing");
      setDone(await p.session.request<Imported>("POST", `/admin/realms/import?overwrite=${overwrite}`, doc));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setStage("");
    }
  };
  return (
    <>
      <div class="page-head"><h1>Import realm</h1><a href="#/realms">Back to realms</a></div>
      <form class="card" onSubmit={(e) => void run(e)} noValidate aria-label="Import realm">
        <div class="field">
          <label for="realm-file">Realm file (JSON)</label>
          <input id="realm-file" type="file" accept="application/json,.json" onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)} />
          <p class="hint">An export of Tessera or of Keycloak.</p>
        </div>
        <div class="field field-check">
          <input id="overwrite" type="checkbox" checked={overwrite} onChange={(e) => setOverwrite((e.currentTarget as HTMLInputElement).checked)} />
          <label for="overwrite">Overwrite the realm if it exists</label>
        </div>
        {stage ? (
          <p role="status" aria-live="polite"><progress aria-label="Import in progress" /> {stage === "reading" ? "Reading the file…" : "Importing the realm…"}</p>
        ) : null}
        <ErrorAlert message={error} />
        {done ? (
          <>
            <Notice message={`Realm ${done.name} imported.`} />
            {(done.importReport ?? []).length > 0 ? (
              <>
                <h2>Not carried over</h2>
                <ul>{done.importReport!.map((r) => <li><code>{r.path}</code>: {r.message}</li>)}</ul>
              </>
            ) : null}
            <p><a href={href(done.name, "users")}>Open {done.name}</a></p>
          </>
        ) : null}
        <div class="actions"><button type="submit" class="primary" disabled={stage !== ""} aria-busy={stage !== ""}>Import realm</button></div>
      </form>
    </>
  );
}
