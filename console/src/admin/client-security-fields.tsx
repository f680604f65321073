import type { JSX } from "preact";
import { ApiFailure } from "../ui/api-failure";
import { CheckField, SelectField, TextField, type FormState, type Values } from "../ui/form";

/** The client's authentication, token signing, request object, token exchange and profile settings (spec 2.3). */
export interface ClientSecurity {
  tokenEndpointAuthMethod?: string;
  jwks?: { keys?: unknown[] } | null;
  jwksUri?: string;
  requestObjectSignatureAlg?: string;
  requirePushedAuthorizationRequests?: boolean;
  standardTokenExchangeEnabled?: boolean;
  idTokenSignedResponseAlg?: string;
  accessTokenSignedResponseAlg?: string;
  clientProfile?: string;
}

/** OIDC Registration section 2's names, labelled as Keycloak's "Client Authenticator" list. */
const AUTH_METHODS = [
  { value: "client_secret_basic", label: "Client secret (client_secret_basic)" },
  { value: "client_secret_post", label: "Client secret in the form (client_secret_post)" },
  { value: "client_secret_jwt", label: "Signed JWT with the secret (client_secret_jwt)" },
  { value: "private_key_jwt", label: "Signed JWT with a private key (private_key_jwt)" },
  { value: "none", label: "None (public client)" },
];

/** "" is the realm's key; the others are the algorithms the directory accepts (RFC 7518). */
const TOKEN_ALGS = [{ value: "", label: "The realm's default" }, ...["RS256", "PS256", "ES256", "EdDSA"].map((a) => ({ value: a, label: a }))];

/** Keycloak's "request object signature algorithm" choices (RFC 9101). */
const REQUEST_OBJECT_ALGS = [
  { value: "", label: "Any signed algorithm (unsigned refused)" },
  { value: "any", label: "Any, unsigned too" },
  { value: "none", label: "Unsigned only (none)" },
  ...["RS256", "PS256", "ES256", "EdDSA"].map((a) => ({ value: a, label: a })),
];

const PROFILES = [{ value: "", label: "None" }, { value: "fapi2-security", label: "FAPI 2.0 Security Profile (fapi2-security)" }];

const jwksText = (jwks: ClientSecurity["jwks"]): string => ((jwks?.keys ?? []).length > 0 ? JSON.stringify(jwks, null, 2) : "");

/** Form values; an empty `tokenEndpointAuthMethod` on create leaves the choice to the client type. */
export function securityValues(c: ClientSecurity, create: boolean): Values {
  return {
    tokenEndpointAuthMethod: create ? "" : c.tokenEndpointAuthMethod ?? "",
    jwks: jwksText(c.jwks), jwksUri: c.jwksUri ?? "",
    requestObjectSignatureAlg: c.requestObjectSignatureAlg ?? "",
    requirePushedAuthorizationRequests: Boolean(c.requirePushedAuthorizationRequests),
    standardTokenExchangeEnabled: Boolean(c.standardTokenExchangeEnabled),
    idTokenSignedResponseAlg: c.idTokenSignedResponseAlg ?? "", accessTokenSignedResponseAlg: c.accessTokenSignedResponseAlg ?? "",
    clientProfile: c.clientProfile ?? "",
  };
}

/**
 * The body's part for these settings. The key set is sent only when it changed (`{}` removes it,
 * as the API takes it); JSON that does not parse is refused here, beside the field, as the API
 * would refuse a body that is not a JWK Set.
 */
export function securityBody(v: Values, before: ClientSecurity, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    requestObjectSignatureAlg: v.requestObjectSignatureAlg, requirePushedAuthorizationRequests: Boolean(v.requirePushedAuthorizationRequests),
    standardTokenExchangeEnabled: Boolean(v.standardTokenExchangeEnabled),
    idTokenSignedResponseAlg: v.idTokenSignedResponseAlg, accessTokenSignedResponseAlg: v.accessTokenSignedResponseAlg,
    clientProfile: v.clientProfile, jwksUri: String(v.jwksUri).trim(),
  };
  if (v.tokenEndpointAuthMethod) body.tokenEndpointAuthMethod = v.tokenEndpointAuthMethod;
  const text = String(v.jwks).trim();
  if (text !== jwksText(before.jwks).trim()) {
    if (!text) body.jwks = {};
    else {
      try {
        body.jwks = JSON.parse(text) as unknown;
      } catch {
        throw new ApiFailure(400, "invalid_request", 'jwks must be JSON: a JWK Set, {"keys": [...]}', "jwks");
      }
    }
  }
  if (create && !body.jwksUri) delete body.jwksUri;
  return body;
}

export function ClientSecurityFields(p: { form: FormState<Values>; create: boolean }): JSX.Element {
  const methods = p.create ? [{ value: "", label: "Default for the client type" }, ...AUTH_METHODS] : AUTH_METHODS;
  return (
    <>
      <fieldset class="group">
        <legend>Credentials and keys</legend>
        <div class="grid">
          <SelectField form={p.form} name="tokenEndpointAuthMethod" label="Client authenticator" options={methods} />
          <TextField form={p.form} name="jwksUri" label="JWKS URL" type="url" hint="Where the client publishes its public keys (https)." />
        </div>
        <TextField form={p.form} name="jwks" label="JSON Web Key Set" multiline hint='The client&apos;s public keys by value, {"keys": [...]}; set this or the JWKS URL.' />
      </fieldset>
      <fieldset class="group">
        <legend>Tokens and requests</legend>
        <div class="grid">
          <SelectField form={p.form} name="idTokenSignedResponseAlg" label="ID token signature algorithm" options={TOKEN_ALGS} />
          <SelectField form={p.form} name="accessTokenSignedResponseAlg" label="Access token signature algorithm" options={TOKEN_ALGS} />
          <SelectField form={p.form} name="requestObjectSignatureAlg" label="Request object signature algorithm" options={REQUEST_OBJECT_ALGS} />
          <CheckField form={p.form} name="requirePushedAuthorizationRequests" label="Pushed authorization requests required" />
          {/* RFC 8693; Keycloak's "Standard token exchange", confidential clients only. */}
          <CheckField form={p.form} name="standardTokenExchangeEnabled" label="Standard token exchange" />
          <SelectField form={p.form} name="clientProfile" label="Client profile" options={PROFILES} />
        </div>
      </fieldset>
    </>
  );
}
