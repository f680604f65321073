import { isIPv4, isIPv6 } from "node:net";

/**
 * The client a per-address rate limit counts: an IPv4 address as it is (also when it arrives
 * IPv4-mapped, `::ffff:a.b.c.d`, from a dual-stack listener), and for IPv6 the /64 it lies in.
 * A /64 is the smallest network a subscriber or LAN is given (RFC 4291 section 2.5.4, RFC 6177),
 * so one client can rotate through 2^64 addresses at no cost: keyed by the exact address, a
 * limit would not limit it. Anything else (no address) is returned as given.
 */
export function rateLimitAddress(ip: string | undefined): string {
  if (!ip) return "";
  const bare = ip.includes("%") ? ip.slice(0, ip.indexOf("%")) : ip; // a zone index (fe80::1%eth0)
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return ip;
  const h = hextets(bare);
  if (h[0] === 0 && h[1] === 0 && h[2] === 0 && h[3] === 0 && h[4] === 0 && h[5] === 0xffff) {
    return `${h[6]! >> 8}.${h[6]! & 255}.${h[7]! >> 8}.${h[7]! & 255}`;
  }
  return `${h.slice(0, 4).map((x) => x.toString(16)).join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (isIPv6 checked it), `::` and a dotted IPv4 tail expanded. */
function hextets(address: string): number[] {
  let text = address.toLowerCase();
  const last = text.lastIndexOf(":");
  if (text.indexOf(".", last) >= 0) {
    const [a, b, c, d] = text.slice(last + 1).split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, last + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const gap = text.indexOf("::");
  const groups = (s: string) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  if (gap < 0) return groups(text);
  const head = groups(text.slice(0, gap));
  const tail = groups(text.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}
