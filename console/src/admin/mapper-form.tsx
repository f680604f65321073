import type { JSX } from "preact";
import { CheckField, FormFooter, SelectField, TextField, lines, useForm, type FormState, type Values } from "../ui/form";
import {
  ADDRESS_MEMBERS, BOOLEAN_MAPPER_KEYS, JSON_TYPES, MAPPER_TYPES, TOKEN_FLAGS, USER_PROPERTIES, tokenFlagDefaults,
} from "../../../services/kit/src/validation/mapper-types";

export interface Mapper { id: string; name: string; mapperType: string; config?: Record<string, string> }

/** Keycloak's admin console labels for the token switches. */
const FLAG_LABELS: Record<string, string> = {
  "id.token.claim": "Add to ID token",
  "access.token.claim": "Add to access token",
  "userinfo.token.claim": "Add to userinfo",
  "introspection.token.claim": "Add to token introspection",
};

const KEY_LABELS: Record<string, string> = {
  "claim.name": "Token claim name",
  "jsonType.label": "Claim JSON type",
  "user.attribute": "User attribute",
  "claim.value": "Claim value",
  "multivalued": "Multivalued",
  "aggregate.attrs": "Aggregate attribute values",
  "full.path": "Full group path",
  "usermodel.clientRoleMapping.clientId": "Client ID",
  "included.client.audience": "Included client audience",
  "included.custom.audience": "Included custom audience",
  "addOrganizationId": "Add organization id",
  "addOrganizationAttributes": "Add organization attributes",
  ...Object.fromEntries(ADDRESS_MEMBERS.map((m) => [`user.attribute.${m}`, `User attribute for ${m.replace("_", " ")}`])),
};

const OTHER = "other";
const BOOLEAN_KEYS: ReadonlySet<string> = new Set(BOOLEAN_MAPPER_KEYS);
/** Every key a built-in type reads, flags first: the form holds a value for each. */
const ALL_KEYS = [...new Set([...TOKEN_FLAGS, ...Object.values(MAPPER_TYPES).flatMap((t) => t.keys)])];
const field = (key: string): string => `config.${key}`;

/** The keys the form shows for a type: a built-in type's, else (a plugin's) the flags and the claim name. */
function keysOf(mapperType: string): { keys: string[]; required: string[] } {
  return MAPPER_TYPES[mapperType] ?? { keys: [...TOKEN_FLAGS, "claim.name"], required: [] };
}

const reads = (mapperType: string, key: string): boolean => keysOf(mapperType).keys.includes(key);

/** The form's values for a mapper (or a new one of `mapperType`): each key's value, flags as booleans. */
function initialValues(mapper: Mapper | undefined, mapperType: string): Values {
  const config = mapper?.config ?? {};
  const flags = tokenFlagDefaults(mapperType);
  const values: Values = { name: mapper?.name ?? "", mapperType: MAPPER_TYPES[mapperType] || !mapper ? mapperType : OTHER, otherType: mapper && !MAPPER_TYPES[mapperType] ? mapperType : "" };
  for (const key of ALL_KEYS) {
    const value = config[key] ?? (mapper ? undefined : flags[key]);
    values[field(key)] = BOOLEAN_KEYS.has(key) ? value === "true" : (value ?? "");
  }
  // Keycloak's default claim type for a new mapper; an existing one without it keeps "Not set".
  if (!mapper && reads(mapperType, "jsonType.label")) values[field("jsonType.label")] = "String";
  // A plugin's own settings, as `key=value` lines: the console knows only the built-in types' keys.
  const known = new Set(keysOf(mapperType).keys);
  values.extra = Object.entries(config).filter(([k]) => !known.has(k)).map(([k, v]) => `${k}=${v}`).join("\n");
  return values;
}

/** The config the form's values make for `mapperType`: every shown key, flags as "true"/"false", blank text left out. */
function configOf(values: Values, mapperType: string): Record<string, string> {
  const config: Record<string, string> = {};
  for (const key of keysOf(mapperType).keys) {
    const value = values[field(key)];
    if (BOOLEAN_KEYS.has(key)) config[key] = value ? "true" : "false";
    else if (String(value ?? "").trim()) config[key] = String(value).trim();
  }
  for (const line of lines(values.extra)) {
    const eq = line.indexOf("=");
    if (eq > 0) config[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
    else config[line] = "";
  }
  return config;
}

/**
 * Adds a protocol mapper, or edits one (spec 4.9: an update takes the name and the whole config;
 * the type stays): the fields of its type, with Keycloak's labels and its defaults for the token
 * switches. A setting the API refuses is shown beside its field (`config.<key>`).
 */
export function MapperForm(p: { mapper?: Mapper; save(body: { name: string; mapperType?: string; config: Record<string, string> }): Promise<void>; onCancel?(): void }): JSX.Element {
  const form = useForm<Values>(initialValues(p.mapper, p.mapper?.mapperType ?? "oidc-usermodel-attribute-mapper"), async (v) => {
    const mapperType = v.mapperType === OTHER ? String(v.otherType).trim() : String(v.mapperType);
    await p.save({ name: String(v.name).trim(), ...(p.mapper ? {} : { mapperType }), config: configOf(v, mapperType) });
    if (!p.mapper) form.set("name", "");
  });
  const chosen = form.values.mapperType === OTHER ? String(form.values.otherType) : String(form.values.mapperType);
  const spec = keysOf(chosen);
  const choose = (mapperType: string) => {
    // A new type starts from its own defaults for the switches (the audience mappers: access token only).
    for (const [k, value] of Object.entries(tokenFlagDefaults(mapperType))) form.set(field(k), value === "true");
    form.set("mapperType", mapperType);
  };
  const title = p.mapper ? `Edit mapper ${p.mapper.name}` : "Add mapper";
  return (
    <form onSubmit={form.submit} noValidate aria-label={title} class="stacked">
      <h3>{title}</h3>
      <TextField form={form} name="name" label="Mapper name" required />
      {p.mapper ? <p class="muted">Type: {p.mapper.mapperType}</p> : (
        <div class="field">
          <label for="mapper-type">Mapper type</label>
          <select id="mapper-type" name="mapperType" value={String(form.values.mapperType)} aria-invalid={form.errorOf("mapperType") ? "true" : undefined}
            aria-describedby={form.errorOf("mapperType") ? "mapper-type-err" : undefined}
            onChange={(e) => choose((e.currentTarget as HTMLSelectElement).value)}>
            {Object.keys(MAPPER_TYPES).map((t) => <option value={t}>{t}</option>)}
            <option value={OTHER}>Another type (a plugin's)</option>
          </select>
          {form.errorOf("mapperType") ? <p class="error-text" id="mapper-type-err">{form.errorOf("mapperType")}</p> : null}
        </div>
      )}
      {!p.mapper && form.values.mapperType === OTHER ? <TextField form={form} name="otherType" label="Plugin mapper type" hint="plugin:<plugin id>" required /> : null}
      {spec.keys.filter((k) => !TOKEN_FLAGS.includes(k)).map((key) => settingField(form, chosen, key, spec.required.includes(key)))}
      {MAPPER_TYPES[chosen] ? null : <TextField form={form} name="extra" label="Other settings" hint="One key=value per line" multiline />}
      <fieldset class="group">
        <legend>Tokens</legend>
        {TOKEN_FLAGS.map((flag) => <CheckField form={form} name={field(flag)} label={FLAG_LABELS[flag] ?? flag} />)}
      </fieldset>
      <FormFooter form={form} submit={p.mapper ? "Save mapper" : "Add mapper"}>
        {p.onCancel ? <button type="button" onClick={p.onCancel}>Cancel</button> : null}
      </FormFooter>
    </form>
  );
}

function settingField(form: FormState<Values>, mapperType: string, key: string, required: boolean): JSX.Element {
  const label = KEY_LABELS[key] ?? key;
  if (BOOLEAN_KEYS.has(key)) return <CheckField form={form} name={field(key)} label={label} />;
  if (key === "jsonType.label") return <SelectField form={form} name={field(key)} label={label} options={[{ value: "", label: "Not set" }, ...JSON_TYPES.map((t) => ({ value: t, label: t }))]} />;
  if (key === "user.attribute" && mapperType === "oidc-usermodel-property-mapper") {
    return <SelectField form={form} name={field(key)} label="User property" options={[{ value: "", label: "Choose a property" }, ...USER_PROPERTIES.map((u) => ({ value: u, label: u }))]} />;
  }
  return <TextField form={form} name={field(key)} label={label} required={required} multiline={key === "claim.value"} />;
}
