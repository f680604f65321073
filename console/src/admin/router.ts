import { useEffect, useState } from "preact/hooks";

/** The console's pages, addressed by the URL fragment so the gateway serves one document. */
export type Page =
  | "realms" | "create-realm" | "settings" | "users" | "user" | "clients" | "client"
  | "roles" | "groups" | "client-scopes" | "events" | "admin-events"
  | "identity-providers" | "user-federation" | "saml-service-providers" | "import" | "sessions"
  | "organizations" | "organization" | "webhooks" | "webhook" | "authentication" | "keys"
  | "administrators" | "administrator";

export interface Route {
  page: Page;
  realm?: string;
  id?: string;
}

const REALM_PAGES = new Set<string>(["settings", "users", "clients", "roles", "groups", "client-scopes", "events", "admin-events",
  "identity-providers", "user-federation", "saml-service-providers", "sessions", "organizations", "webhooks", "authentication", "keys"]);

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "create-realm") return { page: "create-realm" };
  if (parts[0] === "import") return { page: "import" };
  // The server's administrators: not a realm's page.
  if (parts[0] === "administrators") return parts[1] ? { page: "administrator", id: parts[1] } : { page: "administrators" };
  if (parts[0] !== "realms" || !parts[1]) return { page: "realms" };
  const realm = parts[1];
  const section = parts[2] ?? "users";
  if (section === "users" && parts[3]) return { page: "user", realm, id: parts[3] };
  if (section === "clients" && parts[3]) return { page: "client", realm, id: parts[3] };
  if (section === "organizations" && parts[3]) return { page: "organization", realm, id: parts[3] };
  if (section === "webhooks" && parts[3]) return { page: "webhook", realm, id: parts[3] };
  return { page: (REALM_PAGES.has(section) ? section : "users") as Page, realm };
}

/** The fragment of a realm's page: `href(realm, "users", id)`. */
export function href(realm: string, section: string, id?: string): string {
  return `#/realms/${encodeURIComponent(realm)}/${section}${id ? `/${encodeURIComponent(id)}` : ""}`;
}

export function go(fragment: string): void {
  location.hash = fragment;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = (): void => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  return route;
}
