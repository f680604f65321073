import type { ComponentChildren, JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { CheckField, FormFooter, SelectField, TextField, useForm, type FormState, type Values } from "../ui/form";
import { ConfirmButton, Empty, ErrorAlert, Loading, Notice, Section, useLoad } from "../ui/widgets";
import { ApiFailure } from "../ui/api-failure";

export interface ResourceField {
  name: string;
  label: string;
  /** `json`: edited as JSON text, sent as the value it parses to. */
  kind: "text" | "number" | "bool" | "secret" | "url" | "multiline" | "select" | "json";
  required?: boolean;
  /** Sent on create only (the key of the resource, say). */
  createOnly?: boolean;
  options?: { value: string; label: string }[];
  hint?: string;
  initial?: string | boolean;
}

export type Row = Record<string, unknown>;

export interface ResourceKind {
  /** The page's heading and nav label, e.g. "Identity providers". */
  title: string;
  /** One of them, e.g. "identity provider". */
  one: string;
  /** The collection under /admin/realms/:realm/. */
  collection: string;
  /** The field addressing one (alias or id). */
  key: string;
  /** The column naming one in the list. */
  label: string;
  fields: ResourceField[];
  /** Columns after the name. */
  columns: { label: string; cell(r: Row): string }[];
  /** Actions of one resource beside save and delete (test connection, sync). */
  actions?: (p: { session: AdminSession; path: string; row: Row }) => ComponentChildren;
  /** Why one cannot be changed (a built-in flow), shown instead of its edit form; undefined when it can. */
  locked?: (r: Row) => string | undefined;
  /** What one holds, shown after its edit form (an identity provider's mappers). */
  sections?: (p: { session: AdminSession; path: string; row: Row }) => ComponentChildren;
}

function valuesOf(fields: ResourceField[], row: Row | null): Values {
  const out: Values = {};
  for (const f of fields) {
    const v = row ? row[f.name] : undefined;
    if (f.kind === "bool") out[f.name] = v === undefined ? Boolean(f.initial ?? false) : Boolean(v);
    else if (f.kind === "secret") out[f.name] = "";
    else if (f.kind === "json") out[f.name] = v === undefined ? String(f.initial ?? "") : JSON.stringify(v, null, 2);
    else out[f.name] = v === undefined || v === null ? String(f.initial ?? "") : String(v);
  }
  return out;
}

/** The body: numbers as numbers, empty text and empty secrets left out (a secret is kept unless retyped). */
function bodyOf(fields: ResourceField[], v: Values, create: boolean): Row {
  const body: Row = {};
  for (const f of fields) {
    if (f.createOnly && !create) continue;
    const x = v[f.name];
    if (f.kind === "bool") { body[f.name] = Boolean(x); continue; }
    const s = String(x ?? "").trim();
    if (s === "" && (create || f.kind === "secret")) continue;
    if (f.kind === "json") { body[f.name] = parseJson(f, s); continue; }
    body[f.name] = f.kind === "number" && /^-?\d+$/.test(s) ? Number(s) : f.kind === "multiline" ? String(x) : s;
  }
  return body;
}

/** The field's JSON text as a value; a parse failure is shown under the field, as the API's refusals are. */
function parseJson(f: ResourceField, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ApiFailure(400, "invalid_request", `${f.label} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`, f.name);
  }
}

function Fields(p: { form: FormState<Values>; fields: ResourceField[]; create: boolean }): JSX.Element {
  return (
    <div class="grid">
      {p.fields.filter((f) => p.create || !f.createOnly).map((f) => {
        if (f.kind === "bool") return <CheckField form={p.form} name={f.name} label={f.label} />;
        if (f.kind === "select") return <SelectField form={p.form} name={f.name} label={f.label} options={f.options ?? []} />;
        return <TextField form={p.form} name={f.name} label={f.label} required={f.required && (p.create || f.kind !== "secret")}
          type={f.kind === "secret" ? "password" : f.kind === "url" ? "url" : "text"} multiline={f.kind === "multiline" || f.kind === "json"}
          hint={f.kind === "secret" && !p.create ? "Leave empty to keep the current one." : f.hint} autoComplete={f.kind === "secret" ? "new-password" : "off"} />;
      })}
    </div>
  );
}

/** A list of one kind of realm resource, its create form, and the chosen one's edit form and actions. */
export function ResourcePage(p: { session: AdminSession; realm: string; kind: ResourceKind }): JSX.Element {
  const k = p.kind;
  const base = `/admin/realms/${encodeURIComponent(p.realm)}/${k.collection}`;
  const list = useLoad(() => p.session.request<Row[]>("GET", base), [base]);
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState("");
  const chosen = (list.data ?? []).find((r) => String(r[k.key]) === open);
  return (
    <>
      <div class="page-head">
        <h1>{k.title}</h1>
        {!creating ? <button type="button" class="primary" onClick={() => setCreating(true)}>Add {k.one}</button> : null}
      </div>
      {creating ? <CreateForm session={p.session} base={base} kind={k} onDone={(key) => { setCreating(false); list.reload(); if (key) setOpen(key); }} /> : null}
      <Section title={`${k.title} list`}>
        <ErrorAlert message={list.error} />
        {list.loading && !list.data ? <Loading what={k.title.toLowerCase()} /> : (list.data ?? []).length === 0 ? <Empty what={k.title.toLowerCase()} /> : (
          <table>
            <caption class="sr-only">{k.title}</caption>
            <thead><tr><th scope="col">{k.fields.find((f) => f.name === k.label)?.label ?? k.label}</th>{k.columns.map((c) => <th scope="col">{c.label}</th>)}</tr></thead>
            <tbody>
              {list.data!.map((r) => (
                <tr>
                  <td><button type="button" class="link" aria-current={String(r[k.key]) === open ? "true" : undefined} onClick={() => setOpen(String(r[k.key]))}>{String(r[k.label] ?? r[k.key])}</button></td>
                  {k.columns.map((c) => <td>{c.cell(r)}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      {chosen && k.locked?.(chosen) ? <LockedView kind={k} row={chosen} reason={k.locked(chosen)!} /> : null}
      {chosen && !k.locked?.(chosen) ? <EditForm key={open} session={p.session} path={`${base}/${encodeURIComponent(open)}`} kind={k} row={chosen}
        onChanged={list.reload} onDeleted={() => { setOpen(""); list.reload(); }} /> : null}
    </>
  );
}

function CreateForm(p: { session: AdminSession; base: string; kind: ResourceKind; onDone(key?: string): void }): JSX.Element {
  const form = useForm<Values>(valuesOf(p.kind.fields, null), async (v) => {
    const created = await p.session.request<Row>("POST", p.base, bodyOf(p.kind.fields, v, true));
    p.onDone(String(created[p.kind.key] ?? ""));
  });
  return (
    <form class="card" onSubmit={form.submit} noValidate aria-label={`Add ${p.kind.one}`}>
      <h2>Add {p.kind.one}</h2>
      <Fields form={form} fields={p.kind.fields} create />
      <FormFooter form={form} submit="Add"><button type="button" onClick={() => p.onDone()}>Cancel</button></FormFooter>
    </form>
  );
}

function EditForm(p: { session: AdminSession; path: string; kind: ResourceKind; row: Row; onChanged(): void; onDeleted(): void }): JSX.Element {
  const [saved, setSaved] = useState(false);
  const form = useForm<Values>(valuesOf(p.kind.fields, p.row), async (v) => {
    setSaved(false);
    await p.session.request("PUT", p.path, bodyOf(p.kind.fields, v, false));
    setSaved(true);
    p.onChanged();
  });
  const name = String(p.row[p.kind.label] ?? p.row[p.kind.key]);
  return (
    <Section title={`${p.kind.one[0]!.toUpperCase()}${p.kind.one.slice(1)} ${name}`} actions={
      <ConfirmButton label={`Delete ${p.kind.one}`} question={`Delete the ${p.kind.one} ${name}?`} confirm="Delete"
        onConfirm={async () => { await p.session.request("DELETE", p.path); p.onDeleted(); }} />
    }>
      {p.kind.actions ? <div class="actions">{p.kind.actions({ session: p.session, path: p.path, row: p.row })}</div> : null}
      <form onSubmit={form.submit} noValidate aria-label={`Edit ${p.kind.one}`}>
        <Fields form={form} fields={p.kind.fields} create={false} />
        {saved ? <Notice message="Saved." /> : null}
        <FormFooter form={form} submit="Save" />
      </form>
      {p.kind.sections ? p.kind.sections({ session: p.session, path: p.path, row: p.row }) : null}
    </Section>
  );
}

/** One that cannot be changed: why, and its fields as they are. */
function LockedView(p: { kind: ResourceKind; row: Row; reason: string }): JSX.Element {
  const name = String(p.row[p.kind.label] ?? p.row[p.kind.key]);
  return (
    <Section title={`${p.kind.one[0]!.toUpperCase()}${p.kind.one.slice(1)} ${name}`}>
      <Notice message={p.reason} />
      <dl>
        {p.kind.fields.filter((f) => f.kind !== "secret").map((f) => (
          <>
            <dt>{f.label}</dt>
            <dd>{f.kind === "json" ? <pre>{JSON.stringify(p.row[f.name] ?? null, null, 2)}</pre> : String(p.row[f.name] ?? "—")}</dd>
          </>
        ))}
      </dl>
    </Section>
  );
}
