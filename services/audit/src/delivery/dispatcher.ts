import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Clock } from "../../../kit/src/store/port.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { Metrics } from "../../../kit/src/metrics.js";
import { guardedFetch, OutboundError } from "../../../kit/src/outbound/guarded-fetch.js";
import type { OutboundPolicy } from "../../../kit/src/outbound/address-policy.js";
import { previousSecretAad, previousSecretExpiry, secretAad, type WebhookRecord } from "../domain/webhook.js";
import { signatureHeaders } from "../domain/standard-webhooks.js";
import { nextAttempt, type RetryPolicy } from "../domain/retry-schedule.js";
import { DELIVERY_RETENTION_MS, type DeliveryRecord, type DeliveryRepository } from "../store/delivery-repository.js";
import type { WebhookRepository } from "../store/webhook-repository.js";
import { DeliveryMetrics } from "./delivery-metrics.js";
import { WebhookQueue } from "./webhook-queue.js";

export interface DispatchSettings {
  retry: RetryPolicy;
  /** Whole attempt, connect to last byte. */
  timeoutMs: number;
  /** Claimed deliveries per webhook per process. */
  queueSize: number;
  /** Attempts in flight per webhook per process. */
  concurrency: number;
  /** How often the store is read for due deliveries (retries and other replicas' leftovers). */
  pollMs: number;
  outbound: OutboundPolicy;
}

/** A receiver's answer is read only up to this (its body is never kept or logged). */
const MAX_RESPONSE_BYTES = 64 * 1024;
const BATCH = 200;
/** A disabled webhook's deliveries wait; they are looked at again after this. */
const DISABLED_RECHECK_MS = 60_000;

/**
 * Sends due deliveries from the store. Each attempt is claimed first with a lease (a conditional
 * update, DeliveryRepository.claim), so in cluster mode one replica sends it, and a replica that
 * dies mid-attempt leaves a lease that runs out and another takes the delivery over. The outcome
 * is written under the claim's token: delivered on a 2xx, else failed with the next attempt
 * scheduled by backoff, or dead past the retry window. At-least-once: a crash after the receiver
 * answered and before the outcome is written sends it again, under the same `webhook-id`.
 */
export class Dispatcher {
  private readonly queues = new Map<string, WebhookQueue>();
  private readonly metrics: DeliveryMetrics;
  private readonly leaseMs: number;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly hooks: WebhookRepository,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    private readonly logger: Logger,
    metrics: Metrics,
    private readonly settings: DispatchSettings,
    private readonly random: () => number = Math.random,
  ) {
    this.metrics = new DeliveryMetrics(metrics, () => new Map([...this.queues].map(([id, q]) => [id, q.depth])));
    // Long enough for an attempt (bounded by the timeout) and its outcome's write, with room for a
    // slow store; short enough that a dead replica's deliveries are taken over within seconds.
    this.leaseMs = 2 * settings.timeoutMs + 5_000;
  }

  /** `soleProcess`: no other process shares the store, so claims left in it are a crashed predecessor's. */
  async start(soleProcess = false): Promise<void> {
    if (soleProcess) {
      const taken = await this.deliveries.releaseAll();
      if (taken) this.logger.info({ deliveries: taken }, "took over webhook deliveries claimed before a restart");
    }
    this.stopped = false;
    this.timer = setInterval(() => this.nudge(), this.settings.pollMs);
    this.timer.unref();
    this.nudge();
  }

  /** Stops claiming and waits for the attempts in flight (each bounded by the timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.ticking;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Something became due (a new delivery, a replay): look now rather than at the next poll. */
  nudge(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick().catch((e: unknown) => {
      this.logger.error({ err: e }, "webhook dispatch failed; retrying at the next poll");
    }).finally(() => {
      this.ticking = undefined;
      if (this.again) {
        this.again = false;
        this.nudge();
      }
    });
  }

  /** Claims what is due and queues it; resolves once they are queued (`settled` waits for the attempts). */
  async tick(): Promise<void> {
    const now = this.clock.now();
    const full = [...this.queues].filter(([, q]) => q.full).map(([id]) => id);
    const due = await this.deliveries.due(now, full, BATCH);
    const hooks = new Map<string, WebhookRecord | null>();
    for (const d of due) {
      const queue = this.queueOf(d.webhookId);
      if (queue.full) continue;
      const token = randomUUID();
      const claimed = await this.deliveries.claim(d._id, now, this.leaseMs, token);
      if (!claimed) continue; // another replica took it
      if (!hooks.has(d.webhookId)) hooks.set(d.webhookId, await this.hooks.byId(d.webhookId));
      const hook = hooks.get(d.webhookId) ?? null;
      const run = queue.offer(() => this.attempt(claimed, hook, token));
      if (run) this.track(run);
    }
  }

  /** Resolves when every attempt started so far has finished (tests and stop). */
  async settled(): Promise<void> {
    await this.ticking;
    await Promise.allSettled([...this.inFlight]);
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private queueOf(webhookId: string): WebhookQueue {
    let q = this.queues.get(webhookId);
    if (!q) {
      q = new WebhookQueue(this.settings.queueSize, this.settings.concurrency);
      this.queues.set(webhookId, q);
    }
    return q;
  }

  private async attempt(d: DeliveryRecord, hook: WebhookRecord | null, token: string): Promise<void> {
    if (!hook) {
      // Its webhook was deleted since: deleting it removed its deliveries, this one went with them.
      await this.deliveries.finish(d._id, token, { status: "dead", lastError: "webhook deleted", expiresAt: this.clock.now() + DELIVERY_RETENTION_MS });
      return;
    }
    if (!hook.enabled) {
      await this.deliveries.release(d._id, token, this.clock.now() + DISABLED_RECHECK_MS);
      return;
    }
    const started = this.clock.now();
    const windowStart = d.windowStart;
    let code = 0;
    let error = "";
    const t0 = process.hrtime.bigint();
    try {
      const res = await guardedFetch(hook.url, this.settings.outbound, {
        method: "POST",
        headers: { ...hook.headers, "content-type": "application/json", ...signatureHeaders(this.signingSecrets(hook, started), d._id, started, d.body) },
        body: d.body,
        timeoutMs: this.settings.timeoutMs,
        maxBytes: MAX_RESPONSE_BYTES,
      });
      code = res.status;
      // A redirect is not followed (SSRF guard) and counts as a failure, as Standard Webhooks says.
      if (code < 200 || code > 299) error = `HTTP ${code}`;
    } catch (e) {
      error = e instanceof OutboundError ? `${e.reason}: ${e.message}` : "delivery failed";
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const now = this.clock.now();
    let set: Partial<DeliveryRecord>;
    let result: "delivered" | "failed" | "dead";
    if (!error) {
      result = "delivered";
      set = { status: "delivered", responseCode: code, lastError: "", lastAttemptAt: now, windowStart, expiresAt: now + DELIVERY_RETENTION_MS };
    } else {
      const next = nextAttempt(this.settings.retry, d.attempts + 1, windowStart, now, this.random);
      result = next === null ? "dead" : "failed";
      set = {
        status: result, responseCode: code, lastError: error, lastAttemptAt: now, windowStart,
        ...(next !== null ? { nextAttemptAt: next } : { expiresAt: now + DELIVERY_RETENTION_MS }),
      };
      if (next !== null) this.wakeAt(next);
    }
    const recorded = await this.deliveries.finish(d._id, token, set);
    this.metrics.attempts.inc({ result });
    this.metrics.duration.observe({ outcome: result === "delivered" ? "delivered" : "failed" }, seconds);
    if (!recorded) return; // replayed or deleted meanwhile: its new state stands
    if (result !== "delivered") this.logger.warn({ webhook: hook._id, delivery: d._id, attempts: d.attempts + 1, status: result, error }, "webhook delivery failed");
  }

  /**
   * The secrets that sign at `now`: the current one and, during a rotation's grace period, the
   * one it replaced (webhook-admin.ts rotateSecret), so a receiver still on the old secret
   * verifies until it switches.
   */
  private signingSecrets(hook: WebhookRecord, now: number): string[] {
    const current = this.secrets.open(hook.secretSealed, secretAad(hook));
    if (previousSecretExpiry(hook, now) === undefined) return [current];
    return [current, this.secrets.open(hook.previousSecretSealed!, previousSecretAad(hook))];
  }

  /** Looks again when a retry comes due, when that is sooner than the next poll. */
  private wakeAt(at: number): void {
    if (this.stopped) return;
    const delay = at - this.clock.now();
    if (delay >= this.settings.pollMs) return;
    const t = setTimeout(() => this.nudge(), Math.max(delay, 0) + 5);
    t.unref();
  }
}
