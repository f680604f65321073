import { randomUUID } from "node:crypto";
import { issuedAtMs, newAccessTokenId } from "./access-token-id.js";

describe("access token ids (UUIDv7, RFC 9562 section 5.7)", () => {
  const now = 1_700_000_123_456;

  it("are version 7, variant 10 UUIDs holding the issue time in their first 48 bits", () => {
    const jti = newAccessTokenId(now);
    expect(jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(jti.replace(/-/g, "").slice(0, 12), 16)).toBe(now);
    expect(newAccessTokenId(now)).not.toBe(jti);
  });

  it("keep 74 random bits: every one of them varies across ids of the same millisecond", () => {
    const bits = (jti: string) => BigInt(`0x${jti.replace(/-/g, "")}`);
    let varied = 0n;
    const first = bits(newAccessTokenId(now));
    for (let i = 0; i < 200; i++) varied |= bits(newAccessTokenId(now)) ^ first;
    // rand_a: bits 64..75 (after the 4 version bits); rand_b: bits 0..61 (after the 2 variant bits).
    const randomMask = (((1n << 12n) - 1n) << 64n) | ((1n << 62n) - 1n);
    expect(varied).toBe(randomMask);
  });

  it("give the issue time to the millisecond, where iat has only the second", () => {
    expect(issuedAtMs({ jti: newAccessTokenId(now), iat: Math.floor(now / 1000) })).toBe(now);
  });

  it("fall back to the start of the iat second for a random jti, or one that disagrees with iat", () => {
    expect(issuedAtMs({ jti: randomUUID(), iat: 1_700_000_123 })).toBe(1_700_000_123_000);
    expect(issuedAtMs({ jti: newAccessTokenId(now + 1000), iat: 1_700_000_123 })).toBe(1_700_000_123_000);
    expect(issuedAtMs({ jti: "not-a-uuid", iat: 1_700_000_123 })).toBe(1_700_000_123_000);
  });
});
