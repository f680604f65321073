import { randomToken } from "./random.js";

describe("randomToken", () => {
  it("hands out base64url tokens of the asked length, every byte once, across pool refills", () => {
    const seen = new Set<string>();
    // 3,000 tokens of 32 and 18 bytes draw about 75 KiB: many 4 KiB refills and their edges.
    for (let i = 0; i < 3000; i++) {
      const bytes = i % 2 ? 32 : 18;
      const token = randomToken(bytes);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(token, "base64url")).toHaveLength(bytes);
      seen.add(token);
    }
    expect(seen.size).toBe(3000);
  });

  it("draws a token larger than the pool from the CSPRNG directly", () => {
    const token = randomToken(5000);
    expect(Buffer.from(token, "base64url")).toHaveLength(5000);
    expect(randomToken()).toHaveLength(43); // 32 bytes by default
  });
});
