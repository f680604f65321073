/**
 * What every hosted page answers for a realm that does not exist or is disabled (as Keycloak, a
 * disabled realm serves no login): the token service's flows, the SAML endpoint and the gateway's
 * page guard show this one page, so a visitor cannot tell which part answered. The Admin API keeps
 * its own `realm "<name>" not found` message.
 */
export const REALM_NOT_FOUND = Object.freeze({
  status: 404,
  error: "realm_not_found",
  description: "This realm does not exist or is disabled.",
});
