import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { FormFooter, useForm, type Values } from "../ui/form";
import { ConfirmButton, ErrorAlert, Loading, Notice, Section, useLoad } from "../ui/widgets";
import { go, href } from "./router";
import { OrganizationFields, organizationBody, organizationValues, type OrganizationRow, useProviderChoices } from "./organization-fields";
import { OrganizationMembers } from "./organization-members";
import { OrganizationRoles, type OrganizationRole } from "./organization-roles";

/** One organization: its settings (saved with PUT), delete after confirmation, its members. */
export function OrganizationPage(p: { session: AdminSession; realm: string; orgId: string }): JSX.Element {
  const path = `/admin/realms/${encodeURIComponent(p.realm)}/organizations/${encodeURIComponent(p.orgId)}`;
  const org = useLoad(() => p.session.request<OrganizationRow>("GET", path), [path]);
  // Bumped at each role change, so every member's grants reload (a deleted role is revoked from all).
  const [rolesVersion, setRolesVersion] = useState(0);
  const roles = useLoad(() => p.session.request<OrganizationRole[]>("GET", `${path}/roles`), [path, rolesVersion]);
  if (!org.data) {
    return (
      <>
        <div class="page-head"><h1>Organization</h1></div>
        {org.error ? <ErrorAlert message={org.error} /> : <Loading what="the organization" />}
        <a href={href(p.realm, "organizations")}>Back to organizations</a>
      </>
    );
  }
  const o = org.data;
  return (
    <>
      <div class="page-head">
        <h1>{o.name}</h1>
        <ConfirmButton label="Delete organization" question={`Delete the organization ${o.name}? Its memberships and domains go with it; its users stay.`}
          confirm="Delete" onConfirm={async () => { await p.session.request("DELETE", path); go(href(p.realm, "organizations")); }} />
      </div>
      <p class="muted">Alias <code>{o.alias}</code> · ID <code>{o.id}</code></p>
      <EditOrganization key={o.id} session={p.session} realm={p.realm} path={path} org={o} onSaved={org.reload} />
      <OrganizationRoles session={p.session} path={path} roles={roles.data} error={roles.error} onChanged={() => setRolesVersion((v) => v + 1)} />
      <OrganizationMembers session={p.session} realm={p.realm} path={path} roles={roles.data ?? []} rolesVersion={rolesVersion} />
    </>
  );
}

function EditOrganization(p: { session: AdminSession; realm: string; path: string; org: OrganizationRow; onSaved(): void }): JSX.Element {
  const providers = useProviderChoices(p.session, p.realm);
  const [saved, setSaved] = useState(false);
  const form = useForm<Values>(organizationValues(p.org), async (v) => {
    setSaved(false);
    await p.session.request("PUT", p.path, organizationBody(v, false));
    setSaved(true);
    p.onSaved();
  });
  return (
    <Section title="Settings">
      <form onSubmit={form.submit} noValidate aria-label="Organization settings">
        <OrganizationFields form={form} create={false} providers={providers} />
        {saved ? <Notice message="Saved." /> : null}
        <FormFooter form={form} submit="Save" />
      </form>
    </Section>
  );
}
