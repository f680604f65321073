import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { messageOf } from "../ui/api-failure";
import { FormFooter, TextField, useForm, type Values } from "../ui/form";
import { ConfirmButton, Empty, ErrorAlert, Loading, Notice, Pager, Section, useLoad } from "../ui/widgets";
import { href } from "./router";
import type { UserRow } from "./users-page";
import { MemberRoles, type OrganizationRole } from "./organization-roles";

const PAGE = 20;
const FOUND = 10;

/**
 * An organization's members (docs/organizations.md, "Members"): a page at a time (`first`, `max`,
 * the total from `members/count`), removed one by one; an existing user found by a search of the
 * realm's users and added by id (the API takes the id as a JSON string) or invited; an invitation
 * by email.
 */
export function OrganizationMembers(p: { session: AdminSession; realm: string; path: string; roles: OrganizationRole[]; rolesVersion: number }): JSX.Element {
  const [first, setFirst] = useState(0);
  const [search, setSearch] = useState("");
  const [applied, setApplied] = useState("");
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  // The count has no search: a searched page asks for one more row than it shows, to know whether a next one exists.
  const members = useLoad(async () => {
    const q = new URLSearchParams({ first: String(first), max: String(applied ? PAGE + 1 : PAGE), ...(applied ? { search: applied } : {}) });
    const [rows, total] = await Promise.all([
      p.session.request<UserRow[]>("GET", `${p.path}/members?${q}`),
      applied ? Promise.resolve(undefined) : p.session.request<number>("GET", `${p.path}/members/count`),
    ]);
    return { rows, total };
  }, [p.path, first, applied]);
  const rows = (members.data?.rows ?? []).slice(0, PAGE);
  const more = members.data?.total !== undefined ? first + rows.length < members.data.total : (members.data?.rows.length ?? 0) > PAGE;
  const act = async (action: () => Promise<unknown>, done: string): Promise<boolean> => {
    setError("");
    setNotice("");
    try {
      await action();
      setNotice(done);
      members.reload();
      return true;
    } catch (e) {
      setError(messageOf(e));
      return false;
    }
  };
  const memberIds = new Set(rows.map((u) => u.id));
  return (
    <Section title="Members">
      <form role="search" class="toolbar" onSubmit={(e) => { e.preventDefault(); setFirst(0); setApplied(search.trim()); }}>
        <label for="member-search" class="sr-only">Search members</label>
        <input id="member-search" type="search" placeholder="Username" value={search}
          onInput={(e) => setSearch((e.currentTarget as HTMLInputElement).value)} />
        <button type="submit">Search members</button>
      </form>
      <ErrorAlert message={error || members.error} />
      {notice ? <Notice message={notice} /> : null}
      {members.loading && !members.data ? <Loading what="members" /> : rows.length === 0 ? <Empty what={applied ? "members match" : "members"} /> : (
        <table>
          <caption class="sr-only">Organization members</caption>
          <thead><tr><th scope="col">Username</th><th scope="col">Email</th><th scope="col">Membership</th><th scope="col">Organization roles</th><th scope="col">Actions</th></tr></thead>
          <tbody>
            {rows.map((u) => (
              <tr>
                <td><a href={href(p.realm, "users", u.id)}>{u.username}</a></td>
                <td>{u.email || "—"}</td>
                <td>{(u as UserRow & { membershipType?: string }).membershipType ?? "UNMANAGED"}</td>
                <td><MemberRoles session={p.session} path={`${p.path}/members/${encodeURIComponent(u.id)}`} username={u.username} roles={p.roles} version={p.rolesVersion} /></td>
                <td>{(u as UserRow & { membershipType?: string }).membershipType === "MANAGED" ? (
                  // A MANAGED member's account is deleted with the membership (Keycloak 26): asked first.
                  <ConfirmButton label="Remove" name={`Remove member ${u.username}`} confirm="Remove and delete the account"
                    question={`Remove ${u.username}? The organization's identity provider created this account, so it is deleted too.`}
                    onConfirm={async () => {
                      await p.session.request("DELETE", `${p.path}/members/${encodeURIComponent(u.id)}`);
                      setNotice(`${u.username} is no longer a member; the account was deleted.`);
                      members.reload();
                    }} />
                ) : (
                  <button type="button" class="link" aria-label={`Remove member ${u.username}`}
                    onClick={() => void act(() => p.session.request("DELETE", `${p.path}/members/${encodeURIComponent(u.id)}`), `${u.username} is no longer a member.`)}>Remove</button>
                )}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager label="Members" first={first} max={PAGE} count={rows.length} total={members.data?.total} more={more} onPage={setFirst} />
      <AddMember session={p.session} realm={p.realm} isMember={(id) => memberIds.has(id)}
        onAdd={(u) => act(() => p.session.request("POST", `${p.path}/members`, u.id), `${u.username} is now a member.`)}
        onInvite={(u) => act(() => p.session.request("POST", `${p.path}/members/invite-existing-user`, { id: u.id }), `An invitation was sent to ${u.username}.`)} />
      <InviteMember session={p.session} path={p.path} />
    </Section>
  );
}

/**
 * A search of the realm's users (username, email, names), each found one added with a button, or
 * invited (Keycloak's invite-existing-user: a mail with a link; the user joins on accepting it).
 */
function AddMember(p: { session: AdminSession; realm: string; isMember(id: string): boolean; onAdd(u: UserRow): Promise<unknown>; onInvite(u: UserRow): Promise<unknown> }): JSX.Element {
  const [found, setFound] = useState<UserRow[] | null>(null);
  const form = useForm<Values>({ search: "" }, async (v) => {
    const q = new URLSearchParams({ search: String(v.search).trim(), limit: String(FOUND) });
    const r = await p.session.request<{ users: UserRow[] }>("GET", `/admin/realms/${encodeURIComponent(p.realm)}/users?${q}`);
    setFound(r.users);
  });
  return (
    <>
      <h3>Add an existing user</h3>
      <form onSubmit={form.submit} noValidate aria-label="Add an existing user" class="inline-form" role="search">
        <TextField form={form} name="search" label="Search users" hint="Username, email, first or last name." />
        <FormFooter form={form} submit="Find users" />
      </form>
      {found === null ? null : found.length === 0 ? <Empty what="users match" /> : (
        <ul class="chips" aria-label="Users found">
          {found.map((u) => (
            <li>
              <span>{u.username}{u.email ? ` (${u.email})` : ""}</span>
              {/* A member on another page of the members shows Add; the API's 409 then says so. */}
              {p.isMember(u.id) ? <span class="muted small">member</span> : (
                <>
                  <button type="button" class="link" aria-label={`Add ${u.username} as a member`}
                    onClick={() => void p.onAdd(u)}>Add</button>
                  {/* The invitation goes to the user's email: one without has nothing to invite. */}
                  {u.email ? <button type="button" class="link" aria-label={`Invite ${u.username} by email`}
                    onClick={() => void p.onInvite(u)}>Invite</button> : null}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** An invitation mailed through the realm's SMTP settings; the API's refusal shows beside its field. */
function InviteMember(p: { session: AdminSession; path: string }): JSX.Element {
  const [sent, setSent] = useState("");
  const form = useForm<Values>({ email: "", firstName: "", lastName: "" }, async (v) => {
    setSent("");
    const email = String(v.email).trim();
    await p.session.request("POST", `${p.path}/members/invite-user`, { email, firstName: String(v.firstName).trim(), lastName: String(v.lastName).trim() });
    setSent(`An invitation was sent to ${email}.`);
    form.set("email", "");
  });
  return (
    <>
      <h3>Invite by email</h3>
      <form onSubmit={form.submit} noValidate aria-label="Invite by email">
        <div class="grid">
          <TextField form={form} name="email" label="Email to invite" type="email" required />
          <TextField form={form} name="firstName" label="Invitee first name" />
          <TextField form={form} name="lastName" label="Invitee last name" />
        </div>
        {sent ? <Notice message={sent} /> : null}
        <FormFooter form={form} submit="Send invitation" />
      </form>
    </>
  );
}
