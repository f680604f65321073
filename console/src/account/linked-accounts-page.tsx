import type { JSX } from "preact";
import type { AccountSession } from "./account-session";
import { when } from "../ui/format";
import { ConfirmButton, ErrorAlert, Loading, Section, useLoad } from "../ui/widgets";

interface Link {
  identityProvider: string;
  userName: string;
  createdAt?: string;
}

/** Keycloak's "Linked accounts": the identity providers this account signs in with, each unlinked on its own. */
export function LinkedAccountsPage(p: { session: AccountSession }): JSX.Element {
  const list = useLoad(() => p.session.request<Link[]>("GET", "/linked-accounts"), []);
  return (
    <>
      <div class="page-head"><h1>Linked accounts</h1></div>
      {list.loading && !list.data ? <Loading what="your linked accounts" /> : null}
      <ErrorAlert message={list.error} />
      {list.data ? (
        <Section title="Identity providers">
          {list.data.length === 0 ? <p class="muted">No linked accounts. Signing in with an identity provider on the login page links it.</p> : (
            <table>
              <caption class="sr-only">Identity providers linked to your account</caption>
              <thead><tr><th scope="col">Identity provider</th><th scope="col">Username there</th><th scope="col">Linked</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>
                {list.data.map((l) => (
                  <tr>
                    <td>{l.identityProvider}</td>
                    <td>{l.userName || "—"}</td>
                    <td>{when(l.createdAt)}</td>
                    <td><ConfirmButton label="Unlink" name={`Unlink ${l.identityProvider}`} question={`Unlink ${l.identityProvider}? You can no longer sign in with it until you link it again.`}
                      confirm="Unlink" onConfirm={async () => { await p.session.request("DELETE", `/linked-accounts/${encodeURIComponent(l.identityProvider)}`); list.reload(); }} /></td>
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
