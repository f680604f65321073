import type { Logger } from "pino";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { ProviderRepository, ScheduleField, SyncSchedule } from "../store/provider-repository.js";
import type { ProviderRecord, SyncResultRecord } from "./provider.js";
import type { LdapSync } from "./ldap-sync.js";

type SyncKind = "full" | "changed";

/** How far behind ours the LDAP server's clock may be for a changed-entries sync to miss nothing. */
export const CLOCK_SKEW_MS = 60_000;

export interface SyncSchedulerOptions {
  /** This replica's name in the lease (unique per process). */
  holder: string;
  /** How long a lease lasts unless renewed; a dead holder's lease is taken over after it. */
  leaseMs: number;
  /** How often due providers are looked for. */
  checkMs: number;
}

/**
 * Periodic sync (`syncPeriod` seconds) and the sync lease. Every run, periodic or asked through
 * the Admin API, holds the provider's lease in the store (ProviderRepository.takeLease, one
 * conditional update), renewed while it runs: in a cluster one replica syncs a provider at a
 * time, and a replica that dies mid-run loses the lease when it expires, so another takes over
 * the next due run. A periodic run is taken only while due, so the replica that loses the race
 * does not run it again after the winner finished.
 */
export class SyncScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running = new Map<string, Promise<unknown>>();
  private ticking = false;

  constructor(
    private readonly repo: ProviderRepository,
    private readonly sync: LdapSync,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly opts: SyncSchedulerOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.opts.checkMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.running.values()]);
  }

  /** Asked through the Admin API: runs now under the lease, or 409 when a run holds it. */
  async syncNow(p: ProviderRecord, changedOnly = false): Promise<SyncResultRecord> {
    const now = this.clock.now();
    const leased = await this.repo.takeLease(p._id, this.opts.holder, now, now + this.opts.leaseMs);
    if (!leased || this.running.has(p._id)) {
      throw IamError.conflict("a sync of this provider is running", undefined, "sync_running");
    }
    return this.runLeased(leased, changedOnly ? "changed" : "full", false);
  }

  /** One look for due providers (also called by tests instead of waiting for the timer). */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const now = this.clock.now();
      for (const p of await this.repo.due(now)) {
        if (this.running.has(p._id)) continue;
        // A due full sync also covers the changes; otherwise the changed-entries sync is the one due.
        const kind: SyncKind = p.nextSyncAt > 0 && p.nextSyncAt <= now ? "full" : "changed";
        const field: ScheduleField = kind === "full" ? "nextSyncAt" : "nextChangedSyncAt";
        const leased = await this.repo.takeLease(p._id, this.opts.holder, now, now + this.opts.leaseMs, { field, by: now });
        if (!leased) continue;
        this.runLeased(leased, kind, true).catch((err: unknown) => {
          this.logger.warn({ realm: p.realm, provider: p._id, kind, err: (err as Error).message }, "periodic LDAP sync failed");
        });
      }
    } catch (err) {
      this.logger.warn({ err }, "looking for due LDAP syncs failed");
    } finally {
      this.ticking = false;
    }
  }

  /** Runs under the lease; `running` holds the whole of it (the run and its bookkeeping), so stop() waits for both. */
  private runLeased(p: ProviderRecord, kind: SyncKind, periodic: boolean): Promise<SyncResultRecord> {
    const whole = this.leasedRun(p, kind, periodic).finally(() => this.running.delete(p._id));
    this.running.set(p._id, whole.catch(() => undefined));
    return whole;
  }

  private async leasedRun(p: ProviderRecord, kind: SyncKind, periodic: boolean): Promise<SyncResultRecord> {
    const { holder, leaseMs } = this.opts;
    let held = true;
    const renew = setInterval(() => {
      this.repo.renewLease(p._id, holder, this.clock.now() + leaseMs).then((ok) => { held = held && ok; }, () => undefined);
    }, Math.max(50, Math.floor(leaseMs / 3)));
    const startedAt = this.clock.now();
    // Modified since the last sync began, less a margin for the LDAP server's clock being behind ours.
    const since = kind === "changed" ? Math.max(0, (p.lastSyncStartedAt ?? 0) - CLOCK_SKEW_MS) : undefined;
    try {
      const result = await this.sync.run(p, () => held, since);
      await this.repo.finishSync(p._id, holder, result, { ...this.schedule(p, kind, periodic), lastSyncStartedAt: startedAt });
      return result;
    } catch (e) {
      // A failed periodic run waits for its next period, not for the next check.
      if (periodic) await this.repo.finishSync(p._id, holder, undefined, this.schedule(p, kind, true)).catch(() => undefined);
      else await this.repo.releaseLease(p._id, holder).catch(() => undefined);
      throw e;
    } finally {
      clearInterval(renew);
    }
  }

  /** The next runs after one of `kind`: its own period again; a full run also restarts the changed-entries period. */
  private schedule(p: ProviderRecord, kind: SyncKind, periodic: boolean): SyncSchedule {
    const now = this.clock.now();
    const at = (period: number, wasDue: boolean): number | undefined => (period > 0 ? now + period * 1000 : wasDue ? 0 : undefined);
    if (kind === "full") {
      return { nextSyncAt: at(p.syncPeriod, periodic), nextChangedSyncAt: p.changedSyncPeriod > 0 ? now + p.changedSyncPeriod * 1000 : undefined };
    }
    return { nextChangedSyncAt: at(p.changedSyncPeriod, periodic) };
  }
}
