import { BlockList, isIP } from "node:net";
import { bool, type Env } from "../config.js";

/**
 * Where Tessera's outbound fetches may go (brokers' token, userinfo, JWKS and discovery URLs;
 * webhooks; client jwks_uris): one setting for all of them, TESSERA_OUTBOUND_ALLOW_LOOPBACK.
 * Private, link-local (cloud metadata at 169.254.169.254 among them), shared, multicast and
 * reserved addresses are always refused; loopback, and plain http (to loopback only), only when
 * the operator allows it, for development and tests.
 */
export interface OutboundPolicy {
  allowLoopback: boolean;
}

export function readOutboundPolicy(env: Env): OutboundPolicy {
  return { allowLoopback: bool(env, "TESSERA_OUTBOUND_ALLOW_LOOPBACK", false) };
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** RFC 6890 special-purpose ranges no outbound fetch may reach (loopback is handled apart). */
const REFUSED = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["169.254.0.0", 16], ["172.16.0.0", 12], ["192.0.0.0", 24],
  ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24],
  ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) REFUSED.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128], ["64:ff9b::", 96], ["64:ff9b:1::", 48], ["100::", 64], ["2001::", 23], ["2001:db8::", 32],
  ["fc00::", 7], ["fe80::", 10], ["fec0::", 10], ["ff00::", 8],
] as const) REFUSED.addSubnet(net, bits, "ipv6");

export type AddressClass = "public" | "loopback" | "refused";

/** The class of an IP address; IPv4-mapped IPv6 addresses are judged as their IPv4 address. */
export function classifyAddress(ip: string): AddressClass {
  const family = isIP(ip);
  if (family === 0) return "refused";
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped) return classifyAddress(mapped[1]!);
    // The URL parser writes a mapped address in hex (::ffff:7f00:1).
    const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
    if (hex) {
      const hi = parseInt(hex[1]!, 16), lo = parseInt(hex[2]!, 16);
      return classifyAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
  }
  const type = family === 4 ? "ipv4" : "ipv6";
  if (LOOPBACK.check(ip, type)) return "loopback";
  return REFUSED.check(ip, type) ? "refused" : "public";
}

/** Whether a resolved address may be connected to under the policy. */
export function addressAllowed(ip: string, policy: OutboundPolicy): boolean {
  const c = classifyAddress(ip);
  return c === "public" || (c === "loopback" && policy.allowLoopback);
}

/**
 * Why a URL may not be fetched, judged from its text (save-time validation): null when it may.
 * A host name is resolved only when fetched (guarded-fetch.ts checks every address then); here a
 * literal address and "localhost" are judged at once.
 */
export function urlProblem(raw: string, policy: OutboundPolicy): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return "must be an https URL";
  if (u.username || u.password) return "must not carry credentials";
  if (u.hash) return "must not have a fragment";
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(host) !== 0;
  const loopbackName = !literal && (host === "localhost" || host.endsWith(".localhost"));
  const cls: AddressClass = literal ? classifyAddress(host) : loopbackName ? "loopback" : "public";
  if (cls === "refused") return "must not point to a private, link-local or reserved address";
  if (cls === "loopback" && !policy.allowLoopback) return "must not point to a loopback address (TESSERA_OUTBOUND_ALLOW_LOOPBACK is off)";
  if (u.protocol === "http:" && !(policy.allowLoopback && cls === "loopback")) {
    return "must be an https URL (plain http only to loopback, with TESSERA_OUTBOUND_ALLOW_LOOPBACK=true)";
  }
  return null;
}
