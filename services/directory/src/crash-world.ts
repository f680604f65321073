import { createClient, createRouterTransport, type Client } from "@connectrpc/connect";
import { randomBytes } from "node:crypto";
import mongoose from "mongoose";
import { RealmService } from "../../../gen/iam/directory/v1/realm_pb.js";
import { ClientService } from "../../../gen/iam/directory/v1/client_pb.js";
import { RoleService } from "../../../gen/iam/directory/v1/role_pb.js";
import { GroupService } from "../../../gen/iam/directory/v1/group_pb.js";
import { UserSecurityService } from "../../../gen/iam/directory/v1/user_security_pb.js";
import { ClientScopeService } from "../../../gen/iam/directory/v1/client_scope_pb.js";
import { UserService } from "../../../gen/iam/directory/v1/user_pb.js";
import { openStore } from "../../kit/src/store/open-store.js";
import { openBus } from "../../kit/src/bus/open-bus.js";
import { recorder } from "../../kit/src/bus/bus-test-kit.js";
import { createLogger } from "../../kit/src/logger.js";
import { createMetrics } from "../../kit/src/metrics.js";
import { SecretBox, generateMasterKey } from "../../kit/src/crypto/secret-box.js";
import { LazyTransport } from "../../kit/src/rpc/lazy-transport.js";
import { serverInterceptor } from "../../kit/src/rpc/server-interceptor.js";
import { SERVICE_NAMES, type ServiceModule, type ServiceName } from "../../kit/src/module.js";
import type { Clock, Store } from "../../kit/src/store/port.js";
import type { Bus, BusMessage } from "../../kit/src/bus/port.js";
import { buildDirectory } from "./module.js";
import { loadDirectoryConfig } from "./config.js";
import { describeTier } from "../../../test/support/tier.js";

/**
 * The stores the crash tests run on, for `describe.each`: SQLite, and a MongoDB-wire server (a
 * database per test, dropped after the file's tests) when TESSERA_TEST_MONGODB_URI is set, so the
 * relay's checks read the records as each store gives them back. Call at a file's top level: it
 * registers jest hooks. Test use only.
 */
export function crashTestStores(): Array<[string, () => Promise<Store>]> {
  const uri = process.env.TESSERA_TEST_MONGODB_URI;
  const stores: Array<[string, () => Promise<Store>]> = [["sqlite", () => openStore({ kind: "sqlite", path: ":memory:", clock: { now: () => Date.now() } })]];
  if (!uri) {
    describeTier("crash tests on MongoDB (MongoDB tier)", ["TESSERA_TEST_MONGODB_URI"], () => {
      it("runs this file's crash tests on MongoDB as on SQLite", () => undefined);
    });
    return stores;
  }
  const databases: string[] = [];
  stores.push(["mongodb", () => {
    const database = `tessera_test_${randomBytes(6).toString("hex")}`;
    databases.push(database);
    return openStore({ kind: "mongodb", uri, database, clock: { now: () => Date.now() }, sweepIntervalMs: 0 });
  }]);
  afterAll(async () => {
    for (const database of databases) {
      const conn = await mongoose.createConnection(uri, { dbName: database }).asPromise();
      await conn.dropDatabase();
      await conn.close();
    }
  });
  return stores;
}

/**
 * A directory whose writes a crash interrupts, and the process that starts after it (outbox.ts).
 * The crash: a publish that never returns, so the first process stops where it stood. The next
 * process: a second directory module on the same store and bus, whose clock is past the first
 * one's lease, as a restart's would be; its start runs the relay. Realm "acme" records admin
 * events. Every announcement of the directory is recorded in `delivered`. Test use only.
 */
export class CrashWorld {
  private readonly logger = createLogger("test", "silent");
  private readonly secrets = new SecretBox(generateMasterKey());
  private first!: ServiceModule;
  private next: ServiceModule | undefined;
  private firstStopped = false;
  store!: Store;
  bus!: Bus;
  /** The bus's own publish, before crashAt replaced it. */
  realPublish!: Bus["publish"];
  realms!: Client<typeof RealmService>;
  clients!: Client<typeof ClientService>;
  roles!: Client<typeof RoleService>;
  users!: Client<typeof UserService>;
  groups!: Client<typeof GroupService>;
  security!: Client<typeof UserSecurityService>;
  scopes!: Client<typeof ClientScopeService>;
  delivered!: ReturnType<typeof recorder>;

  /** Registers the set-up and tear-down of each test on `openTestStore`. */
  static register(openTestStore: () => Promise<Store>): CrashWorld {
    const w = new CrashWorld();
    beforeEach(() => w.setUp(openTestStore));
    afterEach(() => w.tearDown());
    return w;
  }

  /** Every publish on these subjects hangs from now on: the process dies at the first of them. */
  crashAt(subjects: string[]): void {
    this.bus.publish = async (subject, payload, options) => {
      if (subjects.includes(subject)) return new Promise<BusMessage>(() => undefined);
      return this.realPublish(subject, payload, options);
    };
  }

  /**
   * The next process, 31 s later by its clock: past the lease of what the first one left. As the
   * store's only process (`soleProcess`: embedded mode, its data directory locked), at once.
   */
  async restart(soleProcess = false): Promise<void> {
    // The first process is gone: its consumers and timers with it (its hung request never returns).
    await this.first.stop();
    this.firstStopped = true;
    this.bus.publish = this.realPublish;
    this.next = await this.directory({ now: () => Date.now() + (soleProcess ? 0 : 31_000) }, soleProcess);
    await this.next.start();
  }

  seen(subject: string): BusMessage[] {
    return this.delivered.got.filter((m) => m.subject === subject);
  }

  async newUser(username: string): Promise<string> {
    return (await this.users.createUser({ realm: "acme", user: { username, password: "Correct-Horse-1" } })).user!.id;
  }

  private async directory(clock: Clock, soleProcess = false): Promise<ServiceModule> {
    const transports = Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;
    return buildDirectory({ store: this.store, bus: this.bus, logger: this.logger, metrics: createMetrics(), transports, secrets: this.secrets, clock, soleProcess }, loadDirectoryConfig({}));
  }

  private async setUp(openTestStore: () => Promise<Store>): Promise<void> {
    this.store = await openTestStore();
    this.bus = await openBus({ kind: "memory", path: ":memory:", logger: this.logger });
    this.realPublish = this.bus.publish.bind(this.bus);
    this.first = await this.directory({ now: () => Date.now() });
    await this.first.start();
    const first = this.first;
    const t = createRouterTransport((r) => first.routes(r), { router: { interceptors: [serverInterceptor("directory", this.logger)] } });
    this.realms = createClient(RealmService, t);
    this.clients = createClient(ClientService, t);
    this.roles = createClient(RoleService, t);
    this.users = createClient(UserService, t);
    this.groups = createClient(GroupService, t);
    this.security = createClient(UserSecurityService, t);
    this.scopes = createClient(ClientScopeService, t);
    this.delivered = recorder();
    await this.bus.subscribe({ durable: "test-announcements", subject: "iam.directory.v1.>" }, this.delivered.handler);
    await this.realms.createRealm({ realm: { name: "acme", adminEventsEnabled: true } });
  }

  private async tearDown(): Promise<void> {
    this.bus.publish = this.realPublish;
    await this.next?.stop();
    this.next = undefined;
    if (!this.firstStopped) await this.first.stop();
    this.firstStopped = false;
    await this.bus.close();
    await this.store.close();
  }
}
