import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { messageOf } from "../ui/api-failure";
import { ConfirmButton, Empty, ErrorAlert, Section, useLoad } from "../ui/widgets";
import { flattenGroups, type GroupNode } from "./groups-page";

interface Role {
  name: string;
  description?: string;
}

/** The user's realm role mappings (spec 4.5): assign from the realm's roles, remove one at a time. */
export function UserRoles(p: { session: AdminSession; realm: string; path: string }): JSX.Element {
  const mapped = useLoad(() => p.session.request<Role[]>("GET", `${p.path}/role-mappings/realm`), [p.path]);
  const all = useLoad(() => p.session.request<Role[]>("GET", `/admin/realms/${encodeURIComponent(p.realm)}/roles`), [p.realm]);
  const [pick, setPick] = useState("");
  const [error, setError] = useState("");
  const names = new Set((mapped.data ?? []).map((r) => r.name));
  const available = (all.data ?? []).filter((r) => !names.has(r.name));
  const change = async (method: "POST" | "DELETE", role: string): Promise<void> => {
    setError("");
    try {
      await p.session.request(method, `${p.path}/role-mappings/realm`, { roleNames: [role] });
      setPick("");
      mapped.reload();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <Section title="Role mapping">
      <ErrorAlert message={error || mapped.error} />
      {(mapped.data ?? []).length === 0 ? <Empty what="realm roles assigned" /> : (
        <ul class="chips" aria-label="Assigned realm roles">
          {mapped.data!.map((r) => (
            <li><span>{r.name}</span><button type="button" class="link" onClick={() => void change("DELETE", r.name)} aria-label={`Remove role ${r.name}`}>Remove</button></li>
          ))}
        </ul>
      )}
      <div class="toolbar">
        <label for="assign-role">Realm role</label>
        <select id="assign-role" value={pick} onChange={(e) => setPick((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">Choose a role</option>
          {available.map((r) => <option value={r.name}>{r.name}</option>)}
        </select>
        <button type="button" disabled={!pick} onClick={() => void change("POST", pick)}>Assign role</button>
      </div>
    </Section>
  );
}

/** The user's group memberships (spec 4.6): join any group of the tree, leave one. */
export function UserGroups(p: { session: AdminSession; realm: string; path: string }): JSX.Element {
  const mine = useLoad(() => p.session.request<GroupNode[]>("GET", `${p.path}/groups`), [p.path]);
  const tree = useLoad(() => p.session.request<GroupNode[]>("GET", `/admin/realms/${encodeURIComponent(p.realm)}/groups`), [p.realm]);
  const [pick, setPick] = useState("");
  const [error, setError] = useState("");
  const ids = new Set((mine.data ?? []).map((g) => g.id));
  const available = flattenGroups(tree.data ?? []).filter((g) => !ids.has(g.id));
  const change = async (method: "PUT" | "DELETE", groupId: string): Promise<void> => {
    setError("");
    try {
      await p.session.request(method, `${p.path}/groups/${encodeURIComponent(groupId)}`);
      setPick("");
      mine.reload();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <Section title="Groups">
      <ErrorAlert message={error || mine.error} />
      {(mine.data ?? []).length === 0 ? <Empty what="group memberships" /> : (
        <ul class="chips" aria-label="Group memberships">
          {mine.data!.map((g) => (
            <li><span>{g.path || g.name}</span><button type="button" class="link" onClick={() => void change("DELETE", g.id)} aria-label={`Leave group ${g.path || g.name}`}>Leave</button></li>
          ))}
        </ul>
      )}
      <div class="toolbar">
        <label for="join-group">Group</label>
        <select id="join-group" value={pick} onChange={(e) => setPick((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">Choose a group</option>
          {available.map((g) => <option value={g.id}>{g.path || g.name}</option>)}
        </select>
        <button type="button" disabled={!pick} onClick={() => void change("PUT", pick)}>Join group</button>
      </div>
    </Section>
  );
}

interface FederatedIdentity {
  identityProvider: string;
  userId?: string;
  userName?: string;
}

/** The user's links to identity providers (Keycloak's federated identities), each unlinked after confirmation. */
export function FederatedIdentities(p: { session: AdminSession; path: string }): JSX.Element {
  const links = useLoad(() => p.session.request<FederatedIdentity[]>("GET", `${p.path}/federated-identity`), [p.path]);
  return (
    <Section title="Identity provider links">
      <ErrorAlert message={links.error} />
      {(links.data ?? []).length === 0 ? <Empty what="linked identity providers" /> : (
        <table>
          <caption class="sr-only">Identity provider links</caption>
          <thead><tr><th scope="col">Provider</th><th scope="col">User at the provider</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {links.data!.map((l) => (
              <tr>
                <td>{l.identityProvider}</td><td>{l.userName || l.userId || "—"}</td>
                <td><ConfirmButton label={`Unlink ${l.identityProvider}`} question={`Unlink ${l.identityProvider} from this user?`} confirm="Unlink"
                  onConfirm={async () => { await p.session.request("DELETE", `${p.path}/federated-identity/${encodeURIComponent(l.identityProvider)}`); links.reload(); }} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

/** The user's client role mappings (spec 4.5), one client at a time. */
export function UserClientRoles(p: { session: AdminSession; realm: string; path: string }): JSX.Element {
  const clients = useLoad(() => p.session.request<{ clientId: string }[]>("GET", `/admin/realms/${encodeURIComponent(p.realm)}/clients`), [p.realm]);
  const [client, setClient] = useState("");
  return (
    <Section title="Client role mapping">
      <ErrorAlert message={clients.error} />
      <div class="toolbar">
        <label for="role-client">Client</label>
        <select id="role-client" value={client} onChange={(e) => setClient((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">Choose a client</option>
          {(clients.data ?? []).map((c) => <option value={c.clientId}>{c.clientId}</option>)}
        </select>
      </div>
      {client ? <ClientRoleMapping key={client} session={p.session} realm={p.realm} path={p.path} clientId={client} /> : null}
    </Section>
  );
}

function ClientRoleMapping(p: { session: AdminSession; realm: string; path: string; clientId: string }): JSX.Element {
  const mappingPath = `${p.path}/role-mappings/clients/${encodeURIComponent(p.clientId)}`;
  const mapped = useLoad(() => p.session.request<Role[]>("GET", mappingPath), [mappingPath]);
  const all = useLoad(() => p.session.request<Role[]>("GET", `/admin/realms/${encodeURIComponent(p.realm)}/clients/${encodeURIComponent(p.clientId)}/roles`), [p.clientId]);
  const [pick, setPick] = useState("");
  const [error, setError] = useState("");
  const names = new Set((mapped.data ?? []).map((r) => r.name));
  const change = async (method: "POST" | "DELETE", role: string): Promise<void> => {
    setError("");
    try {
      await p.session.request(method, mappingPath, { roleNames: [role] });
      setPick("");
      mapped.reload();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <>
      <ErrorAlert message={error || mapped.error} />
      {(mapped.data ?? []).length === 0 ? <Empty what={`roles of ${p.clientId} assigned`} /> : (
        <ul class="chips" aria-label={`Assigned roles of ${p.clientId}`}>
          {mapped.data!.map((r) => (
            <li><span>{r.name}</span><button type="button" class="link" onClick={() => void change("DELETE", r.name)} aria-label={`Remove client role ${r.name}`}>Remove</button></li>
          ))}
        </ul>
      )}
      <div class="toolbar">
        <label for="assign-client-role">Role of {p.clientId}</label>
        <select id="assign-client-role" value={pick} onChange={(e) => setPick((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">Choose a role</option>
          {(all.data ?? []).filter((r) => !names.has(r.name)).map((r) => <option value={r.name}>{r.name}</option>)}
        </select>
        <button type="button" disabled={!pick} onClick={() => void change("POST", pick)}>Assign client role</button>
      </div>
    </>
  );
}
