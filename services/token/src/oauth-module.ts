import type { ConnectRouter } from "@connectrpc/connect";
import { OAuthService } from "../../../gen/iam/token/v1/oauth_pb.js";
import { ScopeEvaluationService } from "../../../gen/iam/token/v1/scope_evaluation_pb.js";
import { ScopeEvaluation } from "./domain/scope-evaluation.js";
import { scopeEvaluationRpc } from "./rpc/scope-evaluation-rpc.js";
import { SessionAdminService } from "../../../gen/iam/token/v1/sessions_pb.js";
import type { ServiceDeps } from "../../kit/src/module.js";
import type { Subscription } from "../../kit/src/bus/port.js";
import type { KeyRing } from "./domain/key-ring.js";
import { ClientDirectory } from "./domain/client-directory.js";
import { ClientAuth } from "./domain/client-auth.js";
import { ClientAssertions } from "./domain/client-assertion.js";
import { ClientJwks } from "./domain/client-jwks.js";
import { SpentJtiRepository } from "./store/spent-jti-repository.js";
import type { OutboundPolicy } from "../../kit/src/outbound/address-policy.js";
import { RealmSettings } from "./domain/realm-settings.js";
import { IssuerBase } from "./domain/issuer-base.js";
import { BackchannelLogout, type BackchannelOptions } from "./domain/backchannel-logout.js";
import { Outbox } from "../../kit/src/bus/outbox.js";
import { SsoSessions } from "./domain/sso-sessions.js";
import { SsoSessionKeepAlive } from "./domain/sso-session-keep-alive.js";
import { SessionTerminator } from "./domain/session-terminator.js";
import { RefreshFamilies } from "./domain/refresh-families.js";
import { TokenMinter } from "./domain/token-minter.js";
import { IntrospectedClaims } from "./domain/introspected-claims.js";
import { UserTokens } from "./domain/grants/user-tokens.js";
import { AuthorizationCodeGrant } from "./domain/grants/authorization-code-grant.js";
import { ClientCredentialsGrant } from "./domain/grants/client-credentials-grant.js";
import { ServiceAccountGrants } from "./domain/grants/service-account-grants.js";
import { PasswordGrant } from "./domain/grants/password-grant.js";
import { PluginStepRunner } from "./domain/plugin-step-runner.js";
import { AuthenticationFlows } from "./domain/authentication-flows.js";
import { RefreshTokenGrant } from "./domain/grants/refresh-token-grant.js";
import { DeviceCodeGrant } from "./domain/grants/device-code-grant.js";
import { DeviceAuthorizations, DEVICE_GRANT } from "./domain/device-authorization.js";
import { TokenEndpoint } from "./domain/token-endpoint.js";
import { TOKEN_EXCHANGE_GRANT, TokenExchangeGrant } from "./domain/grants/token-exchange-grant.js";
import { TokenOperations } from "./domain/token-operations.js";
import { RecentUserRevocations } from "./domain/recent-user-revocations.js";
import { AccessTokens } from "./domain/access-tokens.js";
import { OAuthEvents } from "./domain/oauth-events.js";
import { SessionAdmin } from "./domain/session-admin.js";
import { AuthorizationCodeRepository } from "./store/authorization-code-repository.js";
import { DeviceCodeRepository } from "./store/device-code-repository.js";
import { SsoSessionRepository } from "./store/sso-session-repository.js";
import { RefreshFamilyRepository } from "./store/refresh-family-repository.js";
import { BackchannelDeliveryRepository } from "./store/backchannel-delivery-repository.js";
import { RevokedTokenRepository } from "./store/revoked-token-repository.js";
import { startOAuthConsumers } from "./events/oauth-consumers.js";
import { PushedRequestRepository } from "./store/pushed-request-repository.js";
import { PushedAuthorizations } from "./domain/pushed-authorization.js";
import { oauthRpc } from "./rpc/oauth-rpc.js";
import { DpopNonces } from "./domain/dpop-nonce.js";
import { DpopProofs } from "./domain/dpop-proof.js";
import { DpopBinding } from "./domain/dpop-binding.js";
import { sessionAdminRpc } from "./rpc/session-admin-rpc.js";
import { AccountService } from "../../../gen/iam/token/v1/account_pb.js";
import { AccountSelf } from "./domain/account-self.js";
import { accountRpc } from "./rpc/account-rpc.js";
import { ConsentRepository } from "./flow/consent-repository.js";

export interface OAuthOptions {
  /** TESSERA_PUBLIC_URL as this service read it (issuer of work done without a request). */
  publicUrl: string;
  backchannel?: BackchannelOptions;
  /** Other token-service data of a deleted realm (the browser flow's transactions and consents). */
  dropRealmAlso?: (realmId: string) => Promise<void>;
  /** Other token-service data of a deleted client, up to the deletion's time (the browser flow's consents). */
  dropClientAlso?: (realmId: string, clientId: string, upTo: number) => Promise<void>;
  /** Other token-service data of a deleted user (the browser flow's consents). */
  dropUserAlso?: (realmId: string, userId: string) => Promise<void>;
  /** Where client jwks_uris may be fetched from (TESSERA_OUTBOUND_ALLOW_LOOPBACK); loopback refused when absent. */
  outbound?: OutboundPolicy;
}

/**
 * The OAuth half of the token service (spec 1.2, 4.15-4.16, 4.7): the token endpoint and its
 * grants, device authorization, introspection, revocation, userinfo, logout, sessions admin,
 * and their consumers. Built by module.ts; tests build it in-process too.
 */
export async function buildOAuth(deps: ServiceDeps, keys: KeyRing, options: OAuthOptions) {
  const { store, bus, clock, logger } = deps;
  const directory = deps.transports.directory;
  const clients = new ClientDirectory(directory, clock);
  const realms = new RealmSettings(directory, clock);
  const issuers = new IssuerBase(options.publicUrl);
  const codes = await AuthorizationCodeRepository.open(store);
  const devices = await DeviceCodeRepository.open(store);
  const ssoRepo = await SsoSessionRepository.open(store);
  const familyRepo = await RefreshFamilyRepository.open(store);
  const revoked = await RevokedTokenRepository.open(store);
  const pushedRepo = await PushedRequestRepository.open(store);
  // Session ends and family revocations announce through it (outbox.ts); its relay starts with the consumers.
  const outbox = await Outbox.open(store, bus, clock, logger, { soleProcess: deps.soleProcess ?? false });
  const sso = new SsoSessions(ssoRepo, outbox, clock);
  const deliveries = await BackchannelDeliveryRepository.open(store);
  const backchannel = new BackchannelLogout(keys, clients, issuers, deliveries, clock, logger, options.backchannel);
  const terminator = new SessionTerminator(familyRepo, sso, backchannel, revoked, outbox);
  const recentRevocations = new RecentUserRevocations(() => clock.now());
  const families = new RefreshFamilies(familyRepo, clock, deps.secrets, recentRevocations);
  const minter = new TokenMinter(directory, keys, clock);
  const keepAlive = new SsoSessionKeepAlive(ssoRepo, clock);
  const userTokens = new UserTokens(minter, families, keepAlive, clock);
  const clientJwks = new ClientJwks(options.outbound ?? { allowLoopback: false }, clock);
  const assertions = new ClientAssertions(clients, clientJwks, await SpentJtiRepository.forClientAssertions(store), clock);
  const auth = new ClientAuth(clients, assertions);
  const events = new OAuthEvents(outbox, clock);
  const serviceAccountGrants = new ServiceAccountGrants(clock);
  const dpopProofs = new DpopProofs(await SpentJtiRepository.forDpopProofs(store), new DpopNonces(deps.secrets, clock), clock);
  const dpop = new DpopBinding(dpopProofs, clients);
  const pushed = new PushedAuthorizations(pushedRepo, auth, events, clock, dpop);
  const access = new AccessTokens(keys, familyRepo, ssoRepo, revoked, clients, recentRevocations);
  const endpoint = new TokenEndpoint(auth, {
    authorization_code: new AuthorizationCodeGrant(codes, ssoRepo, terminator, minter, userTokens, revoked, clock),
    client_credentials: new ClientCredentialsGrant(directory, minter, serviceAccountGrants),
    password: new PasswordGrant(directory, minter, userTokens, clock, new AuthenticationFlows(directory), deps.plugins && new PluginStepRunner(directory, deps.plugins)),
    refresh_token: new RefreshTokenGrant(families, ssoRepo, keepAlive, minter, clock),
    [DEVICE_GRANT]: new DeviceCodeGrant(devices, ssoRepo, minter, userTokens, deps.secrets, clock),
    [TOKEN_EXCHANGE_GRANT]: new TokenExchangeGrant(access, clients, familyRepo, ssoRepo, minter, userTokens),
  }, events, dpop);
  const operations = new TokenOperations({
    auth, access, families, sessions: ssoRepo, revoked, terminator, minter, introspected: new IntrospectedClaims(minter), clients, events, dpop,
  });
  const deviceAuth = new DeviceAuthorizations(devices, deps.secrets, clock);
  const admin = new SessionAdmin(realms, sso, ssoRepo, familyRepo, terminator, clock);
  const account = new AccountSelf(realms, issuers, access, ssoRepo, familyRepo, sso, terminator, await ConsentRepository.open(store), events, clock);
  let subs: Subscription[] = [];

  return {
    parts: { pushed, clients, realms, serviceAccountGrants, codes, devices, ssoRepo, familyRepo, revoked, recentRevocations, sso, backchannel, deliveries, terminator, families, access, issuers, outbox },
    routes(router: ConnectRouter) {
      router.service(OAuthService, oauthRpc({ realms, issuers, auth, endpoint, devices: deviceAuth, operations, pushed }));
      router.service(SessionAdminService, sessionAdminRpc(admin));
      router.service(ScopeEvaluationService, scopeEvaluationRpc(new ScopeEvaluation(realms, clients, minter, issuers, clock)));
      router.service(AccountService, accountRpc(account));
    },
    async start() {
      subs = await startOAuthConsumers({
        bus, terminator, sso, logger,
        dropClientAlso: options.dropClientAlso,
        dropUserAlso: options.dropUserAlso,
        async dropRealm(realmId) {
          await options.dropRealmAlso?.(realmId);
          const counts = await Promise.all([
            familyRepo.deleteRealm(realmId), codes.deleteRealm(realmId), devices.deleteRealm(realmId),
            ssoRepo.deleteRealm(realmId), revoked.deleteRealm(realmId), deliveries.deleteRealm(realmId), pushedRepo.deleteRealm(realmId),
          ]);
          return counts.reduce((a, b) => a + b, 0);
        },
      });
      // Deliveries a previous run left undone go out now (and any due later, from any process).
      backchannel.start();
      await outbox.start();
    },
    async stop() {
      // The outbox last: it marks this process gone, and a consumer stopping may still be writing.
      await Promise.all(subs.map((s) => s.stop()));
      await backchannel.stop();
      await outbox.stop();
    },
  };
}
