import { noFederationTransport } from "../../kit/src/rpc/no-federation-transport.js";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { createClient, createRouterTransport, ConnectError, type Client } from "@connectrpc/connect";
import { createLocalJWKSet, type JSONWebKeySet } from "jose";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { ErrorDetailSchema } from "../../../gen/iam/kit/v1/kit_pb.js";
import { RealmService } from "../../../gen/iam/directory/v1/realm_pb.js";
import { ClientService } from "../../../gen/iam/directory/v1/client_pb.js";
import { ClientScopeService } from "../../../gen/iam/directory/v1/client_scope_pb.js";
import { UserService } from "../../../gen/iam/directory/v1/user_pb.js";
import { OAuthService, type TokenRequestSchema, type TokenResponse } from "../../../gen/iam/token/v1/oauth_pb.js";
import { SessionAdminService } from "../../../gen/iam/token/v1/sessions_pb.js";
import { openStore } from "../../kit/src/store/open-store.js";
import { MemoryBus } from "../../kit/src/bus/memory-bus.js";
import { createLogger } from "../../kit/src/logger.js";
import { createMetrics } from "../../kit/src/metrics.js";
import { SecretBox, generateMasterKey } from "../../kit/src/crypto/secret-box.js";
import { LazyTransport } from "../../kit/src/rpc/lazy-transport.js";
import { serverInterceptor } from "../../kit/src/rpc/server-interceptor.js";
import { SERVICE_NAMES, type ServiceDeps, type ServiceModule, type ServiceName } from "../../kit/src/module.js";
import type { TestClock } from "../../kit/src/store/store-contract-kit.js";
import type { Store } from "../../kit/src/store/port.js";
import type { Bus, Subscription } from "../../kit/src/bus/port.js";
import { sha256Hex, randomToken } from "../../kit/src/crypto/random.js";
import { buildDirectory } from "../../directory/src/module.js";
import { loadDirectoryConfig } from "../../directory/src/config.js";
import { SigningKeyRepository } from "./store/signing-key-repository.js";
import { KeyRing } from "./domain/key-ring.js";
import { buildOAuth } from "./oauth-module.js";
import { watchUserRevocations } from "./events/user-revocation-watch.js";
import { watchTokenCaches } from "./events/cache-watchers.js";
import { DiscoveryScopes } from "./domain/discovery-scopes.js";
import { CODE_REMEMBERED_MS, CODE_USABLE_MS } from "./domain/authorization-code.js";
import type { Acr } from "./domain/acr.js";
import type { PluginRegistry } from "../../kit/src/plugins/plugin-registry.js";

export type TokenInit = Omit<MessageInitShape<typeof TokenRequestSchema>, "realm" | "baseUrl">;

export const FLOWS_REALM = "flows";
export const FLOWS_REDIRECT_URI = "https://app.example/cb";
export const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const BASE_URL = "http://localhost:8080";

/**
 * Test kit for the token service's OAuth half (not a fake): the directory and the OAuth module
 * in-process over real Connect routing, sqlite :memory:, the in-memory bus and the caller's clock,
 * the token module's cache watchers; a realm with a confidential client "web" (back-channel logout
 * to a local receiver), "code-only" (no refresh_token grant), PUBLIC "spa", device client "tv" and
 * device client "kiosk" (no refresh_token grant), and the user alice. Codes and SSO sessions are
 * written through the shared repositories, as the browser branch writes them.
 */
export class OAuthFlowsWorld {
  /** The logout tokens the back-channel receiver got, in order. */
  readonly received: string[] = [];
  /** The receiver's answer status (a failing client: 503). */
  backchannelStatus = 200;
  realmId = "";
  userId = "";
  webSecret = "";
  codeOnlySecret = "";
  private watches: Subscription[] = [];

  private constructor(
    readonly clock: TestClock,
    readonly keys: KeyRing,
    readonly oauthModule: Awaited<ReturnType<typeof buildOAuth>>,
    readonly oauth: Client<typeof OAuthService>,
    readonly sessionsAdmin: Client<typeof SessionAdminService>,
    readonly users: Client<typeof UserService>,
    readonly clients: Client<typeof ClientService>,
    readonly clientScopes: Client<typeof ClientScopeService>,
    readonly realms: Client<typeof RealmService>,
    private readonly directory: ServiceModule,
    readonly bus: Bus,
    private readonly stores: Store[],
    private readonly receiver: Server,
  ) {}

  /**
   * `ssoSessionMaxLifespan`: the realm's (default Keycloak's 10 hours).
   * `adminEventsEnabled`: the realm's (spec 2.1: set at creation only).
   * `plugins`: the directory's (where protocol mappers run); none by default.
   */
  static async build(
    clock: TestClock, options: { ssoSessionMaxLifespan?: number; adminEventsEnabled?: boolean; plugins?: PluginRegistry } = {},
  ): Promise<OAuthFlowsWorld> {
    const logger = createLogger("test", "silent");
    clock.t = Date.now();
    let world: OAuthFlowsWorld | undefined;
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        world?.received.push(new URLSearchParams(body).get("logout_token") ?? "");
        res.statusCode = world?.backchannelStatus ?? 200;
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
    const port = (receiver.address() as { port: number }).port;

    // On the caller's clock, as the stores: a bus event's time is when a revocation by issue time
    // takes effect, compared with the issue times of the tokens the test clock stamps.
    const bus = new MemoryBus({ path: ":memory:", logger, clock, pruneIntervalMs: 0 });
    const transports = Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;
    const secrets = new SecretBox(generateMasterKey());
    const stores: Store[] = [];
    const deps = async (): Promise<ServiceDeps> => {
      const store = await openStore({ kind: "sqlite", path: ":memory:", clock, sweepIntervalMs: 0 });
      stores.push(store);
      return { store, bus, logger, metrics: createMetrics(), transports, secrets, clock };
    };
    const directory = await buildDirectory({ ...await deps(), ...(options.plugins ? { plugins: options.plugins } : {}) }, loadDirectoryConfig({}));
    const tokenDeps = await deps();
    const keys = new KeyRing(await SigningKeyRepository.open(tokenDeps.store), secrets, clock);
    const oauthModule = await buildOAuth(tokenDeps, keys, {
      publicUrl: BASE_URL, backchannel: { backoffMs: 20, attempts: 3 },
    });
    const bind = (m: { routes: ServiceModule["routes"] }, name: ServiceName) => {
      const t = createRouterTransport((r) => m.routes(r), { router: { interceptors: [serverInterceptor(name, logger)] } });
      transports[name].bind(t);
      return t;
    };
    bind(directory, "directory");
    transports.federation.bind(noFederationTransport());
    const tokenTransport = bind(oauthModule, "token");
    await directory.start();
    await oauthModule.start();
    const w = new OAuthFlowsWorld(
      clock, keys, oauthModule, createClient(OAuthService, tokenTransport), createClient(SessionAdminService, tokenTransport),
      createClient(UserService, transports.directory), createClient(ClientService, transports.directory),
      createClient(ClientScopeService, transports.directory), createClient(RealmService, transports.directory), directory, bus, stores, receiver,
    );
    world = w;
    // The caches follow the directory's events as in the token module (module.ts).
    const { realms: realmSettings, clients: clientDirectory, serviceAccountGrants } = oauthModule.parts;
    const discoveryScopes = new DiscoveryScopes(transports.directory, clock);
    w.watches = await watchTokenCaches(bus, { realms: realmSettings, clients: clientDirectory, serviceAccountGrants, keys, discoveryScopes }, logger);
    w.watches.push(...await watchUserRevocations(bus, oauthModule.parts.recentRevocations));

    const realms = w.realms;
    const clients = w.clients;
    w.realmId = (await realms.createRealm({ realm: { name: FLOWS_REALM, refreshTokenLifespan: 1800, offlineTokenLifespan: 86_400, adminEventsEnabled: options.adminEventsEnabled ?? false,
      ...(options.ssoSessionMaxLifespan !== undefined ? { ssoSessionMaxLifespan: options.ssoSessionMaxLifespan } : {}) } })).realm!.id;
    w.webSecret = (await clients.createClient({ realm: FLOWS_REALM, client: {
      clientId: "web", grantTypes: ["authorization_code", "refresh_token"], grantTypesPresent: true, redirectUris: [FLOWS_REDIRECT_URI],
      backchannelLogoutUri: `http://127.0.0.1:${port}/bcl`, backchannelLogoutSessionRequired: true,
    } })).client!.secret!;
    // No refresh_token grant: its tokens have no refresh family (and its access tokens no `fid`).
    w.codeOnlySecret = (await clients.createClient({ realm: FLOWS_REALM, client: {
      clientId: "code-only", grantTypes: ["authorization_code"], grantTypesPresent: true, redirectUris: [FLOWS_REDIRECT_URI],
    } })).client!.secret!;
    await clients.createClient({ realm: FLOWS_REALM, client: { clientId: "spa", clientType: "PUBLIC", grantTypes: ["authorization_code", "refresh_token"], grantTypesPresent: true, redirectUris: [FLOWS_REDIRECT_URI] } });
    await clients.createClient({ realm: FLOWS_REALM, client: { clientId: "tv", clientType: "PUBLIC", grantTypes: [DEVICE_GRANT, "refresh_token"], grantTypesPresent: true } });
    await clients.createClient({ realm: FLOWS_REALM, client: { clientId: "kiosk", clientType: "PUBLIC", grantTypes: [DEVICE_GRANT], grantTypesPresent: true } });
    w.userId = (await w.users.createUser({ realm: FLOWS_REALM, user: { username: "alice", email: "alice@example.com", firstName: "Alice", password: "correct-horse-9" } })).user!.id;
    return w;
  }

  async close(): Promise<void> {
    await Promise.all(this.watches.map((s) => s.stop()));
    await this.oauthModule.stop();
    await this.directory.stop();
    await this.bus.close();
    for (const s of this.stores) await s.close();
    await new Promise((r) => this.receiver.close(r));
  }

  get parts() {
    return this.oauthModule.parts;
  }

  webClient() {
    return { clientId: "web", clientSecret: this.webSecret };
  }

  token(req: TokenInit): Promise<TokenResponse> {
    return this.oauth.token({ realm: FLOWS_REALM, baseUrl: BASE_URL, ...req } as MessageInitShape<typeof TokenRequestSchema>);
  }

  /** The authorization_code grant for "web" (or `over`). */
  exchange(code: string, over: TokenInit = {}): Promise<TokenResponse> {
    return this.token({ client: this.webClient(), grantType: "authorization_code", code, redirectUri: FLOWS_REDIRECT_URI, ...over });
  }

  async jwks() {
    return createLocalJWKSet({ keys: await this.keys.publishedKeys({ id: this.realmId, name: FLOWS_REALM, enabled: true, tokenLifespanSeconds: 1800 }) } as JSONWebKeySet);
  }

  async introspect(t: string): Promise<Record<string, unknown>> {
    return (await this.oauth.introspect({ realm: FLOWS_REALM, baseUrl: BASE_URL, client: this.webClient(), token: t })).result as Record<string, unknown>;
  }

  /** A live SSO session of alice, as a browser login stores it. */
  async newSession(): Promise<string> {
    const id = randomUUID();
    const now = this.clock.now();
    await this.parts.ssoRepo.insert({
      _id: id, realmId: this.realmId, realmName: FLOWS_REALM, userId: this.userId, username: "alice", cookieHash: sha256Hex(randomToken()), authTime: now - 1000,
      amr: ["pwd"], clientIds: ["web"], ipAddress: "127.0.0.1", createdAt: now, lastSeenAt: now, expiresAt: now + 1_800_000,
    });
    return id;
  }

  /** An authorization code as the browser branch stores it, on a new session unless given one. */
  async newCode(over: { clientId?: string; scope?: string; challenge?: string; session?: string; acr?: Acr } = {}): Promise<{ code: string; session: string }> {
    const code = randomToken();
    const session = over.session ?? (await this.newSession());
    const now = this.clock.now();
    await this.parts.codes.insert({
      _id: sha256Hex(code), realmId: this.realmId, realmName: FLOWS_REALM, clientId: over.clientId ?? "web", redirectUri: FLOWS_REDIRECT_URI,
      userId: this.userId, ssoSessionId: session,
      scope: over.scope ?? "openid profile", nonce: "n-0S6", codeChallenge: over.challenge ?? "", codeChallengeMethod: over.challenge ? "S256" : "",
      authTime: now - 1000, amr: ["pwd"], ...(over.acr ? { acr: over.acr } : {}), createdAt: now, usableUntil: now + CODE_USABLE_MS, expiresAt: now + CODE_REMEMBERED_MS,
    });
    return { code, session };
  }
}

/**
 * The world's calls as plain functions, for a suite that builds its world in beforeAll: `world()`
 * is read per call, once the world exists.
 */
export function worldCalls(world: () => OAuthFlowsWorld) {
  return {
    parts: () => world().parts,
    webClient: () => world().webClient(),
    token: (req: TokenInit) => world().token(req),
    exchange: (code: string, over?: TokenInit) => world().exchange(code, over),
    jwks: () => world().jwks(),
    introspect: (t: string) => world().introspect(t),
    newSession: () => world().newSession(),
    newCode: (over?: Parameters<OAuthFlowsWorld["newCode"]>[0]) => world().newCode(over),
  };
}

/** The OAuth error code (RFC 6749 section 5.2) a ConnectError carries in its details. */
export function oauthErrorOf(e: unknown): string | undefined {
  return e instanceof ConnectError ? e.findDetails(ErrorDetailSchema)[0]?.oauthError : String(e);
}

/** Expects `p` to fail with the OAuth error `error`. */
export async function expectOAuthError(p: Promise<unknown>, error: string): Promise<void> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  expect(oauthErrorOf(caught)).toBe(error);
}
