import type { JSX } from "preact";
import type { AccountSession } from "./account-session";
import { when } from "../ui/format";
import { ConfirmButton, Empty, ErrorAlert, Loading, Section, useLoad } from "../ui/widgets";

interface AccountSessionView {
  id: string;
  type: "sso" | "oauth";
  ipAddress: string;
  started: number;
  lastAccess: number;
  expires: number;
  clients: string[];
  current: boolean;
}

const at = (ms: number) => when(ms ? new Date(ms).toISOString() : undefined);

/** Keycloak's "Device activity": where the user is signed in, each signed out on its own or all at once. */
export function DeviceActivityPage(p: { session: AccountSession }): JSX.Element {
  const list = useLoad(() => p.session.request<AccountSessionView[]>("GET", "/sessions"), []);
  const signOutAll = async () => {
    await p.session.request("DELETE", "/sessions");
    // This session was among them.
    p.session.signOut();
  };
  return (
    <>
      <div class="page-head">
        <h1>Device activity</h1>
        <ConfirmButton label="Sign out all devices" question="Sign out every device, this one too?" confirm="Sign out all" onConfirm={signOutAll} />
      </div>
      {list.loading && !list.data ? <Loading what="your sessions" /> : null}
      <ErrorAlert message={list.error} />
      {list.data ? (
        <Section title="Signed-in devices">
          {list.data.length === 0 ? <Empty what="sessions" /> : (
            <table>
              <caption class="sr-only">Your sessions</caption>
              <thead><tr><th scope="col">IP address</th><th scope="col">Started</th><th scope="col">Last access</th><th scope="col">Applications</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>
                {list.data.map((s) => (
                  <tr data-session={s.id}>
                    <td>{s.ipAddress || "—"}{s.current ? <strong class="tag"> This session</strong> : null}</td>
                    <td>{at(s.started)}</td>
                    <td>{at(s.lastAccess)}</td>
                    <td>{s.clients.join(", ") || "—"}</td>
                    <td>{s.current ? null : (
                      <ConfirmButton label="Sign out" name={`Sign out session from ${s.ipAddress || "unknown address"} started ${at(s.started)}`}
                        question="Sign out this device? Its applications lose their tokens." confirm="Sign out"
                        onConfirm={async () => { await p.session.request("DELETE", `/sessions/${encodeURIComponent(s.id)}`); list.reload(); }} />
                    )}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Section>
      ) : null}
    </>
  );
}
