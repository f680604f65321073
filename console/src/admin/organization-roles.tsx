import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { messageOf } from "../ui/api-failure";
import { FormFooter, TextField, useForm, type Values } from "../ui/form";
import { ConfirmButton, Empty, ErrorAlert, Section, useLoad } from "../ui/widgets";

export interface OrganizationRole {
  name: string;
  description?: string;
}

/**
 * An organization's own roles (docs/organizations.md, "Organization roles"): created and deleted
 * here (a delete revokes the role from every member, so it asks first). `onChanged` lets the
 * members' grants reload their choice.
 */
export function OrganizationRoles(p: { session: AdminSession; path: string; roles: OrganizationRole[] | undefined; error: string; onChanged(): void }): JSX.Element {
  const form = useForm<Values>({ name: "", description: "" }, async (v) => {
    await p.session.request("POST", `${p.path}/roles`, { name: String(v.name).trim(), description: String(v.description).trim() });
    form.set("name", "");
    form.set("description", "");
    p.onChanged();
  });
  const roles = p.roles ?? [];
  return (
    <Section title="Organization roles">
      <ErrorAlert message={p.error} />
      {roles.length === 0 ? <Empty what="organization roles" /> : (
        <table>
          <caption class="sr-only">Organization roles</caption>
          <thead><tr><th scope="col">Role</th><th scope="col">Description</th><th scope="col">Actions</th></tr></thead>
          <tbody>
            {roles.map((r) => (
              <tr>
                <td>{r.name}</td>
                <td>{r.description || "—"}</td>
                <td><ConfirmButton label={`Delete role ${r.name}`} question={`Delete the role ${r.name}? Every member holding it loses it.`} confirm="Delete"
                  onConfirm={async () => { await p.session.request("DELETE", `${p.path}/roles/${encodeURIComponent(r.name)}`); p.onChanged(); }} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={form.submit} noValidate aria-label="Create organization role" class="inline-form">
        <TextField form={form} name="name" label="Role name" required />
        <TextField form={form} name="description" label="Role description" />
        <FormFooter form={form} submit="Create role" />
      </form>
    </Section>
  );
}

/** One member's organization roles in the members table: each revoked with a button, one granted from a list. */
export function MemberRoles(p: { session: AdminSession; path: string; username: string; roles: OrganizationRole[]; version: number }): JSX.Element {
  const held = useLoad(() => p.session.request<OrganizationRole[]>("GET", `${p.path}/roles`), [p.path, p.version]);
  const [pick, setPick] = useState("");
  const [error, setError] = useState("");
  const change = async (method: "POST" | "DELETE", name: string): Promise<void> => {
    setError("");
    try {
      await p.session.request(method, `${p.path}/roles`, [{ name }]);
      setPick("");
      held.reload();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const names = new Set((held.data ?? []).map((r) => r.name));
  const grantable = p.roles.filter((r) => !names.has(r.name));
  const id = `grant-${p.username}`;
  return (
    <div>
      <ErrorAlert message={error || held.error} />
      {(held.data ?? []).length > 0 ? (
        <ul class="chips" aria-label={`Roles of ${p.username}`}>
          {held.data!.map((r) => (
            <li><span>{r.name}</span><button type="button" class="link" aria-label={`Revoke ${r.name} from ${p.username}`}
              onClick={() => void change("DELETE", r.name)}>Revoke</button></li>
          ))}
        </ul>
      ) : null}
      {grantable.length > 0 ? (
        <div class="toolbar">
          <label for={id} class="sr-only">Role to grant {p.username}</label>
          <select id={id} value={pick} onChange={(e) => setPick((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">Choose a role</option>
            {grantable.map((r) => <option value={r.name}>{r.name}</option>)}
          </select>
          <button type="button" disabled={!pick} aria-label={`Grant role to ${p.username}`} onClick={() => void change("POST", pick)}>Grant</button>
        </div>
      ) : null}
    </div>
  );
}
