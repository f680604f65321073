import { ClientService } from "../../../../../gen/iam/directory/v1/client_pb.js";
import { ClaimsService } from "../../../../../gen/iam/directory/v1/claims_pb.js";
import { createDirectTransport } from "../../../../kit/src/rpc/direct-transport.js";
import { TestClock } from "../../../../kit/src/store/store-contract-kit.js";
import type { ClientInfo } from "../client-directory.js";
import type { KeyRing } from "../key-ring.js";
import type { OAuthRealm } from "../realm-settings.js";
import { TokenMinter, type MintedTokens } from "../token-minter.js";
import { NO_SESSION } from "../claims-session.js";
import { ClientCredentialsGrant } from "./client-credentials-grant.js";
import type { TokenParams } from "./grant-context.js";
import { ServiceAccountGrants } from "./service-account-grants.js";

const realm: OAuthRealm = {
  id: "r1", name: "r", enabled: true, tokenLifespanSeconds: 300, accessTokenLifespan: 300, refreshTokenLifespan: 1800,
  offlineTokenLifespan: 2_592_000, eventsEnabled: false, eventsExpiration: 604_800, adminEventsEnabled: false, registrationAllowed: false, ssoSessionMaxLifespan: 36_000, rememberMe: false, ssoSessionIdleTimeoutRememberMe: 0, ssoSessionMaxLifespanRememberMe: 0, resetPasswordAllowed: false, requirePushedAuthorizationRequests: false,
};
const client: ClientInfo = {
  id: "c1", clientId: "svc", name: "", clientType: "CONFIDENTIAL", enabled: true, redirectUris: [], webOrigins: [],
  grantTypes: ["client_credentials"], requireConsent: false, backchannelLogoutUri: "", backchannelLogoutSessionRequired: false,
  tokenEndpointAuthMethod: "client_secret_basic", jwks: { keys: [] }, jwksUri: "",
  scopeNames: [], scopes: [], requestObjectSignatureAlg: "", requirePushedAuthorizationRequests: false, dpopBoundAccessTokens: false, dpopNonceRequired: false, standardTokenExchangeEnabled: false,
  idTokenSignedResponseAlg: "", accessTokenSignedResponseAlg: "", clientProfile: "", introspectionClaimsDiffer: false,
};
const params = { grantType: "client_credentials", scope: undefined } as TokenParams;

/**
 * The grant a client_credentials request resolves is kept (ServiceAccountGrants), so it is resolved
 * from the directory's store (ResolveClaimsRequest.from_store), never from a directory replica's
 * caches that may not yet have heard of the change whose event just emptied this cache.
 */
describe("ClientCredentialsGrant", () => {
  it("resolves the claims it caches from the directory's store, and a user token's from its caches", async () => {
    const fromStore: boolean[] = [];
    const transport = createDirectTransport((r) => {
      r.service(ClientService, { getServiceAccountUser: () => ({ user: { id: "sa", enabled: true } }) });
      r.service(ClaimsService, {
        resolveClaims(req) {
          fromStore.push(req.fromStore);
          return { accessTokenClaimsJson: "{}", idTokenClaimsJson: "{}", userinfoClaimsJson: "{}", grantedScopes: [], realmRoles: [], clientRoles: [] };
        },
      });
    });
    const clock = new TestClock();
    const minter = new TokenMinter(transport, {} as KeyRing, clock);
    minter.mint = async () => ({ accessToken: "at", expiresIn: 300, scope: "" }) as unknown as MintedTokens;
    const grant = new ClientCredentialsGrant(transport, minter, new ServiceAccountGrants(clock));

    await grant.issue({ realm, issuer: "https://issuer", client, params });
    await grant.issue({ realm, issuer: "https://issuer", client, params });
    await minter.grant(realm, client, "user-1", NO_SESSION, undefined);

    // Once for the cached grant (the second request is served from the cache), once per user token.
    expect(fromStore).toEqual([true, false]);
  });
});
