import type { JWTPayload } from "jose";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { AUTHENTICATED } from "./acr.js";
import type { ClientDirectory } from "./client-directory.js";
import type { IssuerBase } from "./issuer-base.js";
import type { RealmSettings } from "./realm-settings.js";
import { accessPayload, idPayload, planAccessToken, splitScope, type TokenMinter, type TokenSubject } from "./token-minter.js";

export interface ExampleTokens {
  accessToken: JWTPayload;
  idToken: JWTPayload;
  userinfo: Record<string, unknown>;
}

/**
 * Keycloak's client scope evaluation: the claims a client's access token, ID token and userinfo
 * would hold for a user who logged in just now and a `scope` parameter, resolved and built by the
 * code the token endpoint runs (TokenMinter), neither signed nor stored. No session: no `sid`.
 */
export class ScopeEvaluation {
  constructor(
    private readonly realms: RealmSettings, private readonly clients: ClientDirectory, private readonly minter: TokenMinter,
    private readonly issuers: IssuerBase, private readonly clock: Clock,
  ) {}

  async generate(realmName: string, clientId: string, userId: string, scope: string, baseUrl: string): Promise<ExampleTokens> {
    const realm = await this.realms.find(realmName);
    if (!realm) throw IamError.notFound(`realm "${realmName}"`, "realm_not_found");
    if (!userId) throw IamError.invalid("userId", "userId is required");
    const client = await this.clients.get(realm.name, clientId);
    if (!client) throw IamError.notFound(`client "${clientId}"`, "client_not_found");
    const issuer = this.issuers.fromRequest(baseUrl, realm.name);
    const requested = splitScope(scope) ?? [];
    const now = this.clock.now();
    const session = { sid: "", authTime: now };
    let grant;
    try {
      grant = await this.minter.grant(realm, client, userId, session, requested.includes("openid") ? requested : ["openid", ...requested]);
    } catch (e) {
      // The token endpoint's answers, as the Admin API words them.
      if (e instanceof IamError && e.oauthError === "invalid_scope") throw IamError.invalid("scope", e.message);
      if (e instanceof IamError && e.oauthError === "invalid_grant") {
        throw e.message === "user is disabled" ? IamError.invalid("userId", "the user is disabled") : IamError.notFound(`user "${userId}"`, "user_not_found");
      }
      throw e;
    }
    const subject: TokenSubject = { userId, sid: "", familyId: "", authTime: now, amr: ["pwd"], acr: AUTHENTICATED };
    const plan = planAccessToken(realm, now);
    const iat = Math.floor(now / 1000);
    return {
      accessToken: accessPayload(issuer, client, subject, grant, plan, iat + realm.accessTokenLifespan),
      idToken: idPayload(issuer, client, subject, grant, iat, iat + realm.accessTokenLifespan),
      userinfo: await this.minter.userinfo(realm, userId, client.clientId, grant.names, session),
    };
  }
}
