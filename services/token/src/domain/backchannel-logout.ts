import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Clock } from "../../../kit/src/store/port.js";
import type { KeyRing } from "./key-ring.js";
import type { ClientDirectory } from "./client-directory.js";
import type { IssuerBase } from "./issuer-base.js";
import { realmScopeOf, type RealmScope } from "./realm-scope.js";
import type { BackchannelDeliveryRecord, BackchannelDeliveryRepository } from "../store/backchannel-delivery-repository.js";

/** OIDC Back-Channel Logout 1.0 section 2.6: the logout event. */
export const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";

export interface BackchannelOptions {
  /** Delivery attempts per client (first included). */
  attempts?: number;
  /** Delay before the second attempt; doubles after each failure. */
  backoffMs?: number;
  /** Per attempt. */
  timeoutMs?: number;
  /** How often this process looks for deliveries that are due (left by a stopped or crashed process). */
  sweepMs?: number;
  /** A delivery not made within this is given up. */
  maxAgeMs?: number;
}

export interface LogoutTarget {
  clientId: string;
  userId: string;
  sid: string;
}

/**
 * Sends logout tokens to clients' backchannelLogoutUri (OIDC Back-Channel Logout 1.0 section 2.5):
 * a signed JWT with iss, aud, iat, exp, jti, events, sub, and sid when the client asked for it
 * (backchannelLogoutSessionRequired), never a nonce (section 2.4).
 *
 * Each notification is stored (`backchannel_deliveries`) before it is sent and removed once the
 * client answered 2xx or the bounded attempts (exponential backoff) ran out, so a restart between a
 * session's end and its client hearing of it loses nothing: every process sweeps for due deliveries
 * on start and then periodically, and takes one only by an atomic claim (a lease), so a delivery is
 * sent by one process at a time. The local session has already ended, whatever the client answers;
 * failures are logged without the token.
 */
export class BackchannelLogout {
  private readonly pending = new Set<Promise<void>>();
  /** Wake-ups of backoff sleeps, called by stop(). */
  private readonly sleepers = new Set<() => void>();
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly timeoutMs: number;
  private readonly sweepMs: number;
  private readonly maxAgeMs: number;
  private sweeper: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly keys: KeyRing,
    private readonly clients: ClientDirectory,
    private readonly issuers: IssuerBase,
    private readonly repo: BackchannelDeliveryRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: BackchannelOptions = {},
  ) {
    this.attempts = options.attempts ?? 3;
    this.backoffMs = options.backoffMs ?? 500;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.sweepMs = options.sweepMs ?? 10_000;
    this.maxAgeMs = options.maxAgeMs ?? 3_600_000;
  }

  /** A claim outlasts one attempt, so no other process takes a delivery being sent. */
  private lease(): number {
    return this.clock.now() + this.timeoutMs + 5_000;
  }

  /**
   * Stores a delivery for each target whose client has a back-channel logout URI and starts sending
   * it. Resolves once they are stored, not delivered; never rejects (the session has ended anyway).
   */
  async notify(realm: RealmScope, targets: LogoutTarget[]): Promise<void> {
    const seen = new Set<string>();
    for (const t of targets) {
      const key = `${t.clientId}\0${t.sid}`;
      if (seen.has(key)) continue;
      seen.add(key);
      try {
        // Cached: clients without a back-channel URI (most) cost no write.
        if (!(await this.clients.get(realm.name, t.clientId))?.backchannelLogoutUri) continue;
      } catch (err) {
        // The directory is unreachable: store it anyway; the attempt looks the client up again.
        this.logger.warn({ err, clientId: t.clientId }, "back-channel logout: client lookup failed; stored for later");
      }
      const now = this.clock.now();
      const d: BackchannelDeliveryRecord = {
        _id: randomUUID(), realmId: realm.id, realmName: realm.name, clientId: t.clientId, userId: t.userId, sid: t.sid,
        attempts: 0, nextAttemptAt: this.lease(), createdAt: now, expiresAt: now + this.maxAgeMs,
      };
      try {
        await this.repo.insert(d);
      } catch (err) {
        this.logger.error({ err, clientId: t.clientId }, "back-channel logout could not be stored; sending it without a record");
      }
      this.track(this.run(d));
    }
  }

  /** Starts the sweep: deliveries left due by a stopped process are taken now and every sweepMs. */
  start(): void {
    this.stopped = false;
    this.sweepQuietly();
    this.sweeper = setInterval(() => this.sweepQuietly(), this.sweepMs);
    this.sweeper.unref();
  }

  /** Stops sweeping and retrying; deliveries not made stay stored for the next start (or another process). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    for (const wake of this.sleepers) wake();
    await this.idle();
  }

  /** Resolves when every delivery this process is working on has finished or paused (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Takes and sends the deliveries that are due. */
  async sweep(): Promise<void> {
    for (const d of await this.repo.due(this.clock.now(), 100)) {
      if (this.stopped) return;
      const claimed = await this.repo.claim(d, this.lease());
      if (claimed) this.track(this.run(claimed));
    }
  }

  private sweepQuietly(): void {
    this.sweep().catch((err: unknown) => this.logger.warn({ err }, "back-channel logout sweep failed"));
  }

  private track(p: Promise<void>): void {
    const tracked = p.catch((err: unknown) => this.logger.warn({ err }, "back-channel logout failed"));
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }

  /** Attempts a claimed delivery until it succeeds, runs out of attempts, or this process stops. */
  private async run(first: BackchannelDeliveryRecord): Promise<void> {
    let d = first;
    for (;;) {
      const failure = await this.send(d);
      if (failure === undefined) {
        await this.repo.remove(d._id);
        return;
      }
      const attempts = d.attempts + 1;
      if (attempts >= this.attempts || this.clock.now() >= d.expiresAt) {
        await this.repo.remove(d._id);
        this.logger.warn({ clientId: d.clientId, attempts, reason: failure }, "back-channel logout failed; giving up");
        return;
      }
      const delay = this.backoffMs * 2 ** (attempts - 1);
      const rescheduled = await this.repo.reschedule(d._id, attempts, this.clock.now() + delay);
      if (!rescheduled) return; // removed meanwhile (realm deleted)
      await this.sleep(delay);
      if (this.stopped) return; // stays stored: the next start's sweep continues it
      const claimed = await this.repo.claim(rescheduled, this.lease());
      if (!claimed) return; // another process took it
      d = claimed;
    }
  }

  /** One POST of a fresh logout token; undefined on a 2xx, else why it failed. */
  private async send(d: BackchannelDeliveryRecord): Promise<string | undefined> {
    try {
      const client = await this.clients.get(d.realmName, d.clientId);
      if (!client?.backchannelLogoutUri) return undefined; // no longer wants it: nothing to deliver
      const realm = realmScopeOf(d.realmId, d.realmName);
      const iat = Math.floor(this.clock.now() / 1000);
      const token = await this.keys.sign(realm, {
        iss: this.issuers.issuer(d.realmName), aud: client.clientId, iat, exp: iat + 120, jti: randomUUID(),
        sub: d.userId,
        events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
        ...(client.backchannelLogoutSessionRequired && d.sid ? { sid: d.sid } : {}),
      }, { alg: await this.keys.currentAlg(realm), typ: "logout+jwt" });
      const res = await fetch(client.backchannelLogoutUri, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ logout_token: token }).toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: "manual",
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.status >= 200 && res.status < 300 ? undefined : `client answered ${res.status}`;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }
}
