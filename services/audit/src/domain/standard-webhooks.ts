import { createHmac } from "node:crypto";

/**
 * Standard Webhooks signing (standardwebhooks.com, "Signature scheme"): the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}`, signed with HMAC-SHA256 under the base64-decoded
 * part of the secret after `whsec_`; each signature is `v1,` + base64 of the MAC. Timestamps are
 * integer seconds since the epoch. With several secrets (a rotation's grace period) the header
 * holds one signature per secret, space-delimited, the new one first, as the spec allows "to
 * support zero-downtime secret rotation": a receiver accepts the message when any one matches.
 */
export function signatureHeaders(secrets: string | string[], id: string, timestampMs: number, body: string): Record<string, string> {
  const timestamp = String(Math.floor(timestampMs / 1000));
  const signatures = (Array.isArray(secrets) ? secrets : [secrets]).map((secret) => {
    const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
    return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
  });
  return { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signatures.join(" ") };
}
