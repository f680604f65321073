import { RateLimiter } from "./rate-limiter.js";

describe("RateLimiter", () => {
  it("allows `limit` requests a minute per key and names the wait after that", () => {
    let now = 600_000; // a window start
    const rl = new RateLimiter(() => now);
    for (let i = 0; i < 5; i++) expect(rl.hit("ip:a", 5)).toBe(0);
    const wait = rl.hit("ip:a", 5);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(rl.hit("ip:b", 5)).toBe(0); // other keys are independent
    now += 10_000;
    expect(rl.hit("ip:a", 5)).toBeGreaterThan(0);
  });

  it("does not let a burst at the window edge pass twice the limit", () => {
    let now = 600_000 + 59_000; // one second before the window ends
    const rl = new RateLimiter(() => now);
    for (let i = 0; i < 10; i++) expect(rl.hit("k", 10)).toBe(0);
    now += 2_000; // the next window has begun
    let passed = 0;
    for (let i = 0; i < 10; i++) if (rl.hit("k", 10) === 0) passed++;
    // The previous window still weighs ~97%: almost nothing more passes.
    expect(passed).toBeLessThanOrEqual(1);
  });

  it("forgets a key after two quiet periods", () => {
    let now = 600_000;
    const rl = new RateLimiter(() => now);
    for (let i = 0; i < 3; i++) rl.hit("k", 3);
    expect(rl.hit("k", 3)).toBeGreaterThan(0);
    now += 180_000;
    expect(rl.hit("k", 3)).toBe(0);
  });
});
