/** Resource types of the saml service's admin events. */
export const SAML_SERVICE_PROVIDER = "SAML_SERVICE_PROVIDER";
export const SAML_SIGNING_KEY = "SAML_SIGNING_KEY";
