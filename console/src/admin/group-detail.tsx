import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { messageOf } from "../ui/api-failure";
import { FormFooter, TextField, useForm, type Values } from "../ui/form";
import { ConfirmButton, Empty, ErrorAlert, Section, useLoad } from "../ui/widgets";
import { href } from "./router";
import type { UserRow } from "./users-page";
import type { GroupNode } from "./groups-page";
import { attributesOf, attributesText } from "./attribute-lines";

interface Role { name: string }

/** One group: rename and attributes, members (add by username, remove), role mappings, a sub-group, delete. */
export function GroupDetail(p: { session: AdminSession; realm: string; group: GroupNode; onChanged(): void; onDeleted(): void; onSelect(id: string): void }): JSX.Element {
  const realmPath = `/admin/realms/${encodeURIComponent(p.realm)}`;
  const path = `${realmPath}/groups/${encodeURIComponent(p.group.id)}`;
  const members = useLoad(() => p.session.request<UserRow[]>("GET", `${path}/members`), [path]);
  const roles = useLoad(() => p.session.request<Role[]>("GET", `${path}/role-mappings`), [path]);
  const realmRoles = useLoad(() => p.session.request<Role[]>("GET", `${realmPath}/roles`), [realmPath]);
  const [error, setError] = useState("");
  const [rolePick, setRolePick] = useState("");
  const run = async (action: () => Promise<unknown>, after: () => void): Promise<void> => {
    setError("");
    try {
      await action();
      after();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const rename = useForm<Values>({ name: p.group.name, description: p.group.description ?? "", attributes: attributesText(p.group.attributes) }, async (v) => {
    // The attributes replace the group's whole set, as the API's PUT reads them.
    await p.session.request("PUT", path, { name: String(v.name).trim(), description: String(v.description).trim(), attributes: attributesOf(String(v.attributes)) });
    p.onChanged();
  });
  const addMember = useForm<Values>({ username: "" }, async (v) => {
    const name = String(v.username).trim();
    const found = await p.session.request<{ users: UserRow[] }>("GET", `${realmPath}/users?${new URLSearchParams({ username: name, limit: "5" })}`);
    const user = found.users.find((u) => u.username === name.toLowerCase() || u.username === name);
    if (!user) throw new Error(`no user named ${name} in this realm`);
    await p.session.request("PUT", `${realmPath}/users/${encodeURIComponent(user.id)}/groups/${encodeURIComponent(p.group.id)}`);
    addMember.set("username", "");
    members.reload();
  });
  const sub = useForm<Values>({ name: "" }, async (v) => {
    const created = await p.session.request<GroupNode>("POST", `${realmPath}/groups`, { name: String(v.name).trim(), parentId: p.group.id });
    p.onChanged();
    p.onSelect(created.id);
  });
  const mappedNames = new Set((roles.data ?? []).map((r) => r.name));
  return (
    <Section title={`Group ${p.group.path || p.group.name}`} actions={
      <ConfirmButton label="Delete group" question={`Delete the group ${p.group.name}, its sub-groups and memberships?`} confirm="Delete"
        onConfirm={async () => { await p.session.request("DELETE", path); p.onDeleted(); }} />
    }>
      <ErrorAlert message={error} />
      <form onSubmit={rename.submit} noValidate aria-label="Group details" class="grid">
        <TextField form={rename} name="name" label="Name" required />
        <TextField form={rename} name="description" label="Description" />
        <TextField form={rename} name="attributes" label="Attributes" multiline
          hint="One key=value a line; repeat a key for several values. Members inherit them in user attribute mappers." />
        <FormFooter form={rename} submit="Save group" />
      </form>
      <h3>Members</h3>
      <ErrorAlert message={members.error} />
      {(members.data ?? []).length === 0 ? <Empty what="members" /> : (
        <ul class="chips" aria-label="Members">
          {members.data!.map((u) => (
            <li>
              <a href={href(p.realm, "users", u.id)}>{u.username}</a>
              <button type="button" class="link" aria-label={`Remove member ${u.username}`}
                onClick={() => void run(() => p.session.request("DELETE", `${realmPath}/users/${encodeURIComponent(u.id)}/groups/${encodeURIComponent(p.group.id)}`), members.reload)}>Remove</button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={addMember.submit} noValidate aria-label="Add member" class="inline-form">
        <TextField form={addMember} name="username" label="Member username" required />
        <FormFooter form={addMember} submit="Add member" />
      </form>
      <h3>Role mapping</h3>
      {(roles.data ?? []).length === 0 ? <Empty what="roles mapped" /> : (
        <ul class="chips" aria-label="Group roles">
          {roles.data!.map((r) => (
            <li><span>{r.name}</span><button type="button" class="link" aria-label={`Remove role ${r.name}`}
              onClick={() => void run(() => p.session.request("DELETE", `${path}/role-mappings`, { roleNames: [r.name] }), roles.reload)}>Remove</button></li>
          ))}
        </ul>
      )}
      <div class="toolbar">
        <label for="group-role">Realm role</label>
        <select id="group-role" value={rolePick} onChange={(e) => setRolePick((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">Choose a role</option>
          {(realmRoles.data ?? []).filter((r) => !mappedNames.has(r.name)).map((r) => <option value={r.name}>{r.name}</option>)}
        </select>
        <button type="button" disabled={!rolePick}
          onClick={() => void run(() => p.session.request("POST", `${path}/role-mappings`, { roleNames: [rolePick] }), () => { setRolePick(""); roles.reload(); })}>Assign role</button>
      </div>
      <form onSubmit={sub.submit} noValidate aria-label="Create sub-group" class="inline-form">
        <TextField form={sub} name="name" label="Sub-group name" required />
        <FormFooter form={sub} submit="Create sub-group" />
      </form>
    </Section>
  );
}
