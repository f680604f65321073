import { IamError } from "../../../kit/src/errors.js";
import { urlProblem, type OutboundPolicy } from "../../../kit/src/outbound/address-policy.js";
import { MAX_SECRET_GRACE_SECONDS, type WebhookInput } from "./webhook.js";

const MAX_EVENT_TYPES = 50;
const MAX_HEADERS = 20;
const MAX_HEADER_VALUE = 1024;
const MAX_URL = 2048;
const PATTERN = /^[A-Za-z0-9_:*-]{1,100}$/;
/** RFC 9110 token characters (field names, §5.1). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
/**
 * Headers a custom header may not set: hop-by-hop ones (RFC 9110 §7.6.1), those the transport
 * owns (framing, host), and the Standard Webhooks headers the signature stands on, so a receiver
 * can trust that what it verifies is what Tessera signed.
 */
const RESERVED = new Set([
  "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
  "transfer-encoding", "upgrade", "host", "content-length", "content-type", "content-encoding", "expect",
  "webhook-id", "webhook-timestamp", "webhook-signature", "svix-id", "svix-timestamp", "svix-signature", "user-agent",
]);

/** Checks a create body: url and eventTypes are required. */
export function checkCreate(input: WebhookInput, policy: OutboundPolicy): void {
  if (input.url === undefined) throw IamError.invalid("url", "url is required");
  if (input.eventTypes === undefined) throw IamError.invalid("eventTypes", "eventTypes is required");
  checkUpdate(input, policy);
}

/** Checks the fields sent, on create and update alike. */
export function checkUpdate(input: WebhookInput, policy: OutboundPolicy): void {
  if (input.url !== undefined) {
    if (input.url.length > MAX_URL) throw IamError.invalid("url", `url must be at most ${MAX_URL} characters`);
    // The broker's save-time check (kit outbound): private and link-local are never allowed.
    const problem = urlProblem(input.url, policy);
    if (problem) throw IamError.invalid("url", `url ${problem}`);
  }
  if (input.eventTypes !== undefined) {
    if (input.eventTypes.length === 0) throw IamError.invalid("eventTypes", "eventTypes must name at least one event type");
    if (input.eventTypes.length > MAX_EVENT_TYPES) throw IamError.invalid("eventTypes", `eventTypes holds at most ${MAX_EVENT_TYPES} entries`);
    for (const t of input.eventTypes) {
      if (!PATTERN.test(t)) {
        throw IamError.invalid("eventTypes", `event type "${t.slice(0, 100)}" must be 1 to 100 letters, digits, '_', '-', ':' or '*'`);
      }
    }
  }
  if (input.secretGracePeriodSeconds !== undefined) checkGracePeriod("secretGracePeriodSeconds", input.secretGracePeriodSeconds);
  if (input.headers !== undefined) {
    const entries = Object.entries(input.headers);
    if (entries.length > MAX_HEADERS) throw IamError.invalid("headers", `headers holds at most ${MAX_HEADERS} entries`);
    const seen = new Set<string>();
    for (const [name, value] of entries) {
      const key = name.toLowerCase();
      if (!HEADER_NAME.test(name)) throw IamError.invalid("headers", `header name "${name.slice(0, 64)}" is not a valid field name`);
      if (RESERVED.has(key)) throw IamError.invalid("headers", `header "${name}" is set by Tessera and cannot be configured`);
      if (seen.has(key)) throw IamError.invalid("headers", `header "${name}" is given twice`);
      seen.add(key);
      // RFC 9110 §5.5: no CR, LF or NUL in a field value (header injection).
      if (value.length > MAX_HEADER_VALUE || /[\r\n\0]/.test(value)) {
        throw IamError.invalid("headers", `header "${name}" must be at most ${MAX_HEADER_VALUE} characters without line breaks`);
      }
    }
  }
}

/** A rotation's grace period: whole seconds from 0 (the old secret stops at once) to a week. */
export function checkGracePeriod(field: string, seconds: number): void {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_SECRET_GRACE_SECONDS) {
    throw IamError.invalid(field, `${field} must be a whole number of seconds from 0 to ${MAX_SECRET_GRACE_SECONDS}`);
  }
}

/** Normalises what a write stores: event types de-duplicated, in the order given. */
export function normaliseTypes(types: string[]): string[] {
  return [...new Set(types)];
}
