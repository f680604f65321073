import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { fromBinary } from "@bufbuild/protobuf";
import { RealmService, RealmDeletedSchema } from "../../../gen/iam/directory/v1/realm_pb.js";
import { RealmImportService } from "../../../gen/iam/directory/v1/realm_import_pb.js";
import { RealmTransferService } from "../../../gen/iam/kit/v1/realm_transfer_pb.js";
import { openStore } from "../../kit/src/store/open-store.js";
import { openBus } from "../../kit/src/bus/open-bus.js";
import { createLogger } from "../../kit/src/logger.js";
import { createMetrics } from "../../kit/src/metrics.js";
import { SecretBox, generateMasterKey } from "../../kit/src/crypto/secret-box.js";
import { LazyTransport } from "../../kit/src/rpc/lazy-transport.js";
import { serverInterceptor } from "../../kit/src/rpc/server-interceptor.js";
import { waitUntil } from "../../kit/src/bus/bus-test-kit.js";
import { SERVICE_NAMES, type ServiceModule, type ServiceName } from "../../kit/src/module.js";
import type { Store } from "../../kit/src/store/port.js";
import type { Bus, BusMessage } from "../../kit/src/bus/port.js";
import { buildDirectory } from "./module.js";
import { loadDirectoryConfig } from "./config.js";
import { IMPORT_LEASE_MS } from "./domain/realm-import.js";

const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const SETTINGS = {
  name: "imported", displayName: "", enabled: true, accessTokenLifespan: 300, refreshTokenLifespan: 1800, offlineTokenLifespan: 2_592_000,
  ssoSessionMaxLifespan: 36_000, smtpHost: "", smtpPort: 587, smtpUser: "", smtpFrom: "", smtpSecure: false, passwordMinLength: 8,
  passwordRequireUppercase: false, passwordRequireLowercase: false, passwordRequireDigits: false, passwordRequireSpecialChars: false,
  passwordHistoryCount: 0, passwordMaxAgeDays: 0, bruteForceEnabled: false, maxLoginFailures: 5, lockoutDuration: 900, failureResetTime: 43_200,
  permanentLockoutAfter: 0, registrationAllowed: false, requireEmailVerification: false, mfaRequired: false, eventsEnabled: false,
  eventsExpiration: 604_800, adminEventsEnabled: false, themeName: "tessera", theme: {}, loginTheme: "tessera", accountTheme: "tessera",
  emailTheme: "tessera", rateLimitPerIp: 0, rateLimitPerClient: 0,
};

/**
 * The import journal (realm-import.ts): a staging realm is invisible until finished, an abort or a
 * stopped importer rolls it back with realm.deleted, and a second import of the name meanwhile is
 * refused.
 */
describe("realm import journal", () => {
  let store: Store;
  let bus: Bus;
  let modules: ServiceModule[] = [];
  const secrets = new SecretBox(generateMasterKey());
  const deleted: string[] = [];
  let now = Date.now();

  async function directory(soleProcess = false) {
    const transports = Object.fromEntries(SERVICE_NAMES.map((n) => [n, new LazyTransport(n)])) as Record<ServiceName, LazyTransport>;
    const logger = createLogger("test", "silent");
    const m = await buildDirectory({ store, bus, logger, metrics: createMetrics(), transports, secrets, clock: { now: () => now }, soleProcess }, loadDirectoryConfig({}));
    await m.start();
    modules.push(m);
    const t = createRouterTransport((r) => m.routes(r), { router: { interceptors: [serverInterceptor("directory", logger)] } });
    return { realms: createClient(RealmService, t), journal: createClient(RealmImportService, t), part: createClient(RealmTransferService, t) };
  }

  beforeEach(async () => {
    now = Date.now();
    store = await openStore({ kind: "sqlite", path: ":memory:", clock: { now: () => now } });
    bus = await openBus({ kind: "memory", path: ":memory:", logger: createLogger("test", "silent") });
    await bus.subscribe({ durable: "test-deleted", subject: "iam.directory.v1.realm.deleted" }, async (m: BusMessage) => {
      deleted.push(fromBinary(RealmDeletedSchema, m.payload).realmId);
    });
  });
  async function stopAll() {
    for (const m of modules) await m.stop();
    modules = [];
  }
  afterEach(async () => {
    await stopAll();
    await bus.close();
    await store.close();
  });

  it("keeps a staging realm invisible, refuses a second import of its name, and rolls it back on abort", async () => {
    const d = await directory();
    const { realmId } = await d.journal.beginRealmImport({ realmJson: enc(SETTINGS) });
    await d.part.importRealmPart({ realm: "imported", realmId, json: enc({ roles: [{ id: "r-1", name: "reader" }], clientScopes: [], clients: [], groups: [] }) });
    await expect(d.realms.getRealm({ name: "imported" })).rejects.toMatchObject({ code: Code.NotFound });
    expect((await d.realms.listRealms({})).realms.map((r) => r.name)).not.toContain("imported");
    await expect(d.journal.beginRealmImport({ realmJson: enc(SETTINGS), overwrite: true })).rejects.toMatchObject({ code: Code.AlreadyExists, rawMessage: 'an import of realm "imported" is in progress' });

    await d.journal.abortRealmImport({ realm: "imported", realmId });
    await waitUntil("realm.deleted", () => deleted.includes(realmId));
    await expect(d.journal.finishRealmImport({ realm: "imported", realmId })).rejects.toBeInstanceOf(ConnectError);
    // The name is free again, and a finished import is the realm.
    const again = await d.journal.beginRealmImport({ realmJson: enc(SETTINGS) });
    expect(again.realmId).not.toBe(realmId);
    const { realm } = await d.journal.finishRealmImport({ realm: "imported", realmId: again.realmId });
    expect(realm).toMatchObject({ name: "imported", id: again.realmId });
    expect((await d.realms.getRealm({ name: "imported" })).realm?.id).toBe(again.realmId);
  });

  it("rolls back a staging realm whose importer stopped: once its lease ran out, or at start when the process owns the store", async () => {
    const first = await directory();
    const { realmId } = await first.journal.beginRealmImport({ realmJson: enc(SETTINGS) });
    await stopAll();
    // The next process, sharing the store with others, leaves a live lease alone...
    const second = await directory(false);
    await new Promise((r) => setTimeout(r, 200));
    expect(deleted).not.toContain(realmId);
    // ...and takes over one that ran out, through a new import of the name.
    now += IMPORT_LEASE_MS + 1;
    const next = await second.journal.beginRealmImport({ realmJson: enc(SETTINGS) });
    await waitUntil("the stale import's realm.deleted", () => deleted.includes(realmId));
    await stopAll();
    // The store's only process rolls back every staging realm at start.
    const third = await directory(true);
    await waitUntil("realm.deleted at start", () => deleted.includes(next.realmId));
    await expect(third.journal.heartbeatRealmImport({ realm: "imported", realmId: next.realmId })).rejects.toMatchObject({ code: Code.FailedPrecondition });
  });
});
