import { PluginStepRunner } from "../domain/plugin-step-runner.js";
import type { PluginRegistry } from "../../../kit/src/plugins/plugin-registry.js";
import type { PushedAuthorizations } from "../domain/pushed-authorization.js";
import { AuthenticationFlows } from "../domain/authentication-flows.js";
import { FailureWindowRepository } from "../store/failure-window-repository.js";
import { createClient, type ConnectRouter, type Transport } from "@connectrpc/connect";
import type { EventSink } from "../../../kit/src/bus/outbox.js";
import { AuthenticationService } from "../../../../gen/iam/directory/v1/authentication_pb.js";
import { AuthorizationFlowService } from "../../../../gen/iam/token/v1/authorization_pb.js";
import { PasskeyService } from "../../../../gen/iam/directory/v1/passkey_pb.js";
import { UserService } from "../../../../gen/iam/directory/v1/user_pb.js";
import { RegistrationService } from "../../../../gen/iam/directory/v1/registration_pb.js";
import { RegistrationFlowService } from "../../../../gen/iam/token/v1/registration_flow_pb.js";
import type { Bus } from "../../../kit/src/bus/port.js";
import type { Clock, Store } from "../../../kit/src/store/port.js";
import type { ClientDirectory } from "../domain/client-directory.js";
import type { RealmSettings } from "../domain/realm-settings.js";
import type { KeyRing } from "../domain/key-ring.js";
import type { SessionTerminator } from "../domain/session-terminator.js";
import type { SsoSessionRecord } from "../domain/sso-session.js";
import type { SsoSessions } from "../domain/sso-sessions.js";
import type { ServiceDeps } from "../../../kit/src/module.js";
import type { AuthorizationCodeRepository } from "../store/authorization-code-repository.js";
import type { DeviceCodeRepository } from "../store/device-code-repository.js";
import type { RefreshFamilyRepository } from "../store/refresh-family-repository.js";
import { AuthorizationFlow } from "./authorization-flow.js";
import { BrowserLogoutFlow } from "./browser-logout-flow.js";
import { ConsentRepository } from "./consent-repository.js";
import { DeviceVerification } from "./device-verification.js";
import type { FailureLimits } from "../domain/failure-limiter.js";
import { FlowKit } from "./flow-kit.js";
import { FlowRealms } from "./flow-realms.js";
import { flowRpc } from "./flow-rpc.js";
import { LoginSteps } from "./login-steps.js";
import { PasskeySteps } from "./passkey-steps.js";
import { LoginTransactionRepository } from "./login-transaction-repository.js";
import { SamlLogin } from "./saml-login.js";
import { FlowEvents } from "./flow-events.js";
import { RegistrationFlow } from "./registration-flow.js";
import { registrationFlowRpc } from "./registration-rpc.js";
import { CredentialResetService } from "../../../../gen/iam/directory/v1/credential_reset_pb.js";
import { ResetCredentialsFlowService } from "../../../../gen/iam/token/v1/reset_credentials_flow_pb.js";
import { FailureLimiter } from "../domain/failure-limiter.js";
import { ResetCredentialsFlow } from "./reset-credentials-flow.js";
import { resetCredentialsFlowRpc } from "./reset-credentials-rpc.js";
import { ActionLinkFlow } from "./action-link-flow.js";
import { Impersonation } from "./impersonation.js";

/**
 * Bounds on "Forgot password?": forms per realm and IP address (then 429), and mails per account
 * (then none, silently), each per 15 minutes: a few honest retries pass, a flood of mails does not.
 */
export const RESET_REQUESTS_PER_ADDRESS: FailureLimits = { limit: 20, windowMs: 15 * 60_000 };
export const RESET_MAILS_PER_ACCOUNT: FailureLimits = { limit: 3, windowMs: 15 * 60_000 };

export interface BrowserFlowDeps {
  store: Store;
  /** Where login transactions live when not in `store` (embedded mode: memory; see buildBrowserFlow). */
  transactionStore?: Store;
  bus: Bus;
  directory: Transport;
  /** The loaded plugins (their authenticator steps run in browser flows). */
  plugins?: PluginRegistry;
  clock: Clock;
  /** The realm and client caches of the token endpoint, so one invalidation reaches both halves. */
  realms: RealmSettings;
  clients: ClientDirectory;
  keys: KeyRing;
  sessions: SsoSessions;
  codes: AuthorizationCodeRepository;
  devices: DeviceCodeRepository;
  /** PAR's stored requests (RFC 9126), which the OAuth half's push endpoint fills. */
  pushed: PushedAuthorizations;
  /** The OAuth sessions and how they end: RP-initiated logout may name a refresh family by sid. */
  families: RefreshFamilyRepository;
  terminator: SessionTerminator;
  /** Where the flow's login events go (outbox.ts `send`): a login never waits on the bus. */
  outbox: EventSink;
  /** The bound on failed user-code lookups per realm and IP (RFC 8628 section 5.1); USER_CODE_FAILURES unless given. */
  userCodeFailures?: FailureLimits;
}

/** The browser half of the OpenID Provider, composed (module.ts registers `routes`). */
export class BrowserFlow {
  /** Execute-actions links (set by build: they run the login steps). */
  actionLinks!: ActionLinkFlow;
  /** Keycloak's impersonation (set by build). */
  impersonation!: Impersonation;

  private constructor(
    private readonly kit: FlowKit,
    readonly authorization: AuthorizationFlow,
    readonly steps: LoginSteps,
    readonly device: DeviceVerification,
    readonly logout: BrowserLogoutFlow,
    readonly txs: LoginTransactionRepository,
    readonly consents: ConsentRepository,
    readonly registration: RegistrationFlow,
    readonly reset: ResetCredentialsFlow,
    readonly saml: SamlLogin = new SamlLogin(kit),
    readonly passkeys: PasskeySteps = new PasskeySteps(kit, steps),
    private readonly transactionStore?: Store,
  ) {}

  /** Closes the in-memory store of the login transactions, when there is one. */
  async close(): Promise<void> {
    await this.transactionStore?.close();
  }

  static async build(deps: BrowserFlowDeps): Promise<BrowserFlow> {
    const txs = await LoginTransactionRepository.open(deps.transactionStore ?? deps.store);
    const consents = await ConsentRepository.open(deps.store);
    const kit = new FlowKit({
      realms: new FlowRealms(deps.realms), clients: deps.clients, keys: deps.keys, txs, consents,
      sessions: deps.sessions, codes: deps.codes, devices: deps.devices, pushed: deps.pushed,
      auth: createClient(AuthenticationService, deps.directory), clock: deps.clock,
      registration: createClient(RegistrationService, deps.directory), passkeys: createClient(PasskeyService, deps.directory),
      users: createClient(UserService, deps.directory), events: new FlowEvents(deps.outbox, deps.clock),
      flows: new AuthenticationFlows(deps.directory),
      ...(deps.plugins ? { pluginSteps: new PluginStepRunner(deps.directory, deps.plugins) } : {}),
    });
    const authorization = new AuthorizationFlow(kit);
    const steps = new LoginSteps(kit, authorization);
    const flow = new BrowserFlow(kit, authorization, steps, new DeviceVerification(kit, authorization, await FailureWindowRepository.open(deps.store), deps.userCodeFailures),
      new BrowserLogoutFlow(kit, deps.families, deps.terminator), txs, consents, new RegistrationFlow(kit, steps),
      new ResetCredentialsFlow(kit, createClient(CredentialResetService, deps.directory), {
        perAddress: new FailureLimiter(await FailureWindowRepository.open(deps.store, "reset_request_windows"), deps.clock, RESET_REQUESTS_PER_ADDRESS),
        perAccount: new FailureLimiter(await FailureWindowRepository.open(deps.store, "reset_mail_windows"), deps.clock, RESET_MAILS_PER_ACCOUNT),
      }), undefined, undefined, deps.transactionStore);
    flow.impersonation = new Impersonation(kit, deps.outbox);
    flow.actionLinks = new ActionLinkFlow(kit, createClient(CredentialResetService, deps.directory), (realm, tx, ctx) => steps.next(realm, tx, ctx));
    return flow;
  }

  async resolveCookie(realmName: string, cookie: string): Promise<SsoSessionRecord | null> {
    const realm = await this.kit.d.realms.get(realmName);
    return realm ? this.kit.resolveSession(realm, cookie) : null;
  }

  /** Drops a deleted client's consents given up to `upTo` (ConsentRepository.deleteClient). */
  dropClient(realmId: string, clientId: string, upTo: number): Promise<number> {
    return this.consents.deleteClient(realmId, clientId, upTo);
  }

  /** Drops a deleted user's consents. */
  dropUser(realmId: string, userId: string): Promise<number> {
    return this.consents.deleteUser(realmId, userId);
  }

  /** Drops a deleted realm's transactions and consents. */
  async dropRealm(realmId: string): Promise<void> {
    await this.txs.deleteRealm(realmId);
    await this.consents.deleteRealm(realmId);
  }

  routes(router: ConnectRouter): void {
    router.service(AuthorizationFlowService, flowRpc(this));
    router.service(RegistrationFlowService, registrationFlowRpc(this.registration, this.steps.emailVerification));
    router.service(ResetCredentialsFlowService, resetCredentialsFlowRpc(this.reset, this.actionLinks));
  }
}

/**
 * Builds the browser flow from the service deps over the token endpoint's shared parts (realm and
 * client caches, SSO sessions, codes, refresh families and their terminator), so module.ts needs one line.
 */
export async function buildBrowserFlow(deps: ServiceDeps, keys: KeyRing, shared: BrowserFlowShared, userCodeFailures?: FailureLimits): Promise<BrowserFlow> {
  const { store, bus, clock } = deps;
  return BrowserFlow.build({
    store, bus, clock, keys, directory: deps.transports.directory, ...(deps.plugins ? { plugins: deps.plugins } : {}), ...shared,
    ...(userCodeFailures ? { userCodeFailures } : {}), ...(deps.soleProcess ? { transactionStore: await loginTransactionMemory(clock) } : {}),
  });
}

/**
 * A sole process (embedded mode) keeps its login transactions in an in-memory SQLite database:
 * the same collection and atomic step changes, without the WAL and its flush, three of a code
 * flow's nine durable writes. A login transaction is a browser's progress through the login
 * pages, not anything acknowledged to a user or a client (Keycloak keeps its authentication
 * sessions in memory too): a restart mid-login shows the expired-login page and the login starts
 * over, while SSO sessions, codes and refresh tokens stay durable. A cluster keeps them in its
 * store, which every token replica shares.
 */
async function loginTransactionMemory(clock: Clock): Promise<Store> {
  const { SqliteStore } = await import("../../../kit/src/store/sqlite-store.js");
  return new SqliteStore({ path: ":memory:", clock });
}

/** What the browser flow shares with the token endpoint (buildOAuth's parts). */
export type BrowserFlowShared = Pick<BrowserFlowDeps, "realms" | "clients" | "sessions" | "codes" | "devices" | "pushed" | "families" | "terminator" | "outbox">;
