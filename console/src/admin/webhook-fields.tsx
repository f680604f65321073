import type { JSX } from "preact";
import { ApiFailure } from "../ui/api-failure";
import { CheckField, TextField, lines, type FormState, type Values } from "../ui/form";

/** A webhook as the API reads it (docs/webhooks.md); the secret is never part of it. */
export interface WebhookRow {
  id: string;
  url: string;
  eventTypes: string[];
  enabled?: boolean;
  headers?: Record<string, string>;
  createdAt?: string;
  updatedAt?: string;
  /** Only in the create answer (and a rotation's), once. */
  secret?: string;
}

/** The patterns an administrator reaches for most, offered as one-click additions. */
export const EVENT_TYPE_PATTERNS = ["LOGIN", "LOGIN_ERROR", "LOGOUT", "REGISTER", "*_ERROR", "admin:*", "admin:USER:*", "admin:*:DELETE", "*"];

export function webhookValues(w: Partial<WebhookRow>): Values {
  return {
    url: w.url ?? "", eventTypes: (w.eventTypes ?? []).join("\n"), enabled: w.enabled ?? true,
    headers: Object.entries(w.headers ?? {}).map(([k, v]) => `${k}: ${v}`).join("\n"),
  };
}

/** `Name: value` lines as the API's header object (it checks the names and values itself). */
function headersOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines(text)) {
    const at = line.indexOf(":");
    if (at < 1) throw new ApiFailure(400, "invalid_request", `"${line.slice(0, 64)}" is not a "Name: value" line`, "headers");
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/** The whole webhook: an update sends every field, so `headers` replaces the set (an empty set removes them). */
export function webhookBody(v: Values): Record<string, unknown> {
  return { url: String(v.url).trim(), eventTypes: lines(v.eventTypes), enabled: Boolean(v.enabled), headers: headersOf(String(v.headers)) };
}

export function WebhookFields(p: { form: FormState<Values> }): JSX.Element {
  const chosen = new Set(lines(p.form.values.eventTypes));
  return (
    <>
      <div class="grid">
        <TextField form={p.form} name="url" label="Endpoint URL" type="url" required
          hint="An https URL of a public address; private and link-local addresses are refused." />
        <CheckField form={p.form} name="enabled" label="Enabled" />
      </div>
      <TextField form={p.form} name="eventTypes" label="Event types" multiline required
        hint="One a line. Login events by type (LOGIN, LOGIN_ERROR, ...), admin events as admin:<RESOURCE_TYPE>:<OPERATION>; * stands for any run of characters: admin:*, admin:USER:*, admin:*:DELETE, *_ERROR, *." />
      <div class="toolbar" role="group" aria-label="Add an event type">
        {EVENT_TYPE_PATTERNS.filter((t) => !chosen.has(t)).map((t) => (
          <button type="button" aria-label={`Add event type ${t}`}
            onClick={() => p.form.set("eventTypes", [...lines(p.form.values.eventTypes), t].join("\n"))}>+ {t}</button>
        ))}
      </div>
      <TextField form={p.form} name="headers" label="Custom headers" multiline
        hint="One Name: value a line, sent with every delivery (an Authorization header, say)." />
    </>
  );
}
