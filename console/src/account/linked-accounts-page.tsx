import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AccountSession } from "./account-session";
import { linkErrorText, startLink } from "./account-link";
import { messageOf } from "../ui/api-failure";
import { when } from "../ui/format";
import { ConfirmButton, ErrorAlert, Loading, Notice, Section, useLoad } from "../ui/widgets";

interface Link {
  identityProvider: string;
  userName: string;
  createdAt?: string;
}

interface Provider {
  alias: string;
  displayName: string;
}

/**
 * Keycloak's "Linked accounts": the identity providers this account signs in with, each unlinked
 * on its own, and the realm's other providers, each linked through its own sign-in (Keycloak's
 * client-initiated account linking: account-link.ts).
 */
export function LinkedAccountsPage(p: { session: AccountSession }): JSX.Element {
  const list = useLoad(() => Promise.all([
    p.session.request<Link[]>("GET", "/linked-accounts"),
    p.session.request<Provider[]>("GET", "/identity-providers"),
  ]), []);
  const [busy, setBusy] = useState("");
  const [error, setError] = useState("");
  const [links, providers] = list.data ?? [undefined, undefined];
  const nameOf = (alias: string) => providers?.find((x) => x.alias === alias)?.displayName || alias;
  const linkable = providers?.filter((x) => !links?.some((l) => l.identityProvider === x.alias)) ?? [];
  const outcome = p.session.linkOutcome;
  const link = async (alias: string) => {
    setBusy(alias);
    setError("");
    try {
      await startLink(p.session, alias);
    } catch (e) {
      setError(messageOf(e));
      setBusy("");
    }
  };
  return (
    <>
      <div class="page-head"><h1>Linked accounts</h1></div>
      {list.loading && !list.data ? <Loading what="your linked accounts" /> : null}
      <ErrorAlert message={list.error} />
      {outcome && links ? (outcome.error
        ? <ErrorAlert message={linkErrorText(outcome.error, nameOf(outcome.alias))} />
        // Shown only when the link is there: a return without one (the back button) says nothing.
        : links.some((l) => l.identityProvider === outcome.alias) ? <Notice message={`Your ${nameOf(outcome.alias)} account is linked.`} /> : null) : null}
      {links ? (
        <Section title="Identity providers">
          {links.length === 0 ? <p class="muted">No linked accounts.</p> : (
            <table>
              <caption class="sr-only">Identity providers linked to your account</caption>
              <thead><tr><th scope="col">Identity provider</th><th scope="col">Username there</th><th scope="col">Linked</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>
                {links.map((l) => (
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
      {links && linkable.length > 0 ? (
        <Section title="Link another account">
          <p class="muted">Sign in with the provider once; then it signs you in to this account too.</p>
          <ErrorAlert message={error} />
          <table>
            <caption class="sr-only">Identity providers you can link</caption>
            <thead><tr><th scope="col">Identity provider</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {linkable.map((x) => (
                <tr>
                  <td>{x.displayName || x.alias}</td>
                  <td><button type="button" aria-label={`Link account ${x.displayName || x.alias}`} disabled={busy !== ""} onClick={() => void link(x.alias)}>Link account</button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>
      ) : null}
    </>
  );
}
