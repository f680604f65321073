/**
 * The authentication context class reference of a login (OIDC Core 1.0 section 2, `acr`), at
 * Keycloak's default levels of assurance: "1" when the user authenticated (presented credentials)
 * in the request that the grant came from, "0" when the SSO session's cookie alone did (Keycloak's
 * SSO authentication). Which tokens carry the claim is the `acr` client scope's mapper's to say
 * (the directory); its value is a fact of the login, which only the token service knows.
 */
export type Acr = "0" | "1";

export const AUTHENTICATED: Acr = "1";
export const SSO_REUSED: Acr = "0";

/** The level a code, device code or refresh family recorded; those stored before it was recorded were issued "1". */
export function acrOf(recorded: Acr | undefined): Acr {
  return recorded ?? AUTHENTICATED;
}
