import { IamError } from "../../../kit/src/errors.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { OutboundPolicy } from "../../../kit/src/outbound/address-policy.js";
import type { Problem, WebhookDoc } from "../../../kit/src/realm-transfer/document-schema.js";
import type { WebhookRepository } from "../store/webhook-repository.js";
import { generateSecret, gracePeriodOf, previousSecretAad, previousSecretExpiry, secretAad, type WebhookRecord } from "./webhook.js";
import { checkCreate, normaliseTypes } from "./webhook-rules.js";

export interface WebhookPart {
  webhooks?: WebhookDoc[];
}

/**
 * The audit service's part of a realm export and import (DESIGN 3): the realm's webhooks, ids
 * kept. Their deliveries are operational history, like the events, and are not exported. The
 * secret and the custom headers travel only with includeSecrets.
 */
export class WebhookTransfer {
  constructor(
    private readonly hooks: WebhookRepository,
    private readonly secrets: SecretBox,
    private readonly policy: OutboundPolicy,
    private readonly now: () => number,
  ) {}

  async export(realmId: string, includeSecrets: boolean): Promise<Required<WebhookPart>> {
    const all: WebhookRecord[] = [];
    for (let first = 0; ; first += 1000) {
      const page = await this.hooks.listByCreation(realmId, first, 1000);
      all.push(...page);
      if (page.length < 1000) break;
    }
    const now = this.now();
    return {
      webhooks: all.map((w): WebhookDoc => {
        const previous = includeSecrets ? previousSecretExpiry(w, now) : undefined;
        return {
          id: w._id, url: w.url, eventTypes: [...w.eventTypes], enabled: w.enabled, secretGracePeriodSeconds: gracePeriodOf(w),
          ...(includeSecrets ? { headers: { ...w.headers }, secret: this.secrets.open(w.secretSealed, secretAad(w)) } : {}),
          // A rotation's grace period still running: the receiver may still verify with the old one.
          ...(previous !== undefined ? {
            previousSecret: this.secrets.open(w.previousSecretSealed!, previousSecretAad(w)), previousSecretExpiresAt: new Date(previous).toISOString(),
          } : {}),
        };
      }),
    };
  }

  async validate(part: WebhookPart, realmName: string): Promise<Problem[]> {
    const problems: Problem[] = [];
    const list = part.webhooks ?? [];
    for (const [i, w] of list.entries()) {
      try {
        checkCreate({ url: w.url, eventTypes: w.eventTypes, ...(w.headers ? { headers: w.headers } : {}) }, this.policy);
      } catch (e) {
        if (!(e instanceof IamError)) throw e;
        problems.push({ path: `$.webhooks[${i}]${e.field ? `.${e.field}` : ""}`, message: e.message });
      }
      if ((w.previousSecret === undefined) !== (w.previousSecretExpiresAt === undefined)) {
        problems.push({ path: `$.webhooks[${i}].previousSecretExpiresAt`, message: "previousSecret and previousSecretExpiresAt come together" });
      }
      const other = await this.hooks.byId(w.id);
      if (other && other.realm !== realmName) problems.push({ path: `$.webhooks[${i}].id`, message: `id "${w.id}" belongs to realm "${other.realm}"` });
      const twin = list.findIndex((x) => x.id === w.id);
      if (twin !== i) problems.push({ path: `$.webhooks[${i}].id`, message: `id is also used at $.webhooks[${twin}]` });
    }
    return problems;
  }

  /** Writes the webhooks under the staging realm; answers what was not carried over as it was. */
  async import(realmId: string, realmName: string, part: WebhookPart): Promise<Problem[]> {
    const notes: Problem[] = [];
    const now = this.now();
    for (const [i, w] of (part.webhooks ?? []).entries()) {
      const secret = w.secret ?? generateSecret();
      if (!w.secret) {
        notes.push({ path: `$.webhooks[${i}].secret`, message: "no secret in the document: a new one was generated and the webhook imported disabled; rotate its secret and enable it" });
      }
      // The rotated-out secret only with the current one it was rotated out for, and while it still signs.
      const previousUntil = w.secret && w.previousSecret && w.previousSecretExpiresAt ? Date.parse(w.previousSecretExpiresAt) : 0;
      await this.hooks.putImported({
        _id: w.id, realmId, realm: realmName, url: w.url, eventTypes: normaliseTypes(w.eventTypes), enabled: w.secret ? w.enabled : false,
        headers: w.headers ?? {}, secretSealed: this.secrets.seal(secret, secretAad({ _id: w.id })), createdAt: now, updatedAt: now,
        ...(w.secretGracePeriodSeconds !== undefined ? { secretGracePeriodSeconds: w.secretGracePeriodSeconds } : {}),
        ...(previousUntil > now ? {
          previousSecretSealed: this.secrets.seal(w.previousSecret!, previousSecretAad({ _id: w.id })), previousSecretExpiresAt: previousUntil,
        } : {}),
      });
    }
    return notes;
  }
}
