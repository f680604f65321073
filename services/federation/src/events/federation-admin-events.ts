/** Resource type of the federation service's admin events (Keycloak's for user storage providers is COMPONENT). */
export const USER_FEDERATION_PROVIDER = "USER_FEDERATION_PROVIDER";
