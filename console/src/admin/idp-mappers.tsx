import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { AdminSession } from "./admin-session";
import { FormFooter, SelectField, TextField, useForm, type Values } from "../ui/form";
import { ConfirmButton, Empty, ErrorAlert, Loading, Notice, Section, useLoad } from "../ui/widgets";

interface Mapper { id: string; name: string; identityProviderMapper: string; config: Record<string, string> }
interface MapperType { id: string; name: string; helpText: string; properties: { name: string; label: string; helpText: string; required: boolean; defaultValue: string }[] }

const SYNC_MODES = ["INHERIT", "IMPORT", "LEGACY", "FORCE"].map((m) => ({ value: m, label: m }));

/**
 * A provider's mappers (docs/identity-brokering.md#mappers): the list, delete, and an add form
 * whose config fields are the chosen type's (from mapper-types). Form fields are named as the
 * API names them (`config.role`), so a refusal shows beside its field.
 */
export function IdpMappers(p: { session: AdminSession; path: string }): JSX.Element {
  const mappers = useLoad(() => p.session.request<Mapper[]>("GET", `${p.path}/mappers`), [p.path]);
  const types = useLoad(() => p.session.request<MapperType[]>("GET", `${p.path}/mapper-types`), [p.path]);
  const [notice, setNotice] = useState("");
  const typeName = (id: string) => types.data?.find((t) => t.id === id)?.name ?? id;
  return (
    <Section title="Mappers">
      {mappers.loading ? <Loading what="mappers" /> : null}
      <ErrorAlert message={mappers.error || types.error} />
      {mappers.data && !mappers.data.length ? <Empty what="mappers" /> : null}
      {mappers.data?.length ? (
        <table>
          <caption class="sr-only">Identity provider mappers</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Sync mode</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {mappers.data.map((m) => (
              <tr>
                <td>{m.name}</td><td>{typeName(m.identityProviderMapper)}</td><td>{m.config.syncMode ?? "INHERIT"}</td>
                <td><ConfirmButton label={`Delete ${m.name}`} question={`Delete the mapper ${m.name}?`} confirm="Delete"
                  onConfirm={async () => { await p.session.request("DELETE", `${p.path}/mappers/${m.id}`); setNotice(""); mappers.reload(); }} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {notice ? <Notice message={notice} /> : null}
      {types.data?.length ? <AddMapper session={p.session} path={p.path} types={types.data} onAdded={(name) => { setNotice(`Mapper ${name} added.`); mappers.reload(); }} /> : null}
    </Section>
  );
}

function AddMapper(p: { session: AdminSession; path: string; types: MapperType[]; onAdded(name: string): void }): JSX.Element {
  const first = p.types[0]!;
  // Every type's config keys are in the initial values: the form shows a refusal only beside a field it knows.
  const initial: Values = { name: "", identityProviderMapper: first.id, "config.syncMode": "INHERIT" };
  for (const t of p.types) for (const prop of t.properties) initial[`config.${prop.name}`] ??= prop.defaultValue;
  const form = useForm<Values>(initial, async (v) => {
    const type = p.types.find((t) => t.id === v.identityProviderMapper) ?? first;
    const config: Record<string, string> = { syncMode: String(v["config.syncMode"] || "INHERIT") };
    for (const prop of type.properties) {
      const value = String(v[`config.${prop.name}`] ?? "").trim();
      if (value) config[prop.name] = value;
    }
    const name = String(v.name).trim();
    await p.session.request("POST", `${p.path}/mappers`, { name, identityProviderMapper: type.id, config });
    p.onAdded(name);
  });
  const type = p.types.find((t) => t.id === form.values.identityProviderMapper) ?? first;
  return (
    <form onSubmit={form.submit} noValidate aria-label="Add mapper">
      <TextField form={form} name="name" label="Mapper name" required />
      <SelectField form={form} name="identityProviderMapper" label="Mapper type" options={p.types.map((t) => ({ value: t.id, label: t.name }))} />
      <p class="hint">{type.helpText}</p>
      {type.properties.map((prop) => (
        <TextField form={form} name={`config.${prop.name}`} label={prop.label} required={prop.required} hint={prop.helpText} />
      ))}
      <SelectField form={form} name="config.syncMode" label="Sync mode override" options={SYNC_MODES} />
      <FormFooter form={form} submit="Add mapper" />
    </form>
  );
}
