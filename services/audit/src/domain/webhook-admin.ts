import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { Outbox } from "../../../kit/src/bus/outbox.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { OutboundPolicy } from "../../../kit/src/outbound/address-policy.js";
import { expectFields, recordWriteKind } from "../../../kit/src/events/audited-write.js";
import type { Page } from "../../../kit/src/page.js";
import type { WebhookRepository } from "../store/webhook-repository.js";
import type { DeliveryRecord, DeliveryRepository, DeliveryStatus } from "../store/delivery-repository.js";
import { auditedWrite } from "./audited-write.js";
import type { RealmLookup, RealmRef } from "./realm-ref.js";
import {
  generateSecret, gracePeriodOf, DEFAULT_SECRET_GRACE_SECONDS, previousSecretAad, secretAad, webhookEventView, type WebhookInput, type WebhookRecord,
} from "./webhook.js";
import { checkCreate, checkGracePeriod, checkUpdate, normaliseTypes } from "./webhook-rules.js";

export const WEBHOOK = "WEBHOOK";
const fields = (w: WebhookRecord): WebhookRecord => w;

/**
 * Webhook administration. Each write stages its admin event in the audit service's outbox with
 * it (kit events/audited-write.ts); the event's representation is the webhook without its secret.
 */
export class WebhookAdmin {
  private readonly kind = recordWriteKind("audit.webhook", (realmId, id) => this.hooks.findById(realmId, id), fields);

  constructor(
    private readonly hooks: WebhookRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly realms: RealmLookup,
    private readonly outbox: Outbox,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    private readonly policy: OutboundPolicy,
    private readonly queued: () => void,
  ) {
    outbox.register(this.kind);
  }

  /** Creates a webhook; the answer carries its secret, which is never shown again. */
  async create(realmName: string, input: WebhookInput): Promise<{ webhook: WebhookRecord; secret: string }> {
    checkCreate(input, this.policy);
    const realm = await this.realms.get(realmName);
    const now = this.clock.now();
    const id = randomUUID();
    const secret = generateSecret();
    const w: WebhookRecord = {
      _id: id, realmId: realm.id, realm: realm.name, url: input.url as string, eventTypes: normaliseTypes(input.eventTypes as string[]),
      enabled: input.enabled ?? true, headers: input.headers ?? {}, secretSealed: this.secrets.seal(secret, secretAad({ _id: id })),
      secretGracePeriodSeconds: input.secretGracePeriodSeconds ?? DEFAULT_SECRET_GRACE_SECONDS, createdAt: now, updatedAt: now,
    };
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id, expect: "present" },
      { operationType: "CREATE", resourceType: WEBHOOK, path: path(realm, id), representation: webhookEventView(w) }, async () => {
        await this.hooks.insert(w);
        return true;
      });
    return { webhook: w, secret };
  }

  async list(realmName: string, page: Page): Promise<WebhookRecord[]> {
    const realm = await this.realms.get(realmName);
    return this.hooks.listByCreation(realm.id, page.first, page.max);
  }

  async get(realmName: string, id: string): Promise<WebhookRecord> {
    return this.find(await this.realms.get(realmName), id);
  }

  async update(realmName: string, id: string, input: WebhookInput): Promise<WebhookRecord> {
    checkUpdate(input, this.policy);
    const realm = await this.realms.get(realmName);
    const current = await this.find(realm, id);
    const set: Partial<WebhookRecord> = { updatedAt: this.clock.now() };
    if (input.url !== undefined) set.url = input.url;
    if (input.eventTypes !== undefined) set.eventTypes = normaliseTypes(input.eventTypes);
    if (input.enabled !== undefined) set.enabled = input.enabled;
    if (input.headers !== undefined) set.headers = input.headers;
    if (input.secretGracePeriodSeconds !== undefined) set.secretGracePeriodSeconds = input.secretGracePeriodSeconds;
    const expected: WebhookRecord = { ...current, ...set };
    let updated: WebhookRecord | null = null;
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id, expect: expectFields(fields, expected) },
      { operationType: "UPDATE", resourceType: WEBHOOK, path: path(realm, id), representation: webhookEventView(expected) },
      async () => (updated = await this.hooks.update(realm.id, id, set)) !== null);
    if (!updated) throw notFound(id);
    // Enabled again: its waiting deliveries go now rather than at their recheck.
    if (input.enabled === true) this.queued();
    return updated;
  }

  /**
   * A new secret, answered this once. The one it replaces keeps signing beside it (two
   * signatures in `webhook-signature`) for the grace period, the webhook's unless the call gives
   * its own; 0 stops the old one at once (a leaked secret). A secret rotated out earlier and
   * still in its grace period stops now: at most two sign. Two concurrent rotations: one wins,
   * the other is a 409.
   */
  async rotateSecret(realmName: string, id: string, gracePeriodSeconds?: number): Promise<{ secret: string; previousSecretExpiresAt?: number }> {
    if (gracePeriodSeconds !== undefined) checkGracePeriod("gracePeriodSeconds", gracePeriodSeconds);
    const realm = await this.realms.get(realmName);
    const current = await this.find(realm, id);
    const grace = gracePeriodSeconds ?? gracePeriodOf(current);
    const now = this.clock.now();
    const secret = generateSecret();
    const expiresAt = grace > 0 ? now + grace * 1000 : undefined;
    const set: Partial<WebhookRecord> = {
      secretSealed: this.secrets.seal(secret, secretAad(current)), updatedAt: now,
      previousSecretSealed: expiresAt !== undefined ? this.secrets.seal(this.secrets.open(current.secretSealed, secretAad(current)), previousSecretAad(current)) : "",
      previousSecretExpiresAt: expiresAt ?? 0,
    };
    let updated: WebhookRecord | null = null;
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id, expect: expectFields(fields, { ...current, ...set }) },
      {
        operationType: "ACTION", resourceType: WEBHOOK, path: `${path(realm, id)}/secret`,
        representation: { id, previousSecretExpiresAt: expiresAt !== undefined ? new Date(expiresAt).toISOString() : null },
      },
      async () => (updated = await this.hooks.rotate(realm.id, id, current.secretSealed, set)) !== null);
    if (!updated) {
      if (await this.hooks.findById(realm.id, id)) throw IamError.conflict("the secret was rotated meanwhile; rotate again if a new one is still wanted", "secret");
      throw notFound(id);
    }
    return { secret, ...(expiresAt !== undefined ? { previousSecretExpiresAt: expiresAt } : {}) };
  }

  /** Deletes the webhook and its deliveries; those still in flight finish unrecorded. */
  async delete(realmName: string, id: string): Promise<void> {
    const realm = await this.realms.get(realmName);
    await this.find(realm, id);
    let deleted = false;
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm.id, id, expect: "absent" },
      { operationType: "DELETE", resourceType: WEBHOOK, path: path(realm, id) },
      async () => (deleted = await this.hooks.deleteById(realm.id, id)));
    if (!deleted) throw notFound(id);
    await this.deliveries.deleteWebhook(id);
  }

  async listDeliveries(realmName: string, id: string, status: DeliveryStatus | undefined, page: Page): Promise<DeliveryRecord[]> {
    const w = await this.get(realmName, id);
    return this.deliveries.list(w._id, status, page.first, page.max);
  }

  /** Queues one delivery again now, under its own webhook-id (the receiver's idempotency key). */
  async replay(realmName: string, id: string, deliveryId: string): Promise<DeliveryRecord> {
    const w = await this.get(realmName, id);
    const d = await this.deliveries.replay(deliveryId, w._id, this.clock.now());
    if (!d) throw IamError.notFound(`delivery "${deliveryId}"`, "delivery_not_found");
    this.queued();
    return d;
  }

  /** The service's clock, for what a representation shows as of now (a grace period still running). */
  now(): number {
    return this.clock.now();
  }

  async find(realm: RealmRef, id: string): Promise<WebhookRecord> {
    const w = await this.hooks.findById(realm.id, id);
    if (!w) throw notFound(id);
    return w;
  }
}

export function notFound(id: string): IamError {
  return IamError.notFound(`webhook "${id}"`, "webhook_not_found");
}

function path(realm: RealmRef, id: string): string {
  return `realms/${realm.name}/webhooks/${id}`;
}
