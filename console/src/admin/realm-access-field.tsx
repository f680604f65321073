import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { FormState, Values } from "../ui/form";
import { useLoad } from "../ui/widgets";
import type { AdminSession } from "./admin-session";
import { ADMIN_ROLES, type RealmGrant } from "./admin-access";

/** The grants as the form holds them (`realmAccess`, JSON of the rows, blank rows included). */
export function accessValue(grants: RealmGrant[]): string {
  return JSON.stringify(grants.map((g) => ({ realm: g.realm, roles: [...g.roles] })));
}

function rowsOf(value: string | boolean | undefined): RealmGrant[] {
  return JSON.parse(String(value || "[]")) as RealmGrant[];
}

const blank = (g: RealmGrant): boolean => g.realm.trim() === "" && g.roles.length === 0;

/**
 * The grants to send: rows left wholly blank dropped, realm names trimmed, roles in the list's
 * order (a role this console does not know stays, after them). The API replaces the whole list.
 */
export function accessBody(value: string | boolean | undefined): RealmGrant[] {
  return rowsOf(value).filter((g) => !blank(g)).map((g) => ({
    realm: g.realm.trim(),
    roles: [...ADMIN_ROLES.filter((r) => g.roles.includes(r)), ...g.roles.filter((r) => !ADMIN_ROLES.includes(r))],
  }));
}

/** The server's realms (the first 100 by name) the editor offers; none while loading or when refused. */
export function useRealmNames(session: AdminSession): string[] {
  const list = useLoad(() => session.request<{ name: string }[]>("GET", "/admin/realms?first=0&max=100"), []);
  return (list.data ?? []).map((r) => r.name);
}

let ids = 0;

/**
 * The realm access editor: a row per realm, its name typed or picked from the server's realms
 * (a grant may name a realm not created yet) and its roles as check boxes; rows are added and
 * removed. The API's refusal is shown under the rows; the row it names (`realmAccess[1]...`, or a
 * realm in quotes) is marked invalid and described by it.
 */
export function RealmAccessField(p: { form: FormState<Values>; realms: string[] }): JSX.Element {
  const [id] = useState(() => `acc${++ids}`);
  const rows = rowsOf(p.form.values.realmAccess);
  const error = p.form.errorOf("realmAccess");
  // The API counts the rows it was sent, which leaves out blank ones.
  const sent = rows.map((g, i) => (blank(g) ? -1 : i)).filter((i) => i >= 0);
  const at = /realmAccess\[(\d+)\]/.exec(error)?.[1];
  const named = /realm "([^"]+)"/.exec(error)?.[1];
  const invalid = (g: RealmGrant, i: number): boolean =>
    Boolean(error) && ((at !== undefined && sent[Number(at)] === i) || (named !== undefined && g.realm.trim() === named));
  const put = (next: RealmGrant[]): void => p.form.set("realmAccess", accessValue(next));
  const change = (i: number, g: Partial<RealmGrant>): void => put(rows.map((r, j) => (j === i ? { ...r, ...g } : r)));
  const add = (): void => {
    put([...rows, { realm: "", roles: [] }]);
    // Keyboard users continue in the row they asked for.
    setTimeout(() => document.getElementById(`${id}-${rows.length}`)?.focus(), 0);
  };
  return (
    <fieldset class="group" aria-describedby={`${id}-hint${error ? ` ${id}-err` : ""}`}>
      <legend>Realm access</legend>
      <p class="hint" id={`${id}-hint`}>
        Keycloak's realm-management roles, per realm: manage-x includes view-x, realm-admin every role. A realm need not
        exist yet. A server admin does everything (every realm, creating and deleting realms, the administrators), whatever
        is listed here.
      </p>
      <datalist id={`${id}-realms`}>{p.realms.map((r) => <option value={r} />)}</datalist>
      {rows.map((g, i) => {
        const bad = invalid(g, i);
        const roles = [...ADMIN_ROLES, ...g.roles.filter((r) => !ADMIN_ROLES.includes(r))];
        return (
          <fieldset class={`grant${bad ? " field-error" : ""}`}>
            <legend>Realm access {i + 1}</legend>
            <div class="inline-form">
              <div class="field">
                <label for={`${id}-${i}`}>Realm name</label>
                <input id={`${id}-${i}`} list={`${id}-realms`} value={g.realm} autoComplete="off" placeholder="acme"
                  aria-invalid={bad ? "true" : undefined} aria-describedby={bad ? `${id}-err` : undefined}
                  onInput={(e) => change(i, { realm: (e.currentTarget as HTMLInputElement).value })} />
              </div>
              <div class="actions"><button type="button" onClick={() => put(rows.filter((_, j) => j !== i))}>Remove realm access {i + 1}</button></div>
            </div>
            <div class="role-checks">
              {roles.map((r) => (
                <div class="field field-check">
                  <input type="checkbox" id={`${id}-${i}-${r}`} checked={g.roles.includes(r)}
                    onChange={(e) => change(i, { roles: (e.currentTarget as HTMLInputElement).checked ? [...g.roles, r] : g.roles.filter((x) => x !== r) })} />
                  <label for={`${id}-${i}-${r}`}>{r}</label>
                </div>
              ))}
            </div>
          </fieldset>
        );
      })}
      {rows.length === 0 ? <p class="muted">No realm access.</p> : null}
      {error ? <p class="error-text" id={`${id}-err`} role="alert">{error}</p> : null}
      <div class="actions"><button type="button" onClick={add}>Add realm access</button></div>
    </fieldset>
  );
}
