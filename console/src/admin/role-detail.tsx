import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { messageOf } from "../ui/api-failure";
import { FormFooter, SelectField, TextField, useForm, type Values } from "../ui/form";
import { Empty, ErrorAlert, Notice, Section, useLoad } from "../ui/widgets";

export interface Role { id: string; name: string; description?: string; clientRole?: boolean; clientId?: string; composite?: boolean }
interface Client { clientId: string }

/**
 * One role (realm or client, at `path`): its name and description edited (PUT), and the roles it
 * contains, as Keycloak's "Associated roles" tab: listed with a remove button each, and added from
 * the realm's roles or a chosen client's. Holders of the role hold what it contains.
 */
export function RoleDetail(p: { session: AdminSession; realm: string; path: string; role: Role; onChanged(): void }): JSX.Element {
  const realmPath = `/admin/realms/${encodeURIComponent(p.realm)}`;
  const composites = useLoad(() => p.session.request<Role[]>("GET", `${p.path}/composites`), [p.path]);
  const clients = useLoad(() => p.session.request<Client[]>("GET", `${realmPath}/clients`), [realmPath]);
  const [notice, setNotice] = useState("");
  const [error, setError] = useState("");
  const settings = useForm<Values>({ name: p.role.name, description: p.role.description ?? "" }, async (v) => {
    const saved = await p.session.request<Role>("PUT", p.path, { name: String(v.name).trim(), description: String(v.description).trim() });
    setNotice(`Role ${saved.name} saved.`);
    p.onChanged();
  });
  const add = useForm<Values>({ source: "", roleName: "" }, async (v) => {
    const source = String(v.source);
    const name = String(v.roleName).trim();
    await p.session.request("POST", `${p.path}/composites`, { roleNames: [name], ...(source ? { clientId: source } : {}) });
    setNotice(`${p.role.name} now contains ${name}.`);
    add.set("roleName", "");
    composites.reload();
    p.onChanged();
  });
  const source = String(add.values.source);
  const candidates = useLoad(
    () => p.session.request<Role[]>("GET", source ? `${realmPath}/clients/${encodeURIComponent(source)}/roles` : `${realmPath}/roles`),
    [realmPath, source],
  );
  const remove = async (r: Role): Promise<void> => {
    setError("");
    setNotice("");
    try {
      await p.session.request("DELETE", `${p.path}/composites`, { roleNames: [r.name], ...(r.clientRole ? { clientId: r.clientId } : {}) });
      setNotice(`${p.role.name} no longer contains ${r.name}.`);
      composites.reload();
      p.onChanged();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const contained = composites.data ?? [];
  const label = (r: Role): string => (r.clientRole ? `${r.clientId} ${r.name}` : r.name);
  const choices = (candidates.data ?? []).filter((r) => r.id !== p.role.id && !contained.some((c) => c.id === r.id));
  return (
    <Section title={`Role ${p.role.name}`}>
      {notice ? <Notice message={notice} /> : null}
      <ErrorAlert message={error || composites.error} />
      <form onSubmit={settings.submit} noValidate aria-label="Role settings" class="stacked">
        <TextField form={settings} name="name" label="Role name" required />
        <TextField form={settings} name="description" label="Description" />
        <FormFooter form={settings} submit="Save role" />
      </form>
      <h3>Associated roles</h3>
      <p class="muted">Whoever holds {p.role.name} holds these too, and what they contain.</p>
      {contained.length === 0 ? <Empty what="associated roles" /> : (
        <ul class="chips" aria-label="Associated roles">
          {contained.map((r) => (
            <li><span>{label(r)}</span>
              <button type="button" class="link" aria-label={`Remove ${label(r)} from ${p.role.name}`} onClick={() => void remove(r)}>Remove</button></li>
          ))}
        </ul>
      )}
      <form onSubmit={add.submit} noValidate aria-label="Add an associated role" class="inline-form">
        <SelectField form={add} name="source" label="Roles of"
          options={[{ value: "", label: "The realm" }, ...(clients.data ?? []).map((c) => ({ value: c.clientId, label: `Client ${c.clientId}` }))]} />
        <SelectField form={add} name="roleName" label="Role"
          options={[{ value: "", label: choices.length ? "Choose a role" : "No role to add" }, ...choices.map((r) => ({ value: r.name, label: r.name }))]} />
        <FormFooter form={add} submit="Add role" />
      </form>
    </Section>
  );
}
