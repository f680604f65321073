import type { JSX } from "preact";
import { CheckField, SelectField, TextField, lines, type FormState, type Values } from "../ui/form";
import { ClientSecurityFields, securityBody, securityValues, type ClientSecurity } from "./client-security-fields";

export interface ClientRow extends ClientSecurity {
  id: string;
  clientId: string;
  name?: string;
  description?: string;
  clientType?: string;
  enabled?: boolean;
  redirectUris?: string[];
  webOrigins?: string[];
  grantTypes?: string[];
  requireConsent?: boolean;
  backchannelLogoutUri?: string;
  dpopBoundAccessTokens?: boolean;
  dpopNonceRequired?: boolean;
  secret?: string;
}

/** The grant types the Admin API accepts (spec 2.3), with the names Keycloak's console uses. */
const GRANTS: { value: string; label: string }[] = [
  { value: "authorization_code", label: "Standard flow (authorization code)" },
  { value: "refresh_token", label: "Refresh token" },
  { value: "client_credentials", label: "Client credentials (service account)" },
  { value: "urn:ietf:params:oauth:grant-type:device_code", label: "Device authorization grant" },
  { value: "password", label: "Direct access grants (password)" },
];

const grantKey = (g: string): string => `grant:${g}`;

/** Form values of a client; `grantTypes` holds no value, it names where the API's grant type error goes. */
export function clientValues(c: Partial<ClientRow>, create = false): Values {
  const grants = c.grantTypes ?? ["authorization_code", "refresh_token"];
  return {
    name: c.name ?? "", description: c.description ?? "", enabled: c.enabled !== false, clientType: c.clientType ?? "CONFIDENTIAL",
    redirectUris: (c.redirectUris ?? []).join("\n"), webOrigins: (c.webOrigins ?? []).join("\n"), requireConsent: Boolean(c.requireConsent),
    backchannelLogoutUri: c.backchannelLogoutUri ?? "", grantTypes: "",
    dpopBoundAccessTokens: Boolean(c.dpopBoundAccessTokens), dpopNonceRequired: Boolean(c.dpopNonceRequired),
    ...Object.fromEntries(GRANTS.map((g) => [grantKey(g.value), grants.includes(g.value)])),
    ...securityValues(c, create),
  };
}

/** The create or update body (spec 2.3); `clientType` only on create; `before` is the stored client on update. */
export function clientBody(v: Values, create: boolean, before: Partial<ClientRow> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: String(v.name).trim(), description: String(v.description).trim(), enabled: Boolean(v.enabled),
    redirectUris: lines(v.redirectUris), webOrigins: lines(v.webOrigins), requireConsent: Boolean(v.requireConsent),
    grantTypes: GRANTS.filter((g) => v[grantKey(g.value)]).map((g) => g.value),
    dpopBoundAccessTokens: Boolean(v.dpopBoundAccessTokens), dpopNonceRequired: Boolean(v.dpopNonceRequired),
    ...securityBody(v, before, create),
  };
  const logout = String(v.backchannelLogoutUri).trim();
  if (logout || !create) body.backchannelLogoutUri = logout;
  if (create) body.clientType = v.clientType;
  return body;
}

export function ClientFields(p: { form: FormState<Values>; create: boolean }): JSX.Element {
  const grantError = p.form.errorOf("grantTypes");
  return (
    <>
      <div class="grid">
        <TextField form={p.form} name="name" label="Name" />
        <TextField form={p.form} name="description" label="Description" />
        {p.create ? (
          <SelectField form={p.form} name="clientType" label="Client authentication"
            options={[{ value: "CONFIDENTIAL", label: "On (confidential client, has a secret)" }, { value: "PUBLIC", label: "Off (public client)" }]} />
        ) : null}
        <CheckField form={p.form} name="enabled" label="Enabled" />
        <CheckField form={p.form} name="requireConsent" label="Consent required" />
        {/* RFC 9449; Keycloak's "OAuth 2.0 DPoP Bound Access Tokens Enabled". */}
        <CheckField form={p.form} name="dpopBoundAccessTokens" label="DPoP bound access tokens required" />
        <CheckField form={p.form} name="dpopNonceRequired" label="DPoP nonce required" />
      </div>
      <fieldset class="group" aria-describedby={grantError ? "grant-error" : undefined}>
        <legend>Grant types</legend>
        <div class="grid">
          {GRANTS.map((g) => <CheckField form={p.form} name={grantKey(g.value)} label={g.label} />)}
        </div>
        {grantError ? <p class="error-text" id="grant-error">{grantError}</p> : null}
      </fieldset>
      <div class="grid">
        <TextField form={p.form} name="redirectUris" label="Valid redirect URIs" multiline hint="One URI a line." />
        <TextField form={p.form} name="webOrigins" label="Web origins" multiline hint="One origin a line, for CORS." />
        <TextField form={p.form} name="backchannelLogoutUri" label="Backchannel logout URL" type="url" />
      </div>
      <ClientSecurityFields form={p.form} create={p.create} />
    </>
  );
}
