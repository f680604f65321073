import pino from "pino";
import { adaptersUnderTest } from "../../../kit/src/store/adapters-under-test.js";
import { TestClock } from "../../../kit/src/store/store-contract-kit.js";
import type { Store } from "../../../kit/src/store/port.js";
import { IamError } from "../../../kit/src/errors.js";
import { ProviderRepository } from "../store/provider-repository.js";
import { PROVIDER_DEFAULTS, type ProviderRecord, type SyncResultRecord } from "./provider.js";
import { SyncScheduler } from "./sync-scheduler.js";
import type { LdapSync } from "./ldap-sync.js";

// The sync lease (sync-scheduler.ts) on both store adapters: two schedulers on one store stand for
// two federation replicas (two processes would add nothing the store does not already decide:
// the lease is one conditional update). The LDAP side is a stand-in that takes real time, so
// overlapping runs would be seen; the real sync runs against slapd in test/e2e/ldap-federation.
describe.each(adaptersUnderTest("sync lease"))("sync lease (%s)", (_name, open) => {
  let store: Store;
  let repo: ProviderRepository;
  let clock: TestClock;
  const logger = pino({ level: "silent" });
  const PERIOD_S = 60;

  beforeEach(async () => {
    clock = new TestClock();
    store = await open(clock);
    repo = await ProviderRepository.open(store);
    // The MongoDB database lives for the file: start each test without the last one's providers.
    await (await store.collection({ name: "federation_providers" })).deleteMany({});
  });
  afterEach(async () => store.close());

  function provider(id: string): ProviderRecord {
    return {
      ...PROVIDER_DEFAULTS, _id: id, realmId: "r1", realm: "acme", name: id, nameKey: id, providerType: "ldap", connectionUrl: "ldap://x",
      bindDn: "cn=a", bindCredential: "v1:x", usersDn: "dc=x", syncPeriod: PERIOD_S, createdAt: 0, updatedAt: 0, nextSyncAt: clock.now(), nextChangedSyncAt: 0,
    };
  }

  /** A stand-in sync that lasts `ms` of real time and counts runs in flight across every scheduler. */
  function world(ms: number) {
    const seen = { inFlight: 0, maxInFlight: 0, runs: 0 };
    const kinds: string[] = [];
    const sync = {
      run: async (_p: ProviderRecord, _keepGoing: () => boolean, since?: number): Promise<SyncResultRecord> => {
        kinds.push(since === undefined ? "full" : `changed since ${since}`);
        seen.inFlight++;
        seen.runs++;
        seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
        await new Promise((r) => setTimeout(r, ms));
        seen.inFlight--;
        return { created: 0, updated: 0, failed: 0, removed: 0, finishedAt: clock.now() };
      },
    } as unknown as LdapSync;
    const scheduler = (holder: string) => new SyncScheduler(repo, sync, clock, logger, { holder, leaseMs: 5_000, checkMs: 1_000 });
    return { seen, kinds, scheduler };
  }

  it("runs each due period once, in one replica at a time", async () => {
    await repo.insert(provider("p1"));
    const { seen, scheduler } = world(30);
    const a = scheduler("replica-a");
    const b = scheduler("replica-b");
    for (let round = 0; round < 8; round++) {
      await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
      await Promise.all([a.stop(), b.stop()]);
      // Both look again while nothing is due: nothing runs.
      await Promise.all([a.tick(), b.tick()]);
      await Promise.all([a.stop(), b.stop()]);
      clock.advance(PERIOD_S * 1000);
    }
    expect(seen).toEqual({ inFlight: 0, maxInFlight: 1, runs: 8 });
    const p = await repo.findById("r1", "p1");
    expect(p?.leaseHolder).toBeUndefined();
    expect(p?.nextSyncAt).toBe(clock.now());
  });

  it("refuses a sync asked for while another replica's run holds the lease (409)", async () => {
    await repo.insert(provider("p2"));
    const { seen, scheduler } = world(200);
    const a = scheduler("replica-a");
    const b = scheduler("replica-b");
    const running = a.syncNow((await repo.findById("r1", "p2"))!);
    await new Promise((r) => setTimeout(r, 50));
    const refused = await b.syncNow((await repo.findById("r1", "p2"))!).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IamError);
    expect((refused as IamError).reason).toBe("sync_running");
    await running;
    expect(seen.runs).toBe(1);
    // Free again once the run ended.
    await b.syncNow((await repo.findById("r1", "p2"))!);
    expect(seen.runs).toBe(2);
  });

  it("runs the changed-entries sync between full ones, reading what changed since the last run began", async () => {
    const start = clock.now();
    await repo.insert({ ...provider("p4"), syncPeriod: 60, changedSyncPeriod: 20, nextSyncAt: start + 60_000, nextChangedSyncAt: start + 20_000 });
    const { kinds, scheduler } = world(5);
    const a = scheduler("replica-a");
    for (let i = 0; i < 6; i++) {
      clock.advance(20_000);
      await a.tick();
      await a.stop();
    }
    // A full run at 60 s and 120 s; the changed runs start from the previous run's start, less the skew margin.
    const since = (s: number) => `changed since ${start + s * 1000 - 60_000}`;
    expect(kinds).toEqual(["changed since 0", since(20), "full", since(60), since(80), "full"]);
  });

  it("takes over the lease of a holder that died, once it expires", async () => {
    await repo.insert(provider("p3"));
    const { seen, scheduler } = world(10);
    // A replica took the lease and died before finishing (no renewal, no release).
    expect(await repo.takeLease("p3", "dead-replica", clock.now(), clock.now() + 5_000, { field: "nextSyncAt", by: clock.now() })).not.toBeNull();
    const b = scheduler("replica-b");
    await b.tick();
    await b.stop();
    expect(seen.runs).toBe(0);
    clock.advance(4_999);
    await b.tick();
    await b.stop();
    expect(seen.runs).toBe(0);
    clock.advance(1);
    await b.tick();
    await b.stop();
    expect(seen.runs).toBe(1);
    expect((await repo.findById("r1", "p3"))?.leaseHolder).toBeUndefined();
  });
});
