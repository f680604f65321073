import type { JSX } from "preact";
import type { AdminSession } from "./admin-session";
import { ConfirmButton } from "../ui/widgets";
import { when } from "../ui/format";
import { EventTable } from "./event-table";

interface LoginEvent {
  id: string;
  time?: string;
  type: string;
  clientId?: string;
  userId?: string;
  ipAddress?: string;
  error?: string;
}

const TYPES = ["LOGIN", "LOGIN_ERROR", "LOGOUT", "REGISTER", "CODE_TO_TOKEN", "CODE_TO_TOKEN_ERROR", "REFRESH_TOKEN", "REFRESH_TOKEN_ERROR",
  "CLIENT_LOGIN", "CLIENT_LOGIN_ERROR", "UPDATE_PASSWORD", "RESET_PASSWORD", "SEND_RESET_PASSWORD", "VERIFY_EMAIL", "UPDATE_TOTP", "REMOVE_TOTP"];

/** Login events (spec 4.8, 6): filters by type, user and client, dates; clearing them asks first. */
export function EventsPage(p: { session: AdminSession; realm: string }): JSX.Element {
  const path = `/admin/realms/${encodeURIComponent(p.realm)}/events`;
  return (
    <>
      <div class="page-head">
        <h1>Events</h1>
        <ConfirmButton label="Clear events" question="Delete every saved login event of this realm?" confirm="Clear events"
          onConfirm={async () => { await p.session.request("DELETE", path); location.reload(); }} />
      </div>
      <EventTable<LoginEvent> session={p.session} path={path} title="Login events"
        filters={[{ name: "type", label: "Event type", options: TYPES }, { name: "userId", label: "User ID" }, { name: "clientId", label: "Client ID" }]}
        columns={[
          { label: "Time", cell: (e) => when(e.time) },
          { label: "Type", cell: (e) => e.type },
          { label: "User ID", cell: (e) => e.userId || "—" },
          { label: "Client", cell: (e) => e.clientId || "—" },
          { label: "IP address", cell: (e) => e.ipAddress || "—" },
          { label: "Error", cell: (e) => e.error || "—" },
        ]} />
    </>
  );
}
