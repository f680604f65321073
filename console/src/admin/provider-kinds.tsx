import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { ApiFailure, messageOf } from "../ui/api-failure";
import { ErrorAlert, Notice } from "../ui/widgets";
import type { ResourceKind, Row } from "./resource-page";
import { IdpMappers } from "./idp-mappers";

const yes = (v: unknown): string => (v === false ? "Disabled" : "Enabled");

/** Identity providers (spec 2.9, 4.10; docs/identity-brokering.md). */
export const IDENTITY_PROVIDERS: ResourceKind = {
  title: "Identity providers", one: "identity provider", collection: "identity-providers", key: "alias", label: "alias",
  fields: [
    { name: "alias", label: "Alias", kind: "text", required: true, createOnly: true },
    { name: "providerType", label: "Provider", kind: "select", createOnly: true, initial: "oidc",
      options: [{ value: "oidc", label: "OpenID Connect v1.0" }, { value: "google", label: "Google" }, { value: "github", label: "GitHub" }] },
    { name: "displayName", label: "Display name", kind: "text" },
    { name: "enabled", label: "Enabled", kind: "bool", initial: true },
    { name: "clientId", label: "Client ID at the provider", kind: "text", required: true },
    { name: "clientSecret", label: "Client secret at the provider", kind: "secret", required: true },
    { name: "authorizationUrl", label: "Authorization URL", kind: "url", hint: "Filled in for Google and GitHub." },
    { name: "tokenUrl", label: "Token URL", kind: "url", hint: "Filled in for Google and GitHub." },
    { name: "userinfoUrl", label: "User info URL", kind: "url" },
    { name: "jwksUrl", label: "JWKS URL", kind: "url" },
    { name: "issuer", label: "Issuer", kind: "url" },
    { name: "defaultScopes", label: "Scopes", kind: "text", hint: "Space-separated." },
    { name: "trustEmail", label: "Trust email", kind: "bool" },
    { name: "syncUserProfile", label: "Sync the profile at each login", kind: "bool" },
    { name: "loginHint", label: "Pass login_hint", kind: "bool" },
  ],
  columns: [
    { label: "Provider", cell: (r) => String(r.providerType ?? "") },
    { label: "Display name", cell: (r) => String(r.displayName || "—") },
    { label: "Status", cell: (r) => yes(r.enabled) },
  ],
  sections: (p) => <IdpMappers session={p.session} path={p.path} />,
};

/** LDAP federation (spec 2.10, 4.11; docs/ldap-federation.md), with test connection and sync. */
export const USER_FEDERATION: ResourceKind = {
  title: "User federation", one: "LDAP provider", collection: "user-federation", key: "id", label: "name",
  fields: [
    { name: "name", label: "Name", kind: "text", required: true },
    { name: "providerType", label: "Provider type", kind: "select", createOnly: true, initial: "ldap", options: [{ value: "ldap", label: "LDAP" }] },
    { name: "enabled", label: "Enabled", kind: "bool", initial: true },
    { name: "priority", label: "Priority", kind: "number" },
    { name: "connectionUrl", label: "Connection URL", kind: "text", required: true, hint: "ldap:// or ldaps://" },
    { name: "bindDn", label: "Bind DN", kind: "text", required: true },
    { name: "bindCredential", label: "Bind credential", kind: "secret", required: true },
    { name: "usersDn", label: "Users DN", kind: "text", required: true },
    { name: "userObjectClass", label: "User object class", kind: "text", hint: "Default inetOrgPerson" },
    { name: "usernameLdapAttr", label: "Username LDAP attribute", kind: "text", hint: "Default uid" },
    { name: "syncMode", label: "Edit mode", kind: "select", initial: "IMPORT", options: [{ value: "IMPORT", label: "Import" }, { value: "READ_ONLY", label: "Read only" }] },
    { name: "syncPeriod", label: "Periodic full sync (seconds)", kind: "number", hint: "0 turns it off" },
    { name: "importEnabled", label: "Import users", kind: "bool", initial: true },
  ],
  columns: [
    { label: "Connection URL", cell: (r) => String(r.connectionUrl ?? "") },
    { label: "Status", cell: (r) => yes(r.enabled) },
  ],
  actions: (p) => <FederationActions {...p} />,
};

/** SAML service providers (spec 2.11, 4.12; docs/saml.md). */
export const SAML_SERVICE_PROVIDERS: ResourceKind = {
  title: "SAML service providers", one: "SAML service provider", collection: "saml-service-providers", key: "id", label: "name",
  fields: [
    { name: "entityId", label: "Entity ID", kind: "text", required: true },
    { name: "name", label: "Name", kind: "text", required: true },
    { name: "enabled", label: "Enabled", kind: "bool", initial: true },
    { name: "acsUrl", label: "Assertion consumer service URL", kind: "url", required: true },
    { name: "sloUrl", label: "Single logout URL", kind: "url" },
    { name: "nameIdFormat", label: "Name ID format", kind: "text", hint: "Default urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress" },
    { name: "signAssertions", label: "Sign assertions", kind: "bool", initial: true },
    { name: "signResponses", label: "Sign responses", kind: "bool", initial: true },
    { name: "certificate", label: "Signing certificate (PEM)", kind: "multiline" },
  ],
  columns: [
    { label: "Entity ID", cell: (r) => String(r.entityId ?? "") },
    { label: "Status", cell: (r) => yes(r.enabled) },
  ],
};

/** Test connection, and a full sync that shows it is running and then its counts. */
function FederationActions(p: { session: AdminSession; path: string; row: Row }): JSX.Element {
  const [busy, setBusy] = useState<"" | "test" | "sync">("");
  const [notice, setNotice] = useState("");
  const [error, setError] = useState("");
  const run = async (what: "test" | "sync"): Promise<void> => {
    setBusy(what);
    setNotice("");
    setError("");
    try {
      if (what === "test") {
        await p.session.request("POST", `${p.path}/test-connection`);
        setNotice("Connected: the bind and the users DN both work.");
      } else {
        const r = await p.session.request<{ created: number; updated: number; failed: number; removed: number }>("POST", `${p.path}/sync`);
        setNotice(`Sync finished: ${r.created} created, ${r.updated} updated, ${r.removed} removed, ${r.failed} failed.`);
      }
    } catch (e) {
      setError(e instanceof ApiFailure ? `${what === "test" ? "Connection failed" : "Sync failed"}: ${e.message}` : messageOf(e));
    } finally {
      setBusy("");
    }
  };
  return (
    <>
      <button type="button" disabled={busy !== ""} aria-busy={busy === "test"} onClick={() => void run("test")}>{busy === "test" ? "Testing…" : "Test connection"}</button>
      <button type="button" disabled={busy !== ""} aria-busy={busy === "sync"} onClick={() => void run("sync")}>{busy === "sync" ? "Synchronizing…" : "Sync all users"}</button>
      {busy === "sync" ? <progress aria-label="Sync in progress" /> : null}
      <div class="wide">
        {notice ? <Notice message={notice} /> : null}
        <ErrorAlert message={error} />
      </div>
    </>
  );
}
