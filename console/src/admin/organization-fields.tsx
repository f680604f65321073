import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { CheckField, TextField, lines, type FormState, type Values } from "../ui/form";
import { useLoad } from "../ui/widgets";
import type { AdminSession } from "./admin-session";
import { attributesOf, attributesText } from "./attribute-lines";

export interface OrganizationDomain {
  name: string;
  verified: boolean;
}

/** An organization in Keycloak 26's representation (docs/organizations.md). */
export interface OrganizationRow {
  id: string;
  name: string;
  alias?: string;
  description?: string;
  enabled?: boolean;
  redirectUrl?: string;
  domains?: OrganizationDomain[];
  attributes?: Record<string, string[]>;
  identityProviders?: string[];
}

/** An identity provider of the realm, as the organization form offers it. */
export interface ProviderChoice {
  alias: string;
  displayName?: string;
}

function domainsOf(v: string | boolean | undefined): OrganizationDomain[] {
  try {
    const d = JSON.parse(String(v || "[]")) as OrganizationDomain[];
    return Array.isArray(d) ? d : [];
  } catch {
    return [];
  }
}

/** The form's values; domains travel as JSON text, since a form value is a string or a flag. */
export function organizationValues(o: Partial<OrganizationRow>): Values {
  return {
    name: o.name ?? "", alias: o.alias ?? "", description: o.description ?? "", redirectUrl: o.redirectUrl ?? "",
    enabled: o.enabled ?? true, domains: JSON.stringify(o.domains ?? []), attributes: attributesText(o.attributes),
    identityProviders: (o.identityProviders ?? []).join("\n"),
  };
}

/**
 * The body of a create or an update. The alias cannot change after creation (the API refuses it),
 * so an update leaves it out; empty domain rows are dropped; domains and attributes replace the
 * whole set on update, as the API reads them.
 */
export function organizationBody(v: Values, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: String(v.name).trim(), description: String(v.description).trim(), enabled: Boolean(v.enabled),
    domains: domainsOf(v.domains).filter((d) => d.name.trim() !== "").map((d) => ({ name: d.name.trim(), verified: d.verified })),
    attributes: attributesOf(String(v.attributes)),
    identityProviders: lines(v.identityProviders),
  };
  if (String(v.redirectUrl).trim() !== "" || !create) body.redirectUrl = String(v.redirectUrl).trim();
  if (create && String(v.alias).trim() !== "") body.alias = String(v.alias).trim();
  return body;
}

let ids = 0;

/**
 * The domains as rows of a name and a Verified box. The API's error for `domains` (a duplicate in
 * the realm, a malformed name) is shown under the group and tied to each row's input.
 */
function DomainsField(p: { form: FormState<Values> }): JSX.Element {
  const [id] = useState(() => `dom${++ids}`);
  const rows = domainsOf(p.form.values.domains);
  const error = p.form.errorOf("domains");
  // The API names the domain it refuses in quotes: that row is marked, or every row when none is named.
  const named = /"([^"]+)"/.exec(error)?.[1];
  const invalid = (d: OrganizationDomain): boolean => Boolean(error) && (!named || !rows.some((r) => r.name.trim().toLowerCase() === named) || d.name.trim().toLowerCase() === named);
  const put = (next: OrganizationDomain[]): void => p.form.set("domains", JSON.stringify(next));
  const add = (): void => {
    put([...rows, { name: "", verified: false }]);
    // Keyboard users continue in the row they asked for.
    setTimeout(() => document.getElementById(`${id}-${rows.length}`)?.focus(), 0);
  };
  return (
    <fieldset class="group" aria-describedby={`${id}-hint${error ? ` ${id}-err` : ""}`}>
      <legend>Domains</legend>
      <p class="hint" id={`${id}-hint`}>Email domains of the organization, each linked to one organization of the realm. Only verified domains route logins.</p>
      {rows.map((d, i) => (
        <div class="inline-form">
          <div class={`field${invalid(d) ? " field-error" : ""}`}>
            <label for={`${id}-${i}`}>Domain {i + 1}</label>
            <input id={`${id}-${i}`} value={d.name} autoComplete="off" placeholder="example.com" aria-invalid={invalid(d) ? "true" : undefined}
              aria-describedby={invalid(d) ? `${id}-err` : undefined}
              onInput={(e) => put(rows.map((r, j) => (j === i ? { ...r, name: (e.currentTarget as HTMLInputElement).value } : r)))} />
          </div>
          <div class="field field-check">
            <input type="checkbox" id={`${id}-${i}-v`} checked={d.verified}
              onChange={(e) => put(rows.map((r, j) => (j === i ? { ...r, verified: (e.currentTarget as HTMLInputElement).checked } : r)))} />
            <label for={`${id}-${i}-v`}>Domain {i + 1} verified</label>
          </div>
          <div class="actions"><button type="button" onClick={() => put(rows.filter((_, j) => j !== i))}>Remove domain {i + 1}</button></div>
        </div>
      ))}
      {error ? <p class="error-text" id={`${id}-err`} role="alert">{error}</p> : null}
      <div class="actions"><button type="button" onClick={add}>Add domain</button></div>
    </fieldset>
  );
}

/** The realm's identity providers, for the form's choice (none while loading or when the list fails). */
export function useProviderChoices(session: AdminSession, realm: string): ProviderChoice[] {
  const path = `/admin/realms/${encodeURIComponent(realm)}/identity-providers`;
  return useLoad(() => session.request<ProviderChoice[]>("GET", path), [path]).data ?? [];
}

/**
 * The realm's identity providers the members sign in with: identity-first login sends an email of
 * a verified domain to the first one chosen. An alias no longer in the realm stays listed, so
 * saving does not drop it unseen.
 */
function ProvidersField(p: { form: FormState<Values>; providers: ProviderChoice[] }): JSX.Element {
  const [id] = useState(() => `idp${++ids}`);
  const chosen = lines(p.form.values.identityProviders);
  const known = new Set(p.providers.map((x) => x.alias));
  const all = [...p.providers, ...chosen.filter((a) => !known.has(a)).map((alias) => ({ alias, displayName: `${alias} (not in this realm)` }))];
  const error = p.form.errorOf("identityProviders");
  const toggle = (alias: string, on: boolean): void =>
    p.form.set("identityProviders", (on ? [...chosen, alias] : chosen.filter((a) => a !== alias)).join("\n"));
  return (
    <fieldset class="group">
      <legend>Identity providers</legend>
      {all.length === 0 ? <p class="muted">The realm has no identity providers.</p> : all.map((x, i) => (
        <div class="field field-check">
          <input type="checkbox" id={`${id}-${i}`} checked={chosen.includes(x.alias)} aria-describedby={error ? `${id}-err` : undefined}
            onChange={(e) => toggle(x.alias, (e.currentTarget as HTMLInputElement).checked)} />
          <label for={`${id}-${i}`}>{x.displayName && x.displayName !== x.alias ? `${x.displayName} (${x.alias})` : x.alias}</label>
        </div>
      ))}
      {error ? <p class="error-text" id={`${id}-err`} role="alert">{error}</p> : null}
    </fieldset>
  );
}

/** An organization's fields; the alias only at creation. */
export function OrganizationFields(p: { form: FormState<Values>; create: boolean; providers: ProviderChoice[] }): JSX.Element {
  return (
    <>
      <div class="grid">
        <TextField form={p.form} name="name" label="Name" required />
        {p.create ? <TextField form={p.form} name="alias" label="Alias" hint="Names the organization in tokens; the name when empty. It cannot change later." /> : null}
        <TextField form={p.form} name="description" label="Description" />
        <TextField form={p.form} name="redirectUrl" label="Redirect URL" type="url" hint="Where an accepted invitation links to." />
        <CheckField form={p.form} name="enabled" label="Enabled" />
      </div>
      <DomainsField form={p.form} />
      <ProvidersField form={p.form} providers={p.providers} />
      <TextField form={p.form} name="attributes" label="Attributes" multiline hint="One key=value a line; repeat a key for several values." />
    </>
  );
}
