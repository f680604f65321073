import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { useChanges } from "../ui/use-changes";
import type { AccountSession } from "./account-session";
import { PersonalInfoPage } from "./personal-info-page";
import { SigningInPage } from "./signing-in-page";
import { DeviceActivityPage } from "./device-activity-page";
import { ApplicationsPage } from "./applications-page";
import { LinkedAccountsPage } from "./linked-accounts-page";

type Page = "personal-info" | "signing-in" | "device-activity" | "linked-accounts" | "applications";

const NAV: { page: Page; label: string }[] = [
  { page: "personal-info", label: "Personal info" },
  { page: "signing-in", label: "Signing in" },
  { page: "device-activity", label: "Device activity" },
  { page: "linked-accounts", label: "Linked accounts" },
  { page: "applications", label: "Applications" },
];

function pageOf(hash: string): Page {
  const p = hash.replace(/^#\/?/, "");
  return (NAV.some((n) => n.page === p) ? p : "personal-info") as Page;
}

/** The account console: Keycloak's sections, one page each, addressed by the URL fragment. */
export function App(p: { session: AccountSession }): JSX.Element {
  const [, setTick] = useState(0);
  const [page, setPage] = useState<Page>(() => pageOf(location.hash));
  // The return from the login puts the section back in the URL with replaceState, which fires no
  // hashchange: the session's change re-reads it.
  useChanges(p.session, () => { setTick((t) => t + 1); setPage(pageOf(location.hash)); });
  useEffect(() => {
    const on = () => setPage(pageOf(location.hash));
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  const label = NAV.find((n) => n.page === page)!.label;
  useEffect(() => {
    document.title = `${p.session.signedIn ? label : "Signing in"} · ${p.session.realm} · Account console`;
  }, [label, p.session.signedIn, p.session.realm]);
  const main = useRef<HTMLElement>(null);
  // A new page moves focus to the content, so keyboard and screen reader users start there.
  useEffect(() => main.current?.focus(), [page]);

  if (!p.session.signedIn) {
    return (
      <main id="main" class="signed-out">
        <h1>Account console</h1>
        {p.session.error
          ? <><p class="alert alert-error" role="alert">{p.session.error}</p>
            <button type="button" class="primary" onClick={() => void p.session.signIn()}>Sign in</button></>
          : <p class="muted" role="status" aria-live="polite">Signing in…</p>}
      </main>
    );
  }
  return (
    <div class="shell">
      <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); main.current?.focus(); }}>Skip to content</a>
      <header class="masthead">
        <RealmBrand />
        <span class="who">Signed in as <strong>{p.session.username}</strong></span>
        <button type="button" class="on-dark" onClick={() => p.session.signOut()}>Sign out</button>
      </header>
      <div class="body">
        <nav class="sidebar" aria-label="Account">
          <div class="realm-current">
            <span class="muted small">Realm</span>
            <strong>{p.session.realm}</strong>
          </div>
          <ul>
            {NAV.map((n) => <li><a href={`#/${n.page}`} aria-current={n.page === page ? "page" : undefined}>{n.label}</a></li>)}
          </ul>
        </nav>
        <main id="main" ref={main} tabIndex={-1}>
          {page === "personal-info" ? <PersonalInfoPage session={p.session} /> : null}
          {page === "signing-in" ? <SigningInPage session={p.session} /> : null}
          {page === "device-activity" ? <DeviceActivityPage session={p.session} /> : null}
          {page === "linked-accounts" ? <LinkedAccountsPage session={p.session} /> : null}
          {page === "applications" ? <ApplicationsPage session={p.session} /> : null}
        </main>
      </div>
    </div>
  );
}

/** The realm's `<meta>` set by the server from its theme (gateway account-look.ts), or "". */
const realmMeta = (name: string): string => document.querySelector<HTMLMetaElement>(`meta[name="tessera-realm-${name}"]`)?.content ?? "";

/** The realm's logo and display name, as its login pages show them; Tessera's name without a logo. */
function RealmBrand(): JSX.Element {
  const title = realmMeta("title");
  const logo = realmMeta("logo");
  return (
    <span class="brand">
      {logo ? <img class="realm-logo" src={logo} alt={title || "Realm logo"} /> : title ? <>{title}</> : <>Tessera</>}
      <span class="brand-sub">account console</span>
    </span>
  );
}
