import type { JSX } from "preact";
import { CheckField, SelectField, TextField, type FormState, type Values } from "../ui/form";
import type { FieldGroup } from "./realm-fields";

/** The realm's field groups as fieldsets; `themes` are the names of GET /admin/realms/themes. */
export function RealmFieldsForm(p: { form: FormState<Values>; groups: FieldGroup[]; themes: string[] }): JSX.Element {
  return (
    <>
      {p.groups.map((g) => (
        <fieldset class="group">
          <legend>{g.title}</legend>
          <div class="grid">
            {g.fields.map((f) => {
              if (f.kind === "bool") return <CheckField form={p.form} name={f.name} label={f.label} />;
              if (f.kind === "theme") {
                return <SelectField form={p.form} name={f.name} label={f.label}
                  options={[{ value: "", label: "Server default" }, ...p.themes.map((t) => ({ value: t, label: t }))]} />;
              }
              if (f.kind === "select") {
                // A create form starts empty: the server's default applies unless one is chosen.
                const unset = String(p.form.values[f.name] ?? "") === "" ? [{ value: "", label: "Server default" }] : [];
                return <SelectField form={p.form} name={f.name} label={f.label}
                  options={[...unset, ...(f.options ?? []).map((o) => ({ value: o, label: o }))]} />;
              }
              if (f.kind === "list") return <TextField form={p.form} name={f.name} label={f.label} hint={f.hint} multiline />;
              return <TextField form={p.form} name={f.name} label={f.label} hint={f.hint}
                type={f.kind === "number" ? "text" : f.kind === "email" ? "email" : f.kind === "password" ? "password" : "text"}
                autoComplete={f.kind === "password" ? "new-password" : "off"} />;
            })}
          </div>
        </fieldset>
      ))}
    </>
  );
}
