import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { FormFooter, TextField, useForm, type Values } from "../ui/form";
import { ConfirmButton, Empty, ErrorAlert, Loading, Section, useLoad } from "../ui/widgets";

import { RoleDetail, type Role } from "./role-detail";

/** Realm roles (spec 4.4): list, create, delete; a chosen role is edited, with its associated (composite) roles. */
export function RolesPage(p: { session: AdminSession; realm: string }): JSX.Element {
  const base = `/admin/realms/${encodeURIComponent(p.realm)}/roles`;
  const roles = useLoad(() => p.session.request<Role[]>("GET", base), [base]);
  const [open, setOpen] = useState("");
  // Chosen by id, so a rename keeps the role open.
  const chosen = (roles.data ?? []).find((r) => r.id === open);
  const form = useForm<Values>({ name: "", description: "" }, async (v) => {
    await p.session.request("POST", base, { name: String(v.name).trim(), ...(String(v.description).trim() ? { description: String(v.description).trim() } : {}) });
    form.set("name", "");
    form.set("description", "");
    roles.reload();
  });
  return (
    <>
      <div class="page-head"><h1>Realm roles</h1></div>
      <form class="card" onSubmit={form.submit} noValidate aria-label="Create realm role">
        <h2>Create realm role</h2>
        <div class="grid">
          <TextField form={form} name="name" label="Role name" required />
          <TextField form={form} name="description" label="Description" />
        </div>
        <FormFooter form={form} submit="Create role" />
      </form>
      <Section title="Role list">
        <ErrorAlert message={roles.error} />
        {roles.loading && !roles.data ? <Loading what="roles" /> : (roles.data ?? []).length === 0 ? <Empty what="realm roles" /> : (
          <table>
            <caption class="sr-only">Realm roles</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Description</th><th scope="col">Composite</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {roles.data!.map((r) => (
                <tr>
                  <td><button type="button" class="link" aria-current={r.id === open ? "true" : undefined} onClick={() => setOpen(r.id)}>{r.name}</button></td>
                  <td>{r.description || "—"}</td><td>{r.composite ? "Yes" : "—"}</td>
                  <td><ConfirmButton label={`Delete ${r.name}`} question={`Delete the realm role ${r.name}? Users and groups lose it.`} confirm="Delete"
                    onConfirm={async () => { await p.session.request("DELETE", `${base}/${encodeURIComponent(r.name)}`); if (open === r.id) setOpen(""); roles.reload(); }} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      {chosen ? <RoleDetail key={chosen.id} session={p.session} realm={p.realm} path={`${base}/${encodeURIComponent(chosen.name)}`} role={chosen}
        onChanged={roles.reload} /> : null}
    </>
  );
}
