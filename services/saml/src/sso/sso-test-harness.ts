import { noFederationTransport } from "../../../kit/src/rpc/no-federation-transport.js";
// Test support (no tests here): the directory and saml modules built in-process over sqlite
// :memory: and the memory bus, wired through real Connect routing, with a clock tests move.
import { generateKeyPairSync } from "node:crypto";
import { ConnectError, createClient, createRouterTransport, type Client, type Transport } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../../../../gen/iam/kit/v1/kit_pb.js";
import { RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { UserService } from "../../../../gen/iam/directory/v1/user_pb.js";
import { GroupService } from "../../../../gen/iam/directory/v1/group_pb.js";
import { RoleService } from "../../../../gen/iam/directory/v1/role_pb.js";
import { ServiceProviderService } from "../../../../gen/iam/saml/v1/service_provider_pb.js";
import { IdpService } from "../../../../gen/iam/saml/v1/idp_pb.js";
import { SamlSsoService } from "../../../../gen/iam/saml/v1/sso_pb.js";
import { openStore } from "../../../kit/src/store/open-store.js";
import { openBus } from "../../../kit/src/bus/open-bus.js";
import { createLogger } from "../../../kit/src/logger.js";
import { createMetrics } from "../../../kit/src/metrics.js";
import { SecretBox, generateMasterKey } from "../../../kit/src/crypto/secret-box.js";
import { LazyTransport } from "../../../kit/src/rpc/lazy-transport.js";
import { serverInterceptor } from "../../../kit/src/rpc/server-interceptor.js";
import { SERVICE_NAMES, type ServiceModule, type ServiceName } from "../../../kit/src/module.js";
import type { Clock, Store } from "../../../kit/src/store/port.js";
import type { Bus } from "../../../kit/src/bus/port.js";
import { buildDirectory } from "../../../directory/src/module.js";
import { loadDirectoryConfig } from "../../../directory/src/config.js";
import { buildSaml } from "../module.js";
import { loadSamlConfig } from "../config.js";
import { selfSignedCertificate } from "../domain/self-signed-cert.js";

export const PUBLIC_URL = "https://idp.example.test";

export class MovableClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
}

export interface Harness {
  store: Store;
  bus: Bus;
  clock: MovableClock;
  realms: Client<typeof RealmService>;
  users: Client<typeof UserService>;
  groups: Client<typeof GroupService>;
  roles: Client<typeof RoleService>;
  sps: Client<typeof ServiceProviderService>;
  idp: Client<typeof IdpService>;
  sso: Client<typeof SamlSsoService>;
  /** The directory module's transport (for another saml module built on the same store). */
  directoryTransport: Transport;
  /** Stops the saml module (its consumers and relay), as a process that died would have; close() then leaves it. */
  stopSaml(): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const clock = new MovableClock();
  const logger = createLogger("test", "silent");
  const store = await openStore({ kind: "sqlite", path: ":memory:", clock });
  const bus = await openBus({ kind: "memory", path: ":memory:", logger });
  const transports = Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;
  const deps = { store, bus, logger, metrics: createMetrics(), transports, secrets: new SecretBox(generateMasterKey()), clock };
  const directory: ServiceModule = await buildDirectory(deps, loadDirectoryConfig({}));
  const saml: ServiceModule = await buildSaml(deps, loadSamlConfig({ TESSERA_PUBLIC_URL: PUBLIC_URL }));
  const dt = createRouterTransport((r) => directory.routes(r), { router: { interceptors: [serverInterceptor("directory", logger)] } });
  const st = createRouterTransport((r) => saml.routes(r), { router: { interceptors: [serverInterceptor("saml", logger)] } });
  transports.directory.bind(dt);
  transports.federation.bind(noFederationTransport());
  transports.saml.bind(st);
  await directory.start();
  await saml.start();
  let samlStopped = false;
  return {
    store, bus, clock,
    realms: createClient(RealmService, dt),
    users: createClient(UserService, dt),
    groups: createClient(GroupService, dt),
    roles: createClient(RoleService, dt),
    sps: createClient(ServiceProviderService, st),
    idp: createClient(IdpService, st),
    sso: createClient(SamlSsoService, st),
    directoryTransport: dt,
    async stopSaml() {
      if (samlStopped) return;
      samlStopped = true;
      await saml.stop();
    },
    async close() {
      if (!samlStopped) await saml.stop();
      await directory.stop();
      await bus.close();
      await store.close();
    },
  };
}

/** An SP's own signing key pair with a self-signed certificate. */
export function spCredentials(name: string): { privateKey: string; certificate: string } {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const now = Date.now();
  const certificate = selfSignedCertificate({ commonName: name, publicKey, privateKey, notBefore: now - 3600_000, notAfter: now + 365 * 24 * 3600_000 });
  return { privateKey: privateKey.export({ type: "pkcs8", format: "pem" }) as string, certificate };
}

/** The value of a hidden form field in an auto-post HTML form. */
export function formField(html: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!m) throw new Error(`no ${name} in form`);
  return m[1]!
    .replace(/&#x([0-9a-fA-F]+);/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#([0-9]+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, "\"").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** Awaits a failing RPC and checks the IamError reason it carries. */
export async function expectReason(p: Promise<unknown>, reason: string): Promise<void> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeDefined();
  expect(ConnectError.from(e).findDetails(ErrorDetailSchema)[0]?.reason).toBe(reason);
}
