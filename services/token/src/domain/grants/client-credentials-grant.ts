import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { ClientService } from "../../../../../gen/iam/directory/v1/client_pb.js";
import { IamError } from "../../../../kit/src/errors.js";
import { OFFLINE_ACCESS } from "../offline-access.js";
import { splitScope, type TokenMinter } from "../token-minter.js";
import { NO_SESSION } from "../claims-session.js";
import type { Grant, GrantContext, GrantResult } from "./grant-context.js";
import type { ServiceAccountGrant, ServiceAccountGrants } from "./service-account-grants.js";

/**
 * RFC 6749 section 4.4: CONFIDENTIAL clients only; the token is the service-account user's
 * (spec 1.11). No refresh token (section 4.4.3) and no store write: the access token stands alone.
 * The service-account user and the resolved claims come from ServiceAccountGrants when fresh
 * (docs/performance.md: no directory RPC on the warm path; staleness bound documented there).
 */
export class ClientCredentialsGrant implements Grant {
  private readonly clients: Client<typeof ClientService>;

  constructor(transport: Transport, private readonly minter: TokenMinter, private readonly cache: ServiceAccountGrants) {
    this.clients = createClient(ClientService, transport);
  }

  async issue(ctx: GrantContext): Promise<GrantResult> {
    if (ctx.client.clientType !== "CONFIDENTIAL") {
      throw IamError.oauth("unauthorized_client", "public clients cannot use client_credentials");
    }
    const requested = splitScope(ctx.params.scope);
    if (requested?.includes(OFFLINE_ACCESS)) throw IamError.oauth("invalid_scope", "offline_access needs a user");
    const { userId, grant } = this.cache.get(ctx.realm, ctx.client, requested) ?? await this.resolve(ctx, requested);
    const minted = await this.minter.mint(ctx.realm, ctx.issuer, ctx.client, { userId, sid: "", familyId: "", ...(ctx.dpopJkt ? { jkt: ctx.dpopJkt } : {}) }, grant);
    return {
      accessToken: minted.accessToken, expiresIn: minted.expiresIn, refreshToken: "", refreshExpiresIn: 0,
      idToken: "", scope: minted.scope, sessionState: "", userId, details: { scope: minted.scope },
    };
  }

  private async resolve(ctx: GrantContext, requested: string[] | undefined): Promise<ServiceAccountGrant> {
    const generation = this.cache.generation();
    let userId: string;
    try {
      const res = await this.clients.getServiceAccountUser({ realm: ctx.realm.name, clientId: ctx.client.clientId });
      if (!res.user || !res.user.enabled) throw IamError.oauth("unauthorized_client", "the client has no enabled service account");
      userId = res.user.id;
    } catch (e) {
      if (e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.FailedPrecondition)) {
        throw IamError.oauth("unauthorized_client", "the client has no service account");
      }
      throw e;
    }
    // Kept in the cache: resolved from the directory's store, not a replica's caches (fromStore).
    // Without a session (the token has no `sid`), so plugin claims kept with it fit every request.
    const value = { userId, grant: await this.minter.grant(ctx.realm, ctx.client, userId, NO_SESSION, requested, undefined, true) };
    this.cache.set(ctx.realm, ctx.client, requested, value, generation);
    return value;
  }
}
