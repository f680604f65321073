import { createHmac } from "node:crypto";

/**
 * Standard Webhooks signing (standardwebhooks.com, "Signature scheme"): the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}`, signed with HMAC-SHA256 under the base64-decoded
 * part of the secret after `whsec_`; the header is `v1,` + base64 of the MAC. Timestamps are
 * integer seconds since the epoch.
 */
export function signatureHeaders(secret: string, id: string, timestampMs: number, body: string): Record<string, string> {
  const timestamp = String(Math.floor(timestampMs / 1000));
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
  const mac = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": `v1,${mac}` };
}
