import { IamError } from "../../../kit/src/errors.js";
import type { ClientRecord } from "./client.js";
import type { ClientCascade } from "./client-cascade.js";
import type { RealmRecord } from "./realm.js";
import type { ClientRepository } from "../store/client-repository.js";

/** The realm's public client of the account console, as Keycloak's `account-console`. */
export const ACCOUNT_CONSOLE_CLIENT_ID = "account-console";

/**
 * The account console's redirect URI: the console's page itself. Tessera matches redirect URIs
 * exactly (OAuth 2.0 Security BCP section 4.1.3), so where Keycloak registers
 * `/realms/{realm}/account/*` this is the one page the console's router keeps in its fragment.
 */
export function accountConsoleUrl(publicUrl: string, realmName: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/realms/${encodeURIComponent(realmName)}/account/`;
}

/**
 * Seeds the client into a realm (RealmDefaults runs it once per realm, on the realm's first use
 * by clients, roles or scopes, so realms older than this code get it too). A PUBLIC client: PKCE
 * S256 is required of it by the authorization endpoint, the code flow its only grant. A realm
 * that already has a client of that clientId (an import from Keycloak) keeps its own.
 */
export function accountConsoleSeed(repo: ClientRepository, cascade: ClientCascade, publicUrl: string) {
  return async (realm: RealmRecord, id: string, now: number): Promise<void> => {
    const client: ClientRecord = {
      _id: id, realmId: realm._id, clientId: ACCOUNT_CONSOLE_CLIENT_ID, name: "${client_account-console}",
      description: "The account console: the signed-in user's profile, password, sessions and applications.",
      clientType: "PUBLIC", enabled: true, redirectUris: [accountConsoleUrl(publicUrl, realm.name)], webOrigins: [],
      grantTypes: ["authorization_code", "refresh_token"], requireConsent: false,
      backchannelLogoutUri: "", backchannelLogoutSessionRequired: true, tokenEndpointAuthMethod: "none",
      jwks: { keys: [] }, jwksUri: "", requestObjectSignatureAlg: "", requirePushedAuthorizationRequests: false,
      createdAt: now, updatedAt: now,
    };
    try {
      await repo.insert(client);
    } catch (e) {
      if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
      // Another seeder's (same id: finish its scopes) or a client of that clientId already there.
      if (!(await repo.findById(realm._id, id))) return;
    }
    await cascade.assignDefaultScopes(realm, client);
  };
}
