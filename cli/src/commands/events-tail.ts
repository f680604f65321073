import type { Command } from "commander";
import { CliError, EXIT } from "../exit-codes.js";
import { action, client, requireRealm } from "../run-action.js";

interface EventRecord {
  id: string;
  time: string;
  type?: string;
  operationType?: string;
  resourceType?: string;
  resourcePath?: string;
  userId?: string;
  clientId?: string;
  error?: string;
}

/**
 * `tessera events tail`: follows a realm's new login events (or admin events with --admin) by
 * polling the event query from the last time seen. Events of the same millisecond are told apart
 * by id, so none is printed twice or skipped.
 */
export function addEventsCommand(program: Command): void {
  const events = program.command("events").description("read a realm's login and admin events");
  events.command("tail")
    .description("print new events as they are recorded (Ctrl-C stops)")
    .requiredOption("-r, --realm <realm>", "the realm")
    .option("--admin", "admin events instead of login events")
    .option("--interval <seconds>", "how often to look", "2")
    .option("--since <iso>", "start from this time (default: now)")
    .option("--count <n>", "stop after this many events")
    .option("--json", "one JSON object per line")
    .action(action(async (o: { realm: string; admin?: boolean; interval: string; since?: string; count?: string; json?: boolean }) => {
      const realm = requireRealm(o.realm);
      const interval = Number(o.interval);
      if (!(interval > 0)) throw new CliError(EXIT.usage, "--interval must be a positive number of seconds");
      const limit = o.count === undefined ? Infinity : Number(o.count);
      if (!(limit > 0)) throw new CliError(EXIT.usage, "--count must be a positive number");
      let since = o.since ?? new Date().toISOString();
      if (Number.isNaN(Date.parse(since))) throw new CliError(EXIT.usage, "--since must be an ISO 8601 time");
      const seen = new Set<string>();
      const path = `/admin/realms/${encodeURIComponent(realm)}/${o.admin ? "admin-events" : "events"}`;
      const api = client();
      let printed = 0;
      let following = false;
      for (;;) {
        const page = await api.request<EventRecord[]>("GET", path, undefined, { dateFrom: since, max: 1000 });
        // Said once the first query has answered: from here on no new event is missed, which a
        // user (or a script waiting on stderr) needs to know before causing the events it wants.
        if (!following) {
          process.stderr.write(`following ${o.admin ? "admin" : "login"} events of realm ${realm} (Ctrl-C stops)\n`);
          following = true;
        }
        // The query answers newest first; print oldest first.
        for (const e of [...page].reverse()) {
          if (seen.has(e.id)) continue;
          seen.add(e.id);
          process.stdout.write(o.json ? JSON.stringify(e) + "\n" : line(e, Boolean(o.admin)) + "\n");
          if (e.time > since) since = e.time;
          if (++printed >= limit) return;
        }
        await new Promise((r) => setTimeout(r, interval * 1000));
      }
    }));
}

function line(e: EventRecord, admin: boolean): string {
  if (admin) return [e.time, e.operationType, e.resourceType, e.resourcePath].filter(Boolean).join("  ");
  return [e.time, e.type, e.clientId && `client=${e.clientId}`, e.userId && `user=${e.userId}`, e.error && `error=${e.error}`].filter(Boolean).join("  ");
}
