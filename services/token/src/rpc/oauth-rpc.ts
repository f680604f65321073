import type { JsonObject } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { OAuthService, type ClientCredentials } from "../../../../gen/iam/token/v1/oauth_pb.js";
import type { PresentedClient } from "../domain/client-auth.js";
import type { DeviceAuthorizations } from "../domain/device-authorization.js";
import type { IssuerBase } from "../domain/issuer-base.js";
import type { RealmSettings } from "../domain/realm-settings.js";
import type { TokenEndpoint } from "../domain/token-endpoint.js";
import type { TokenOperations } from "../domain/token-operations.js";
import type { PushedAuthorizations } from "../domain/pushed-authorization.js";
import type { ClientAuth } from "../domain/client-auth.js";

export interface OAuthDeps {
  realms: RealmSettings;
  issuers: IssuerBase;
  auth: ClientAuth;
  endpoint: TokenEndpoint;
  devices: DeviceAuthorizations;
  operations: TokenOperations;
  pushed: PushedAuthorizations;
}

/** Thin handlers: check -> domain -> convert. */
export function oauthRpc(d: OAuthDeps): ServiceImpl<typeof OAuthService> {
  const context = async (realmName: string, baseUrl: string) => {
    const realm = await d.realms.publicRealm(realmName);
    return { realm, issuer: d.issuers.fromRequest(baseUrl, realm.name) };
  };
  return {
    async token(req) {
      const realm = d.realms.cachedPublicRealm(req.realm) ?? await d.realms.publicRealm(req.realm);
      const issuer = d.issuers.fromRequest(req.baseUrl, realm.name);
      const r = await d.endpoint.token(realm, issuer, presented(req.client, issuer), {
        grantType: req.grantType, code: req.code, redirectUri: req.redirectUri, codeVerifier: req.codeVerifier,
        username: req.username, password: req.password, otp: req.otp, refreshToken: req.refreshToken,
        scope: req.scope, deviceCode: req.deviceCode, ipAddress: req.ipAddress, dpopProof: req.dpopProof,
        ...(req.subjectToken || req.subjectTokenType || req.audience || req.requestedTokenType || req.actorToken || req.resource ? {
          exchange: {
            subjectToken: req.subjectToken, subjectTokenType: req.subjectTokenType, audience: req.audience,
            requestedTokenType: req.requestedTokenType, actorToken: req.actorToken, resource: req.resource,
          },
        } : {}),
      });
      return {
        // RFC 9449 section 5: a DPoP-bound access token's type is DPoP.
        accessToken: r.accessToken, tokenType: r.dpopBound ? "DPoP" : "Bearer", dpopNonce: r.dpopNonce ?? "", expiresIn: r.expiresIn, refreshToken: r.refreshToken,
        refreshExpiresIn: r.refreshExpiresIn, idToken: r.idToken, scope: r.scope, sessionState: r.sessionState,
        issuedTokenType: r.issuedTokenType ?? "",
      };
    },
    async authorizeDevice(req) {
      const { realm, issuer } = await context(req.realm, req.baseUrl);
      const client = await d.auth.authenticate(realm.name, presented(req.client, issuer));
      return d.devices.start(realm, issuer, client, req.scope);
    },
    async introspect(req) {
      const { realm, issuer } = await context(req.realm, req.baseUrl);
      return { result: (await d.operations.introspect(realm, issuer, presented(req.client, issuer), req.token, req.ipAddress)) as JsonObject };
    },
    async revoke(req) {
      const { realm, issuer } = await context(req.realm, req.baseUrl);
      await d.operations.revoke(realm, issuer, presented(req.client, issuer), req.token, req.ipAddress);
      return {};
    },
    async pushAuthorizationRequest(req) {
      const { realm, issuer } = await context(req.realm, req.baseUrl);
      return d.pushed.push(realm, issuer, presented(req.client, issuer), req.params, req.ipAddress, req.dpopProof);
    },
    async userInfo(req) {
      const { realm, issuer } = await context(req.realm, req.baseUrl);
      const presented = { scheme: req.scheme || "Bearer", proof: req.dpopProof, method: req.httpMethod || "GET" };
      return { claims: (await d.operations.userinfo(realm, issuer, req.accessToken, presented)) as JsonObject };
    },
    async logout(req) {
      const { realm, issuer } = await context(req.realm, req.baseUrl);
      await d.operations.logout(realm, presented(req.client, issuer), req.refreshToken, req.ipAddress);
      return {};
    },
  };
}

function presented(c: ClientCredentials | undefined, issuer: string): PresentedClient {
  return {
    clientId: c?.clientId ?? "", clientSecret: c?.clientSecret ?? "",
    clientAssertionType: c?.clientAssertionType ?? "", clientAssertion: c?.clientAssertion ?? "", issuer,
  };
}
