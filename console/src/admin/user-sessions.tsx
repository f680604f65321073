import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { messageOf } from "../ui/api-failure";
import { ConfirmButton, Empty, ErrorAlert, Notice, Section, useLoad } from "../ui/widgets";
import { when } from "../ui/format";

interface SessionRow {
  id: string;
  type: string;
  ipAddress?: string;
  start?: string;
  lastAccess?: string;
  clients?: string[];
}

interface OfflineRow {
  id: string;
  clientId?: string;
  createdAt?: string;
  expiresAt?: string;
  scope?: string;
}

/** Active sessions (spec 4.7) with sign-out one by one or all; offline sessions with revoke. */
export function UserSessions(p: { session: AdminSession; realm: string; path: string }): JSX.Element {
  const realmPath = `/admin/realms/${encodeURIComponent(p.realm)}`;
  const active = useLoad(() => p.session.request<SessionRow[]>("GET", `${p.path}/sessions`), [p.path]);
  const offline = useLoad(() => p.session.request<OfflineRow[]>("GET", `${p.path}/offline-sessions`), [p.path]);
  const [error, setError] = useState("");
  const act = async (run: () => Promise<unknown>): Promise<void> => {
    setError("");
    try {
      await run();
    } catch (e) {
      setError(messageOf(e));
    }
    active.reload();
    offline.reload();
  };
  const sessions = active.data ?? [];
  return (
    <Section title="Sessions" actions={sessions.length > 0 ? (
      <ConfirmButton label="Sign out all sessions" question="Sign this user out of every session?" confirm="Sign out all"
        onConfirm={async () => { await p.session.request("DELETE", `${p.path}/sessions`); active.reload(); }} />
    ) : null}>
      <ErrorAlert message={error || active.error} />
      {sessions.length === 0 ? <Empty what="active sessions" /> : (
        <table>
          <caption class="sr-only">Active sessions</caption>
          <thead><tr><th scope="col">Type</th><th scope="col">IP address</th><th scope="col">Started</th><th scope="col">Last access</th><th scope="col">Clients</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {sessions.map((s) => (
              <tr>
                <td>{s.type}</td><td>{s.ipAddress || "—"}</td><td>{when(s.start)}</td><td>{when(s.lastAccess)}</td>
                <td>{(s.clients ?? []).join(", ") || "—"}</td>
                <td><button type="button" onClick={() => void act(() => p.session.request("DELETE", `${realmPath}/sessions/${encodeURIComponent(s.id)}?type=${encodeURIComponent(s.type)}`))}
                  aria-label={`Sign out the ${s.type} session started ${when(s.start)}`}>Sign out</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Offline sessions</h3>
      <ErrorAlert message={offline.error} />
      {(offline.data ?? []).length === 0 ? <Empty what="offline sessions" /> : (
        <table>
          <caption class="sr-only">Offline sessions</caption>
          <thead><tr><th scope="col">Client</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {offline.data!.map((o) => (
              <tr>
                <td>{o.clientId || "—"}</td><td>{when(o.createdAt)}</td><td>{when(o.expiresAt)}</td>
                <td><button type="button" onClick={() => void act(() => p.session.request("DELETE", `${p.path}/offline-sessions/${encodeURIComponent(o.id)}`))}
                  aria-label={`Revoke the offline session of ${o.clientId ?? "a client"}`}>Revoke</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

/** MFA status and reset, and the brute-force unlock (spec 4.13). */
export function UserSecurity(p: { session: AdminSession; realm: string; path: string; userId: string }): JSX.Element {
  const mfa = useLoad(() => p.session.request<{ enabled: boolean }>("GET", `${p.path}/mfa/status`), [p.path]);
  const [notice, setNotice] = useState("");
  const [error, setError] = useState("");
  const unlock = async (): Promise<void> => {
    setError("");
    setNotice("");
    try {
      await p.session.request("POST", `/admin/realms/${encodeURIComponent(p.realm)}/brute-force/users/${encodeURIComponent(p.userId)}/unlock`);
      setNotice("User unlocked.");
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <Section title="Security">
      <ErrorAlert message={error || mfa.error} />
      {notice ? <Notice message={notice} /> : null}
      <p>Two-factor authentication: <strong>{mfa.data ? (mfa.data.enabled ? "configured" : "not configured") : "…"}</strong></p>
      <div class="actions">
        {mfa.data?.enabled ? (
          <ConfirmButton label="Reset MFA" question="Remove this user's one-time password device?" confirm="Reset MFA"
            onConfirm={async () => { await p.session.request("DELETE", `${p.path}/mfa`); mfa.reload(); }} />
        ) : null}
        <button type="button" onClick={() => void unlock()}>Unlock user</button>
      </div>
    </Section>
  );
}
