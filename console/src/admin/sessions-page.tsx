import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { messageOf } from "../ui/api-failure";
import { Empty, ErrorAlert, Loading, Pager, Section, useLoad } from "../ui/widgets";
import { when } from "../ui/format";
import { href } from "./router";

interface SessionRow {
  id: string;
  type: string;
  userId?: string;
  username?: string;
  ipAddress?: string;
  start?: string;
  lastAccess?: string;
  clients?: string[];
}

const PAGE = 25;

/** The realm's active sessions (spec 4.7), paged with `first`/`max`, each signed out on its own. */
export function SessionsPage(p: { session: AdminSession; realm: string }): JSX.Element {
  const realmPath = `/admin/realms/${encodeURIComponent(p.realm)}`;
  const [first, setFirst] = useState(0);
  const [error, setError] = useState("");
  const list = useLoad(() => p.session.request<SessionRow[]>("GET", `${realmPath}/sessions?first=${first}&max=${PAGE + 1}`), [realmPath, first]);
  const rows = (list.data ?? []).slice(0, PAGE);
  const signOut = async (s: SessionRow): Promise<void> => {
    setError("");
    try {
      await p.session.request("DELETE", `${realmPath}/sessions/${encodeURIComponent(s.id)}?type=${encodeURIComponent(s.type)}`);
      list.reload();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <>
      <div class="page-head"><h1>Sessions</h1></div>
      <Section title="Active sessions">
        <ErrorAlert message={error || list.error} />
        {list.loading && !list.data ? <Loading what="sessions" /> : rows.length === 0 ? <Empty what="active sessions" /> : (
          <table>
            <caption class="sr-only">Active sessions</caption>
            <thead><tr><th scope="col">User</th><th scope="col">Type</th><th scope="col">IP address</th><th scope="col">Started</th><th scope="col">Last access</th><th scope="col">Clients</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {rows.map((s) => (
                <tr>
                  <td>{s.userId ? <a href={href(p.realm, "users", s.userId)}>{s.username || s.userId}</a> : "—"}</td>
                  <td>{s.type}</td><td>{s.ipAddress || "—"}</td><td>{when(s.start)}</td><td>{when(s.lastAccess)}</td>
                  <td>{(s.clients ?? []).join(", ") || "—"}</td>
                  <td><button type="button" onClick={() => void signOut(s)} aria-label={`Sign out ${s.username || "the user"} (${s.type} session started ${when(s.start)})`}>Sign out</button></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager label="Sessions" first={first} max={PAGE} count={rows.length} more={(list.data?.length ?? 0) > PAGE} onPage={setFirst} />
      </Section>
    </>
  );
}
