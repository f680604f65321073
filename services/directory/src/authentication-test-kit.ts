import { noFederationTransport } from "../../kit/src/rpc/no-federation-transport.js";
import { createClient, createRouterTransport, ConnectError, type Client } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { RealmService, type RealmInputSchema } from "../../../gen/iam/directory/v1/realm_pb.js";
import { UserService } from "../../../gen/iam/directory/v1/user_pb.js";
import { AuthenticationService, AuthOutcome } from "../../../gen/iam/directory/v1/authentication_pb.js";
import { UserSecurityService } from "../../../gen/iam/directory/v1/user_security_pb.js";
import { ErrorDetailSchema } from "../../../gen/iam/kit/v1/kit_pb.js";
import { openStore } from "../../kit/src/store/open-store.js";
import { openBus } from "../../kit/src/bus/open-bus.js";
import { createLogger } from "../../kit/src/logger.js";
import { createMetrics } from "../../kit/src/metrics.js";
import { SecretBox, generateMasterKey } from "../../kit/src/crypto/secret-box.js";
import { LazyTransport } from "../../kit/src/rpc/lazy-transport.js";
import { serverInterceptor } from "../../kit/src/rpc/server-interceptor.js";
import { SERVICE_NAMES, type ServiceModule, type ServiceName } from "../../kit/src/module.js";
import type { Store } from "../../kit/src/store/port.js";
import type { Bus } from "../../kit/src/bus/port.js";
import { buildDirectory } from "./module.js";
import { loadDirectoryConfig } from "./config.js";

/** A clock tests move by hand (store port `Clock`), so lockout and TOTP tests never sleep. */
export class ManualClock {
  t = Date.UTC(2030, 0, 1, 12, 0, 0);
  now(): number {
    return this.t;
  }
  advance(seconds: number): void {
    this.t += seconds * 1000;
  }
}

/**
 * The directory built in-process (sqlite :memory:, in-memory bus, a manual clock), reached
 * through real Connect routing, as clients-module.test.ts does. `wrapStore` lets a test stand
 * between the directory and its store.
 */
export async function startAuthnHarness(options: { wrapStore?: (store: Store) => Store; secrets?: SecretBox } = {}) {
  const clock = new ManualClock();
  const logger = createLogger("test", "silent");
  const opened: Store = await openStore({ kind: "sqlite", path: ":memory:", clock });
  const store = options.wrapStore ? options.wrapStore(opened) : opened;
  const bus: Bus = await openBus({ kind: "memory", path: ":memory:", logger });
  const transports = Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;
  // A federation service with no LDAP provider in any realm: unknown usernames stay unknown.
  transports.federation.bind(noFederationTransport());
  const module: ServiceModule = await buildDirectory(
    { store, bus, logger, metrics: createMetrics(), transports, secrets: options.secrets ?? new SecretBox(generateMasterKey()), clock },
    loadDirectoryConfig({}),
  );
  await module.start();
  const t = createRouterTransport((r) => module.routes(r), { router: { interceptors: [serverInterceptor("directory", logger)] } });
  const realms: Client<typeof RealmService> = createClient(RealmService, t);
  const users: Client<typeof UserService> = createClient(UserService, t);
  const authn: Client<typeof AuthenticationService> = createClient(AuthenticationService, t);
  const security: Client<typeof UserSecurityService> = createClient(UserSecurityService, t);
  let n = 0;

  return {
    clock, store, bus, realms, users, authn, security, transport: t,
    async realm(settings: Omit<MessageInitShape<typeof RealmInputSchema>, "name" | "$typeName"> = {}): Promise<string> {
      const name = `authn-${++n}`;
      await realms.createRealm({ realm: { name, ...settings } });
      return name;
    },
    async user(realm: string, username: string, password = "correct-horse-1", extra: Record<string, unknown> = {}): Promise<string> {
      return (await users.createUser({ realm, user: { username, password, ...extra } })).user!.id;
    },
    login(realm: string, username: string, password: string) {
      return authn.authenticatePassword({ realm, username, password });
    },
    async stop() {
      await module.stop();
      await bus.close();
      await opened.close();
    },
  };
}

export type AuthnHarness = Awaited<ReturnType<typeof startAuthnHarness>>;

export function errorOf(e: unknown): { code: number; reason: string | undefined } {
  const ce = ConnectError.from(e);
  return { code: ce.code, reason: ce.findDetails(ErrorDetailSchema)[0]?.reason };
}

export { AuthOutcome };

/** The Connect code and ErrorDetail reason a call fails with (fails the test when it succeeds). */
export async function failureOf(call: Promise<unknown>): Promise<{ code: number; reason: string | undefined }> {
  try {
    await call;
  } catch (e) {
    return errorOf(e);
  }
  throw new Error("expected the call to fail");
}
