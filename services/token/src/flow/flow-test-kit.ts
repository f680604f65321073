import { ClientAuth } from "../domain/client-auth.js";
import { OAuthEvents } from "../domain/oauth-events.js";
import { PushedAuthorizations } from "../domain/pushed-authorization.js";
import { PushedRequestRepository } from "../store/pushed-request-repository.js";
import { noFederationTransport } from "../../../kit/src/rpc/no-federation-transport.js";
import { createClient, createRouterTransport, type Client } from "@connectrpc/connect";
import { AuthenticationService } from "../../../../gen/iam/directory/v1/authentication_pb.js";
import { ClientService } from "../../../../gen/iam/directory/v1/client_pb.js";
import { ClientScopeService } from "../../../../gen/iam/directory/v1/client_scope_pb.js";
import { RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { UserService } from "../../../../gen/iam/directory/v1/user_pb.js";
import { openStore } from "../../../kit/src/store/open-store.js";
import { openBus } from "../../../kit/src/bus/open-bus.js";
import { createLogger } from "../../../kit/src/logger.js";
import { createMetrics } from "../../../kit/src/metrics.js";
import { SecretBox, generateMasterKey } from "../../../kit/src/crypto/secret-box.js";
import { LazyTransport } from "../../../kit/src/rpc/lazy-transport.js";
import { serverInterceptor } from "../../../kit/src/rpc/server-interceptor.js";
import { SERVICE_NAMES, type ServiceModule, type ServiceName } from "../../../kit/src/module.js";
import type { Bus } from "../../../kit/src/bus/port.js";
import type { Clock, Store } from "../../../kit/src/store/port.js";
import { buildDirectory } from "../../../directory/src/module.js";
import { loadDirectoryConfig } from "../../../directory/src/config.js";
import { RealmSettings } from "../domain/realm-settings.js";
import { ClientDirectory } from "../domain/client-directory.js";
import { KeyRing } from "../domain/key-ring.js";
import { Outbox } from "../../../kit/src/bus/outbox.js";
import { SsoSessions } from "../domain/sso-sessions.js";
import { BackchannelLogout } from "../domain/backchannel-logout.js";
import { IssuerBase } from "../domain/issuer-base.js";
import { SessionTerminator } from "../domain/session-terminator.js";
import { SigningKeyRepository } from "../store/signing-key-repository.js";
import { SsoSessionRepository } from "../store/sso-session-repository.js";
import { AuthorizationCodeRepository } from "../store/authorization-code-repository.js";
import { DeviceCodeRepository } from "../store/device-code-repository.js";
import { RefreshFamilyRepository } from "../store/refresh-family-repository.js";
import { RevokedTokenRepository } from "../store/revoked-token-repository.js";
import { BackchannelDeliveryRepository } from "../store/backchannel-delivery-repository.js";
import { BrowserFlow } from "./browser-flow.js";
import type { FlowReply } from "./flow-reply.js";
import type { StepContext } from "./flow-kit.js";

/**
 * Test kit for the token service's browser flows (not a fake): the real directory module built
 * in-process behind real Connect routing, sqlite :memory: stores, the in-memory bus and the
 * caller's clock, plus the BrowserFlow wired to it. Tests seed realms, clients and users through
 * the directory clients, exactly as an admin would.
 */
export interface FlowWorld {
  bus: Bus;
  directory: ServiceModule;
  flow: BrowserFlow;
  keys: KeyRing;
  sessionsRepo: SsoSessionRepository;
  codes: AuthorizationCodeRepository;
  devices: DeviceCodeRepository;
  families: RefreshFamilyRepository;
  backchannel: BackchannelLogout;
  realms: Client<typeof RealmService>;
  clients: Client<typeof ClientService>;
  scopes: Client<typeof ClientScopeService>;
  users: Client<typeof UserService>;
  authn: Client<typeof AuthenticationService>;
  close(): Promise<void>;
}

export const FLOW_BASE = "https://id.example.com";

export async function buildFlowWorld(clock: Clock): Promise<FlowWorld> {
  const logger = createLogger("test", "silent");
  const stores: Store[] = [];
  const bus = await openBus({ kind: "memory", path: ":memory:", logger });
  const secrets = new SecretBox(generateMasterKey());
  const transports = Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;
  const open = async () => {
    const store = await openStore({ kind: "sqlite", path: ":memory:", clock, sweepIntervalMs: 0 });
    stores.push(store);
    return store;
  };
  // Cheap argon2 parameters: the tests hash many passwords, and the cost is not what they check.
  const directory = await buildDirectory({ store: await open(), bus, logger, metrics: createMetrics(), transports, secrets, clock },
    loadDirectoryConfig({ TESSERA_ARGON2_MEMORY_KIB: "1024", TESSERA_ARGON2_ITERATIONS: "1" }));
  transports.directory.bind(createRouterTransport((r) => directory.routes(r), { router: { interceptors: [serverInterceptor("directory", logger)] } }));
  transports.federation.bind(noFederationTransport());
  await directory.start();
  const dir = transports.directory;
  const keys = new KeyRing(await SigningKeyRepository.open(await open()), secrets, clock);
  const store = await open();
  const sessionsRepo = await SsoSessionRepository.open(store);
  const codes = await AuthorizationCodeRepository.open(store);
  const devices = await DeviceCodeRepository.open(store);
  const families = await RefreshFamilyRepository.open(store);
  const clientDirectory = new ClientDirectory(dir, clock);
  const outbox = await Outbox.open(store, bus, clock, logger, { relayIntervalMs: 0 });
  const sessions = new SsoSessions(sessionsRepo, outbox, clock);
  const backchannel = new BackchannelLogout(keys, clientDirectory, new IssuerBase(FLOW_BASE), await BackchannelDeliveryRepository.open(store), clock, logger);
  const terminator = new SessionTerminator(families, sessions, backchannel, await RevokedTokenRepository.open(store), outbox);
  const flow = await BrowserFlow.build({
    store, bus, clock, keys, directory: dir, realms: new RealmSettings(dir, clock), clients: clientDirectory,
    sessions, codes, devices, families, terminator, outbox, pushed: new PushedAuthorizations(await PushedRequestRepository.open(store), new ClientAuth(clientDirectory), new OAuthEvents(outbox, clock), clock),
  });
  return {
    bus, directory, flow, keys, sessionsRepo, codes, devices, families, backchannel,
    realms: createClient(RealmService, dir),
    clients: createClient(ClientService, dir),
    scopes: createClient(ClientScopeService, dir),
    users: createClient(UserService, dir),
    authn: createClient(AuthenticationService, dir),
    close: async () => {
      await backchannel.stop();
      await directory.stop();
      await bus.close();
      for (const s of stores) await s.close();
    },
  };
}

/** A step's context in realm "acme" from browser-1; `extra` overrides. */
export const ctx = (extra: Partial<StepContext> = {}): StepContext => ({
  realm: "acme", transactionId: "", csrfToken: "", browserId: "browser-1", ssoCookie: "", ipAddress: "10.0.0.1", baseUrl: FLOW_BASE, ...extra,
});

export const page = (r: FlowReply) => {
  if (r.outcome.kind !== "page") throw new Error(`expected a page, got ${JSON.stringify(r.outcome)}`);
  return r.outcome.page;
};

/** The context that submits the form on page `r` (its transaction and CSRF token). */
export const next = (r: FlowReply, cookie = ""): StepContext => {
  const p = page(r);
  return ctx({ transactionId: p.transactionId ?? "", csrfToken: p.csrfToken ?? "", ssoCookie: cookie });
};

export const redirect = (r: FlowReply) => {
  if (r.outcome.kind !== "redirect") throw new Error(`expected a redirect, got ${JSON.stringify(r.outcome)}`);
  return new URL(r.outcome.uri);
};

export const samlComplete = (r: FlowReply) => {
  if (r.outcome.kind !== "saml_complete") throw new Error(`expected saml_complete, got ${JSON.stringify(r.outcome)}`);
  return r.outcome;
};
