import { randomBytes } from "node:crypto";
import type { Doc } from "../../../kit/src/store/port.js";

/** A realm's webhook as stored; the signing secret is sealed under the master key (DESIGN 5). */
export interface WebhookRecord extends Doc {
  realmId: string;
  realm: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  headers: Record<string, string>;
  /** SecretBox-sealed `whsec_...`, bound to the webhook's id. */
  secretSealed: string;
  /** How long a rotated-out secret keeps signing beside the new one; absent (older records): the default. */
  secretGracePeriodSeconds?: number;
  /** The rotated-out secret while it still signs, sealed bound to the webhook's id as the previous one. */
  previousSecretSealed?: string;
  /** When the rotated-out secret stops signing (epoch ms). */
  previousSecretExpiresAt?: number;
  createdAt: number;
  updatedAt: number;
}

export interface WebhookInput {
  url?: string;
  eventTypes?: string[];
  enabled?: boolean;
  headers?: Record<string, string>;
  secretGracePeriodSeconds?: number;
}

/**
 * How long a rotated-out secret keeps signing, by default: a day, the overlap Svix and Standard
 * Webhooks' reference senders give a receiver to deploy its new secret.
 */
export const DEFAULT_SECRET_GRACE_SECONDS = 86_400;
/** At most a week: a leaked old secret must not stay good for long. */
export const MAX_SECRET_GRACE_SECONDS = 7 * 86_400;

export const gracePeriodOf = (w: Pick<WebhookRecord, "secretGracePeriodSeconds">): number => w.secretGracePeriodSeconds ?? DEFAULT_SECRET_GRACE_SECONDS;

/** The rotated-out secret's expiry while it still signs at `now`; undefined once it stopped. */
export function previousSecretExpiry(w: Pick<WebhookRecord, "previousSecretSealed" | "previousSecretExpiresAt">, now: number): number | undefined {
  return w.previousSecretSealed && w.previousSecretExpiresAt !== undefined && w.previousSecretExpiresAt > now ? w.previousSecretExpiresAt : undefined;
}

/**
 * What an admin event records of a webhook: never the secret, and custom headers by name only
 * (their values may be a receiver's credentials, and admin events outlive them).
 */
export function webhookEventView(w: WebhookRecord): Record<string, unknown> {
  return {
    id: w._id, url: w.url, eventTypes: [...w.eventTypes], enabled: w.enabled,
    headers: Object.fromEntries(Object.keys(w.headers).map((k) => [k, REDACTED])),
    secretGracePeriodSeconds: gracePeriodOf(w),
    createdAt: new Date(w.createdAt).toISOString(), updatedAt: new Date(w.updatedAt).toISOString(),
  };
}

/** How a redacted value reads, as Keycloak shows its secrets. */
export const REDACTED = "**********";

export const secretAad = (w: { _id: string }): string => `webhook:${w._id}`;
/** A distinct binding, so a sealed previous secret cannot be swapped in as the current one. */
export const previousSecretAad = (w: { _id: string }): string => `webhook:${w._id}:previous`;

/**
 * A Standard Webhooks secret: `whsec_` + base64 of 24 random bytes (the spec asks for 24 to 64
 * bytes; Svix issues 24). The key is the bytes, not the text.
 */
export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/**
 * The type a webhook subscribes to for an event: a login event's own type (LOGIN, LOGIN_ERROR,
 * ...), an admin event's `admin:<RESOURCE_TYPE>:<OPERATION>` (admin:USER:CREATE), so `admin:*`
 * takes every admin event and `admin:USER:*` every change to users.
 */
export function adminEventType(resourceType: string, operationType: string): string {
  return `admin:${resourceType}:${operationType}`;
}

/** Whether an event type matches one subscribed pattern; `*` stands for any run of characters. */
export function typeMatches(pattern: string, type: string): boolean {
  if (!pattern.includes("*")) return pattern === type;
  const parts = pattern.split("*");
  const head = parts[0]!;
  const tail = parts[parts.length - 1]!;
  if (!type.startsWith(head) || type.length < head.length + tail.length || !type.endsWith(tail)) return false;
  let at = head.length;
  const end = type.length - tail.length;
  for (const mid of parts.slice(1, -1)) {
    const i = type.indexOf(mid, at);
    if (i < 0 || i + mid.length > end) return false;
    at = i + mid.length;
  }
  return true;
}

export function subscribes(w: Pick<WebhookRecord, "eventTypes">, type: string): boolean {
  return w.eventTypes.some((p) => typeMatches(p, type));
}
