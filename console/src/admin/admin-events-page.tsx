import type { JSX } from "preact";
import type { AdminSession } from "./admin-session";
import { when } from "../ui/format";
import { EventTable } from "./event-table";

interface AdminEvent {
  id: string;
  time?: string;
  operationType: string;
  resourceType: string;
  resourcePath?: string;
  authDetails?: { userId?: string; username?: string; ipAddress?: string; clientId?: string };
}

const RESOURCES = ["REALM", "USER", "CLIENT", "CLIENT_SCOPE", "PROTOCOL_MAPPER", "REALM_ROLE", "CLIENT_ROLE", "GROUP", "GROUP_MEMBERSHIP",
  "REALM_ROLE_MAPPING", "CLIENT_ROLE_MAPPING", "CLIENT_SCOPE_CLIENT_MAPPING", "USER_SESSION", "IDENTITY_PROVIDER", "USER_FEDERATION_PROVIDER",
  "SAML_SERVICE_PROVIDER", "SAML_SIGNING_KEY"];

/** Admin events (spec 4.8, 6): by operation and resource type and dates. */
export function AdminEventsPage(p: { session: AdminSession; realm: string }): JSX.Element {
  return (
    <>
      <div class="page-head"><h1>Admin events</h1></div>
      <EventTable<AdminEvent> session={p.session} path={`/admin/realms/${encodeURIComponent(p.realm)}/admin-events`} title="Admin event list"
        filters={[{ name: "operationType", label: "Operation type", options: ["CREATE", "UPDATE", "DELETE", "ACTION"] }, { name: "resourceType", label: "Resource type", options: RESOURCES }]}
        columns={[
          { label: "Time", cell: (e) => when(e.time) },
          { label: "Operation", cell: (e) => e.operationType },
          { label: "Resource type", cell: (e) => e.resourceType },
          { label: "Resource path", cell: (e) => <code>{e.resourcePath ?? ""}</code> },
          { label: "By", cell: (e) => e.authDetails?.username || e.authDetails?.userId || "—" },
          { label: "IP address", cell: (e) => e.authDetails?.ipAddress || "—" },
        ]} />
    </>
  );
}
