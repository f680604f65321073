import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { messageOf } from "../ui/api-failure";
import { when } from "../ui/format";
import { Empty, ErrorAlert, Loading, Notice, Pager, Section, useLoad } from "../ui/widgets";
import { href } from "./router";

interface LockedUser {
  userId: string;
  username: string;
  failureCount: number;
  lastFailure: string;
  lockedUntil: string | null;
  permanent: boolean;
  temporaryLockouts: number;
}

const PAGE = 20;

/**
 * The users brute-force detection has locked out (spec 4.13), latest failure first, each unlocked
 * with a button; a permanent lockout (the user disabled) is said so, as Keycloak's user page does.
 * The API answers the whole list (at most 10,000); the console pages through it.
 */
export function LockedUsers(p: { session: AdminSession; realm: string }): JSX.Element {
  const realmPath = `/admin/realms/${encodeURIComponent(p.realm)}/brute-force`;
  const list = useLoad(() => p.session.request<LockedUser[]>("GET", `${realmPath}/locked-users`), [realmPath]);
  const [first, setFirst] = useState(0);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const all = list.data ?? [];
  const rows = all.slice(first, first + PAGE);
  const unlock = async (u: LockedUser): Promise<void> => {
    setError("");
    setNotice("");
    try {
      await p.session.request("POST", `${realmPath}/users/${encodeURIComponent(u.userId)}/unlock`);
      setNotice(`${u.username} is unlocked.`);
      if (first > 0 && rows.length === 1) setFirst(first - PAGE);
      list.reload();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <Section title="Locked users">
      <ErrorAlert message={error || list.error} />
      {notice ? <Notice message={notice} /> : null}
      {list.loading && !list.data ? <Loading what="locked users" /> : rows.length === 0 ? <Empty what="locked users" /> : (
        <table>
          <caption class="sr-only">Locked users</caption>
          <thead><tr><th scope="col">Username</th><th scope="col">Failures</th><th scope="col">Last failure</th><th scope="col">Locked until</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {rows.map((u) => (
              <tr>
                <td><a href={href(p.realm, "users", u.userId)}>{u.username}</a></td>
                <td>{u.failureCount}</td>
                <td>{when(u.lastFailure)}</td>
                <td>{u.permanent ? "Permanently (disabled)" : when(u.lockedUntil ?? undefined)}</td>
                <td><button type="button" class="link" aria-label={`Unlock ${u.username}`} onClick={() => void unlock(u)}>Unlock</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {all.length > PAGE ? <Pager label="Locked users" first={first} max={PAGE} count={rows.length} total={all.length} more={first + rows.length < all.length} onPage={setFirst} /> : null}
    </Section>
  );
}
