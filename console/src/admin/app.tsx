import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { useChanges } from "../ui/use-changes";
import type { AdminSession } from "./admin-session";
import { href, useRoute, type Page, type Route } from "./router";
import { SignInPage } from "./sign-in-page";
import { RealmsPage } from "./realms-page";
import { CreateRealmPage } from "./create-realm-page";
import { RealmSettingsPage } from "./realm-settings-page";
import { UsersPage } from "./users-page";
import { UserPage } from "./user-page";
import { ClientsPage } from "./clients-page";
import { ClientPage } from "./client-page";
import { RolesPage } from "./roles-page";
import { GroupsPage } from "./groups-page";
import { ClientScopesPage } from "./client-scopes-page";
import { EventsPage } from "./events-page";
import { AdminEventsPage } from "./admin-events-page";
import { ResourcePage } from "./resource-page";
import { IDENTITY_PROVIDERS, SAML_SERVICE_PROVIDERS, USER_FEDERATION } from "./provider-kinds";
import { ImportRealmPage } from "./import-realm-page";
import { AUTHENTICATION_FLOWS } from "./authentication-flows-kind";
import { SessionsPage } from "./sessions-page";
import { OrganizationsPage } from "./organizations-page";
import { OrganizationPage } from "./organization-page";
import { WebhooksPage } from "./webhooks-page";
import { WebhookPage } from "./webhook-page";
import { KeysPage } from "./keys-page";
import { ADMINISTRATORS, AdministratorsPage } from "./administrators-page";
import { AdministratorPage } from "./administrator-page";

const NAV: { page: Page; label: string }[] = [
  { page: "settings", label: "Realm settings" },
  { page: "keys", label: "Keys" },
  { page: "users", label: "Users" },
  { page: "clients", label: "Clients" },
  { page: "client-scopes", label: "Client scopes" },
  { page: "roles", label: "Realm roles" },
  { page: "groups", label: "Groups" },
  { page: "organizations", label: "Organizations" },
  { page: "sessions", label: "Sessions" },
  { page: "authentication", label: "Authentication" },
  { page: "identity-providers", label: "Identity providers" },
  { page: "user-federation", label: "User federation" },
  { page: "saml-service-providers", label: "SAML service providers" },
  { page: "events", label: "Events" },
  { page: "admin-events", label: "Admin events" },
  { page: "webhooks", label: "Webhooks" },
];

/** The detail page each list page's nav entry stays current on. */
const PARENT: Partial<Record<Page, Page>> = { user: "users", client: "clients", organization: "organizations", webhook: "webhooks" };

const TITLES: Record<Page, string> = {
  realms: "Realms", "create-realm": "Create realm", settings: "Realm settings", users: "Users", user: "User details",
  clients: "Clients", client: "Client details", roles: "Realm roles", groups: "Groups", "client-scopes": "Client scopes",
  events: "Events", "admin-events": "Admin events", "identity-providers": "Identity providers", "user-federation": "User federation",
  "saml-service-providers": "SAML service providers", import: "Import realm", sessions: "Sessions",
  organizations: "Organizations", organization: "Organization details", webhooks: "Webhooks", webhook: "Webhook details",
  authentication: "Authentication", keys: "Keys", administrators: "Administrators", administrator: "Administrator details",
};

export function App(p: { session: AdminSession }): JSX.Element {
  const [, setTick] = useState(0);
  useChanges(p.session, () => setTick((t) => t + 1));
  const route = useRoute();
  const user = p.session.user;
  useEffect(() => {
    document.title = user ? `${TITLES[route.page]}${route.realm ? ` · ${route.realm}` : ""} · Tessera admin console` : "Sign in · Tessera admin console";
  }, [user, route.page, route.realm]);
  if (!user) return <SignInPage session={p.session} />;
  return (
    // How often the token was renewed in this tab: nothing a person reads, but what a test waits for.
    <div class="shell" data-renewals={p.session.renewals}>
      <a class="skip" href="#main">Skip to content</a>
      <header class="masthead">
        <span class="brand">Tessera <span class="brand-sub">admin console</span></span>
        <span class="who">Signed in as <strong>{user.username}</strong></span>
        {/* Server admins only: the API refuses the administrators to anyone else. */}
        {user.serverAdmin ? (
          <a class="on-dark" href={ADMINISTRATORS}
            aria-current={route.page === "administrators" || route.page === "administrator" ? "page" : undefined}>Administrators</a>
        ) : null}
        <button type="button" class="on-dark" onClick={() => p.session.signOut()}>Sign out</button>
      </header>
      <div class="body">
        <nav class="sidebar" aria-label="Realm">
          <div class="realm-current">
            <span class="muted small">Realm</span>
            <strong>{route.realm ?? "none selected"}</strong>
            <a href="#/realms">Switch realm</a>
          </div>
          {route.realm ? (
            <ul>
              {NAV.map((n) => {
                const current = route.page === n.page || PARENT[route.page] === n.page;
                return <li><a href={href(route.realm!, n.page)} aria-current={current ? "page" : undefined}>{n.label}</a></li>;
              })}
            </ul>
          ) : null}
        </nav>
        <Main route={route} session={p.session} />
      </div>
    </div>
  );
}

function Main(p: { route: Route; session: AdminSession }): JSX.Element {
  const main = useRef<HTMLElement>(null);
  const { route, session } = p;
  // A new page moves focus to its heading's container, so keyboard and screen reader users start there.
  useEffect(() => main.current?.focus(), [route.page, route.realm, route.id]);
  const realm = route.realm ?? "";
  const key = `${route.page}/${realm}/${route.id ?? ""}`;
  let page: JSX.Element;
  switch (route.page) {
    case "realms": page = <RealmsPage session={session} />; break;
    case "create-realm": page = <CreateRealmPage session={session} />; break;
    case "settings": page = <RealmSettingsPage key={key} session={session} realm={realm} />; break;
    case "users": page = <UsersPage key={key} session={session} realm={realm} />; break;
    case "user": page = <UserPage key={key} session={session} realm={realm} userId={route.id!} />; break;
    case "clients": page = <ClientsPage key={key} session={session} realm={realm} />; break;
    case "client": page = <ClientPage key={key} session={session} realm={realm} clientId={route.id!} />; break;
    case "roles": page = <RolesPage key={key} session={session} realm={realm} />; break;
    case "groups": page = <GroupsPage key={key} session={session} realm={realm} />; break;
    case "client-scopes": page = <ClientScopesPage key={key} session={session} realm={realm} />; break;
    case "events": page = <EventsPage key={key} session={session} realm={realm} />; break;
    case "admin-events": page = <AdminEventsPage key={key} session={session} realm={realm} />; break;
    case "identity-providers": page = <ResourcePage key={key} session={session} realm={realm} kind={IDENTITY_PROVIDERS} />; break;
    case "user-federation": page = <ResourcePage key={key} session={session} realm={realm} kind={USER_FEDERATION} />; break;
    case "saml-service-providers": page = <ResourcePage key={key} session={session} realm={realm} kind={SAML_SERVICE_PROVIDERS} />; break;
    case "authentication": page = <ResourcePage key={key} session={session} realm={realm} kind={AUTHENTICATION_FLOWS} />; break;
    case "import": page = <ImportRealmPage session={session} />; break;
    case "sessions": page = <SessionsPage key={key} session={session} realm={realm} />; break;
    case "organizations": page = <OrganizationsPage key={key} session={session} realm={realm} />; break;
    case "organization": page = <OrganizationPage key={key} session={session} realm={realm} orgId={route.id!} />; break;
    case "webhooks": page = <WebhooksPage key={key} session={session} realm={realm} />; break;
    case "keys": page = <KeysPage key={key} session={session} realm={realm} />; break;
    case "webhook": page = <WebhookPage key={key} session={session} realm={realm} webhookId={route.id!} />; break;
    case "administrators": page = <AdministratorsPage session={session} />; break;
    case "administrator": page = <AdministratorPage key={key} session={session} adminId={route.id!} />; break;
  }
  return <main id="main" ref={main} tabIndex={-1}>{page}</main>;
}
