import type { JSX } from "preact";
import type { AccountSession } from "./account-session";
import { when } from "../ui/format";
import { ConfirmButton, Empty, ErrorAlert, Loading, Section, useLoad } from "../ui/widgets";

interface Application {
  clientId: string;
  consent: { grantedScopes: string[]; createdDate: number; lastUpdatedDate: number };
}

/** Keycloak's "Applications": the clients the user granted access to, each revoked on its own. */
export function ApplicationsPage(p: { session: AccountSession }): JSX.Element {
  const list = useLoad(() => p.session.request<Application[]>("GET", "/applications"), []);
  return (
    <>
      <div class="page-head"><h1>Applications</h1></div>
      {list.loading && !list.data ? <Loading what="your applications" /> : null}
      <ErrorAlert message={list.error} />
      {list.data ? (
        <Section title="Applications with access">
          {list.data.length === 0 ? <Empty what="applications have been granted access" /> : (
            <table>
              <caption class="sr-only">Applications you granted access to</caption>
              <thead><tr><th scope="col">Application</th><th scope="col">Granted</th><th scope="col">Since</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>
                {list.data.map((a) => (
                  <tr>
                    <td>{a.clientId}</td>
                    <td>{a.consent.grantedScopes.join(", ") || "—"}</td>
                    <td>{when(new Date(a.consent.createdDate).toISOString())}</td>
                    <td><ConfirmButton label="Remove access" name={`Remove access of ${a.clientId}`} question={`Remove the access of ${a.clientId}? It loses its tokens and asks again next time.`}
                      confirm="Remove access" onConfirm={async () => { await p.session.request("DELETE", `/applications/${encodeURIComponent(a.clientId)}/consent`); list.reload(); }} /></td>
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
