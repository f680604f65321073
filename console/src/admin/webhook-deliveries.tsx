import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { messageOf } from "../ui/api-failure";
import { FormFooter, TextField, useForm, type Values } from "../ui/form";
import { when } from "../ui/format";
import { Empty, ErrorAlert, Loading, Notice, Pager, Section, useLoad } from "../ui/widgets";

/** A delivery as the API lists it (docs/webhooks.md). */
interface Delivery {
  id: string;
  eventId: string;
  eventType?: string;
  status: "pending" | "delivered" | "failed" | "dead";
  attempts: number;
  responseCode: number;
  lastAttemptAt: string | null;
  nextAttemptAt?: string;
  lastError?: string;
}

const PAGE = 25;
const STATUSES = ["pending", "delivered", "failed", "dead"];

/**
 * A webhook's deliveries, newest first, filtered by status (`?status=`) and paged (`first`/`max`,
 * one more row than a page asked for, to know whether a next page exists); each one replayed on
 * its own. Deliveries change as the dispatcher works, so the list has a Refresh button.
 */
export function WebhookDeliveries(p: { session: AdminSession; path: string }): JSX.Element {
  const [status, setStatus] = useState("");
  const [first, setFirst] = useState(0);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const q = new URLSearchParams({ first: String(first), max: String(PAGE + 1), ...(status ? { status } : {}) });
  const list = useLoad(() => p.session.request<Delivery[]>("GET", `${p.path}/deliveries?${q}`), [p.path, q.toString()]);
  const rows = (list.data ?? []).slice(0, PAGE);
  const replay = async (d: Delivery): Promise<void> => {
    setError("");
    setNotice("");
    try {
      await p.session.request("POST", `${p.path}/deliveries/${encodeURIComponent(d.id)}/replay`);
      setNotice(`Delivery ${d.id} is queued again.`);
      list.reload();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <Section title="Deliveries">
      <div class="toolbar">
        <label for="delivery-status">Status</label>
        <select id="delivery-status" value={status} onChange={(e) => { setFirst(0); setNotice(""); setError(""); setStatus((e.currentTarget as HTMLSelectElement).value); }}>
          <option value="">Any</option>
          {STATUSES.map((s) => <option value={s}>{s}</option>)}
        </select>
        <button type="button" onClick={list.reload}>Refresh</button>
      </div>
      <ErrorAlert message={error || list.error} />
      {notice ? <Notice message={notice} /> : null}
      {list.loading && !list.data ? <Loading what="deliveries" /> : rows.length === 0 ? <Empty what="deliveries" /> : (
        <table>
          <caption class="sr-only">Webhook deliveries</caption>
          <thead>
            <tr><th scope="col">Event type</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Response code</th>
              <th scope="col">Last attempt</th><th scope="col">Next attempt</th><th scope="col">Last error</th><th scope="col">Actions</th></tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr data-delivery={d.id}>
                <td>{d.eventType ?? "—"}</td>
                <td>{d.status}</td>
                <td>{d.attempts}</td>
                <td>{d.responseCode || "—"}</td>
                <td>{when(d.lastAttemptAt ?? undefined)}</td>
                <td>{when(d.nextAttemptAt)}</td>
                <td>{d.lastError || "—"}</td>
                <td><button type="button" class="link" aria-label={`Replay delivery ${d.id}`} onClick={() => void replay(d)}>Replay</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager label="Deliveries" first={first} max={PAGE} count={rows.length} more={(list.data?.length ?? 0) > PAGE} onPage={setFirst} />
      <ReplayRange session={p.session} path={p.path} onQueued={list.reload} />
    </Section>
  );
}

/** A local date-time of the form as the ISO 8601 instant the API reads; "" stays "". */
function instant(local: string | boolean | undefined): string {
  const v = String(local ?? "").trim();
  if (!v) return "";
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? v : d.toISOString();
}

/**
 * A replay of every stored event of a time range the webhook subscribes to (`POST .../replay`):
 * earlier events and ones whose deliveries the store has dropped are sent again.
 */
function ReplayRange(p: { session: AdminSession; path: string; onQueued(): void }): JSX.Element {
  const [queued, setQueued] = useState("");
  const form = useForm<Values>({ dateFrom: "", dateTo: "" }, async (v) => {
    setQueued("");
    const q = new URLSearchParams({ dateFrom: instant(v.dateFrom), ...(String(v.dateTo).trim() ? { dateTo: instant(v.dateTo) } : {}) });
    const r = await p.session.request<{ queued: number }>("POST", `${p.path}/replay?${q}`);
    setQueued(`${r.queued} ${r.queued === 1 ? "event" : "events"} queued.`);
    p.onQueued();
  });
  return (
    <>
      <h3>Replay a time range</h3>
      <form onSubmit={form.submit} noValidate aria-label="Replay a time range" class="inline-form">
        <TextField form={form} name="dateFrom" label="Replay from" type={"datetime-local" as "text"} required />
        <TextField form={form} name="dateTo" label="Replay to" type={"datetime-local" as "text"} hint="Now when empty." />
        <FormFooter form={form} submit="Replay range" />
      </form>
      {queued ? <Notice message={queued} /> : null}
    </>
  );
}
