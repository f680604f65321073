import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { CheckField, FormFooter, TextField, useForm, type Values } from "../ui/form";
import { ConfirmButton, ErrorAlert, Loading, Notice, Section, useLoad } from "../ui/widgets";
import { go, href } from "./router";
import type { UserRow } from "./users-page";
import { FederatedIdentities, UserClientRoles, UserGroups, UserRoles } from "./user-access";
import { UserSecurity, UserSessions } from "./user-sessions";
import { CredentialResetEmail, ImpersonateUser } from "./user-actions";
import { UserAttributes } from "./user-attributes";

/** One user: details, password, role and group mappings, sessions, MFA and lockout (spec 4.2, 4.5-4.7, 4.13). */
export function UserPage(p: { session: AdminSession; realm: string; userId: string }): JSX.Element {
  const path = `/admin/realms/${encodeURIComponent(p.realm)}/users/${encodeURIComponent(p.userId)}`;
  const user = useLoad(() => p.session.request<UserRow>("GET", path), [path]);
  if (!user.data) return user.error ? <ErrorAlert message={user.error} /> : <Loading what="user" />;
  const u = user.data;
  return (
    <>
      <div class="page-head">
        <h1>{u.username}</h1>
        <a href={href(p.realm, "users")}>Back to users</a>
      </div>
      <Details session={p.session} path={path} user={u} onSaved={user.reload} />
      <UserAttributes session={p.session} path={path} attributes={u.attributes} onSaved={user.reload} />
      <ResetPassword session={p.session} path={path} />
      <CredentialResetEmail session={p.session} path={path} hasEmail={!!u.email} />
      <ImpersonateUser session={p.session} path={path} username={u.username} enabled={u.enabled !== false} />
      <UserRoles session={p.session} realm={p.realm} path={path} />
      <UserClientRoles session={p.session} realm={p.realm} path={path} />
      <UserGroups session={p.session} realm={p.realm} path={path} />
      <UserSessions session={p.session} realm={p.realm} path={path} />
      <FederatedIdentities session={p.session} path={path} />
      <UserSecurity session={p.session} realm={p.realm} path={path} userId={p.userId} />
      <Section title="Delete user">
        <ConfirmButton label="Delete user" question={`Delete the user ${u.username}?`} confirm="Delete"
          onConfirm={async () => { await p.session.request("DELETE", path); go(href(p.realm, "users")); }} />
      </Section>
    </>
  );
}

function Details(p: { session: AdminSession; path: string; user: UserRow; onSaved(): void }): JSX.Element {
  const [saved, setSaved] = useState(false);
  const u = p.user;
  const form = useForm<Values>({
    username: u.username, email: u.email ?? "", firstName: u.firstName ?? "", lastName: u.lastName ?? "", enabled: u.enabled !== false,
  }, async (v) => {
    setSaved(false);
    await p.session.request("PUT", p.path, {
      username: String(v.username).trim(), email: String(v.email).trim(), firstName: String(v.firstName).trim(), lastName: String(v.lastName).trim(), enabled: v.enabled,
    });
    setSaved(true);
  });
  return (
    <form class="card" onSubmit={form.submit} noValidate aria-label="User details">
      <h2>Details</h2>
      <dl class="facts">
        <dt>ID</dt><dd><code>{u.id}</code></dd>
        <dt>Email verified</dt><dd>{u.emailVerified ? "Yes" : "No"}</dd>
        {u.federationLink ? <><dt>Federation link</dt><dd>{u.federationLink}</dd></> : null}
      </dl>
      <div class="grid">
        <TextField form={form} name="username" label="Username" required />
        <TextField form={form} name="email" label="Email" type="email" />
        <TextField form={form} name="firstName" label="First name" />
        <TextField form={form} name="lastName" label="Last name" />
        <CheckField form={form} name="enabled" label="Enabled" />
      </div>
      {saved ? <Notice message="User saved." /> : null}
      <FormFooter form={form} submit="Save" />
    </form>
  );
}

function ResetPassword(p: { session: AdminSession; path: string }): JSX.Element {
  const [done, setDone] = useState(false);
  const form = useForm<Values>({ password: "" }, async (v) => {
    setDone(false);
    await p.session.request("PUT", `${p.path}/reset-password`, { password: v.password });
    form.set("password", "");
    setDone(true);
  });
  return (
    <Section title="Credentials">
      <form onSubmit={form.submit} noValidate class="inline-form" aria-label="Reset password">
        <TextField form={form} name="password" label="New password" type="password" autoComplete="new-password" required />
        {done ? <Notice message="Password set." /> : null}
        <FormFooter form={form} submit="Reset password" />
      </form>
    </Section>
  );
}
