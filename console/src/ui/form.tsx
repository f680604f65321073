import type { ComponentChildren, JSX } from "preact";
import { useState } from "preact/hooks";
import { ApiFailure, messageOf } from "./api-failure";

export type Values = Record<string, string | boolean>;

export interface FormState<V extends Values> {
  values: V;
  set<K extends keyof V>(name: K, value: V[K]): void;
  /** The API's message for a field it named (`field` of the error body), else "". */
  errorOf(name: string): string;
  /** A failure that names no field of this form. */
  formError: string;
  busy: boolean;
  submit(e: Event): void;
}

/**
 * One form's values and the API's answer to it: a failure that names a field is shown beside that
 * field (the gateway's `field`, e.g. `username` or `redirectUris[1]`, matched by its whole name or
 * else by its leading name), anything else above the buttons.
 */
export function useForm<V extends Values>(initial: V, action: (values: V) => Promise<void>): FormState<V> {
  const [values, setValues] = useState<V>(initial);
  const [fieldError, setFieldError] = useState<{ field: string; message: string } | null>(null);
  const [formError, setFormError] = useState("");
  const [busy, setBusy] = useState(false);
  return {
    values,
    set: (name, value) => setValues((v) => ({ ...v, [name]: value })),
    errorOf: (name) => (fieldError && (fieldError.field === name || fieldError.field.replace(/[[.].*$/, "") === name) ? fieldError.message : ""),
    formError,
    busy,
    submit: (e: Event) => {
      e.preventDefault();
      if (busy) return;
      setBusy(true);
      setFieldError(null);
      setFormError("");
      action(values).then(
        () => setBusy(false),
        (err: unknown) => {
          setBusy(false);
          // A field the form has by its whole name (`config.claim.name`), else by its leading name.
          const named = err instanceof ApiFailure ? err.field : undefined;
          const field = named !== undefined && named in initial ? named : named?.replace(/[[.].*$/, "");
          if (err instanceof ApiFailure && field && field in initial) setFieldError({ field, message: err.message });
          else setFormError(messageOf(err));
        },
      );
    },
  };
}

let ids = 0;
const nextId = (): string => `f${++ids}`;

interface TextFieldProps<V extends Values> {
  form: FormState<V>;
  name: keyof V & string;
  label: string;
  type?: "text" | "password" | "email" | "number" | "url";
  required?: boolean;
  hint?: string;
  autoComplete?: string;
  multiline?: boolean;
}

/** A labelled input; the API's error for it is tied to it by aria-describedby and aria-invalid. */
export function TextField<V extends Values>(p: TextFieldProps<V>): JSX.Element {
  const [id] = useState(nextId);
  const error = p.form.errorOf(p.name);
  const described = [p.hint ? `${id}-hint` : "", error ? `${id}-err` : ""].filter(Boolean).join(" ") || undefined;
  const common = {
    id, name: p.name, required: p.required, "aria-invalid": error ? ("true" as const) : undefined, "aria-describedby": described,
    value: String(p.form.values[p.name] ?? ""),
    onInput: (e: Event) => p.form.set(p.name, (e.currentTarget as HTMLInputElement).value as V[typeof p.name]),
  };
  return (
    <div class={`field${error ? " field-error" : ""}`}>
      {/* The asterisk stays outside the label, so the accessible name is the label alone ("Name", not "Name *"). */}
      <span class="label-row"><label for={id}>{p.label}</label>{p.required ? <span aria-hidden="true" class="req">*</span> : null}</span>
      {p.multiline ? <textarea rows={3} {...common} /> : <input type={(p.type ?? "text") as "text"} autoComplete={p.autoComplete ?? "off"} {...common} />}
      {p.hint ? <p class="hint" id={`${id}-hint`}>{p.hint}</p> : null}
      {error ? <p class="error-text" id={`${id}-err`}>{error}</p> : null}
    </div>
  );
}

export function CheckField<V extends Values>(p: { form: FormState<V>; name: keyof V & string; label: string }): JSX.Element {
  const [id] = useState(nextId);
  const error = p.form.errorOf(p.name);
  return (
    <div class="field field-check">
      <input type="checkbox" id={id} name={p.name} checked={Boolean(p.form.values[p.name])}
        aria-invalid={error ? "true" : undefined} aria-describedby={error ? `${id}-err` : undefined}
        onChange={(e) => p.form.set(p.name, (e.currentTarget as HTMLInputElement).checked as V[typeof p.name])} />
      <label for={id}>{p.label}</label>
      {error ? <p class="error-text" id={`${id}-err`}>{error}</p> : null}
    </div>
  );
}

export function SelectField<V extends Values>(p: { form: FormState<V>; name: keyof V & string; label: string; options: { value: string; label: string }[] }): JSX.Element {
  const [id] = useState(nextId);
  const error = p.form.errorOf(p.name);
  return (
    <div class={`field${error ? " field-error" : ""}`}>
      <label for={id}>{p.label}</label>
      <select id={id} name={p.name} value={String(p.form.values[p.name] ?? "")}
        aria-invalid={error ? "true" : undefined} aria-describedby={error ? `${id}-err` : undefined}
        onChange={(e) => p.form.set(p.name, (e.currentTarget as HTMLSelectElement).value as V[typeof p.name])}>
        {p.options.map((o) => <option value={o.value}>{o.label}</option>)}
      </select>
      {error ? <p class="error-text" id={`${id}-err`}>{error}</p> : null}
    </div>
  );
}

/** The form's own failure (one naming no field) and its submit button. */
export function FormFooter<V extends Values>(p: { form: FormState<V>; submit: string; children?: ComponentChildren }): JSX.Element {
  return (
    <>
      {p.form.formError ? <p class="alert alert-error" role="alert">{p.form.formError}</p> : null}
      <div class="actions">
        <button type="submit" class="primary" disabled={p.form.busy} aria-busy={p.form.busy}>{p.submit}</button>
        {p.children}
      </div>
    </>
  );
}

/** Lines of a textarea as a list, blank lines dropped. */
export function lines(text: string | boolean | undefined): string[] {
  return String(text ?? "").split("\n").map((s) => s.trim()).filter(Boolean);
}
