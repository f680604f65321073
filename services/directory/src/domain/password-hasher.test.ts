import argon2 from "argon2";
import bcryptjs from "bcryptjs";
import { PasswordHasher, DEFAULT_ARGON2 } from "./password-hasher.js";

/**
 * Tessera hashes with `@node-rs/argon2`; the stores it reads hold hashes written by the reference C
 * implementation (the `argon2` package, which earlier Tessera versions used) and imported ones. The
 * reference implementation is the independent check here: whatever one writes, the other verifies.
 */
describe("PasswordHasher", () => {
  const pw = "Pässword-1 with spaces";
  const small = { memoryCost: 4096, timeCost: 2, parallelism: 1 };

  it("writes argon2id v=19 PHC strings at the default parameters, 16-byte salt, 32-byte hash", async () => {
    const hash = await new PasswordHasher().hash(pw);
    const [, alg, version, params, salt, digest] = hash.split("$");
    expect({ alg, version, params }).toEqual({ alg: "argon2id", version: "v=19", params: "m=19456,t=2,p=1" });
    expect(DEFAULT_ARGON2).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(Buffer.from(salt!, "base64").length).toBe(16);
    expect(Buffer.from(digest!, "base64").length).toBe(32);
  });

  it("writes the configured parameters, a fresh salt each time, and the reference implementation verifies them", async () => {
    const hasher = new PasswordHasher({ memoryCost: 8192, timeCost: 3, parallelism: 1 });
    const [a, b] = [await hasher.hash(pw), await hasher.hash(pw)];
    expect(a.startsWith("$argon2id$v=19$m=8192,t=3,p=1$")).toBe(true);
    expect(a).not.toBe(b);
    expect([await argon2.verify(a, pw), await argon2.verify(b, pw), await argon2.verify(a, `${pw}x`)]).toEqual([true, true, false]);
    expect([await hasher.verify(a, pw), await hasher.verify(a, `${pw}x`), await hasher.verify(a, "")]).toEqual([true, false, false]);
  });

  it("verifies every argon2 variant and version the reference implementation writes, and only with the right password", async () => {
    const hasher = new PasswordHasher(small);
    const written = {
      "argon2id v19": await argon2.hash(pw, { ...small, type: argon2.argon2id }),
      "argon2i v19": await argon2.hash(pw, { ...small, type: argon2.argon2i }),
      "argon2d v19": await argon2.hash(pw, { ...small, type: argon2.argon2d }),
      "argon2id v16": await argon2.hash(pw, { ...small, type: argon2.argon2id, version: 0x10 }),
      "argon2id p=2": await argon2.hash(pw, { ...small, type: argon2.argon2id, parallelism: 2 }),
      "argon2id 64-byte hash": await argon2.hash(pw, { ...small, type: argon2.argon2id, hashLength: 64 }),
    };
    const results: Record<string, [boolean, boolean, boolean]> = {};
    for (const [name, hash] of Object.entries(written)) {
      results[name] = [await hasher.verifyStored(hash, pw), await hasher.verifyStored(hash, `${pw} `), await hasher.verify(hash, pw)];
    }
    expect(results).toEqual(Object.fromEntries(Object.keys(written).map((name) => [name, [true, false, true]])));
  });

  it("answers false, never throws, for malformed or tampered hashes", async () => {
    const hasher = new PasswordHasher(small);
    const good = await hasher.hash(pw);
    const digest = good.slice(good.lastIndexOf("$") + 1);
    const tampered = good.slice(0, good.lastIndexOf("$") + 1) + (digest[0] === "A" ? "B" : "A") + digest.slice(1);
    const cases = [
      tampered,
      good.replace("$argon2id$", "$argon2i$"),
      good.replace("t=2", "t=3"),
      "$argon2id$v=19$m=4096,t=2,p=1$garbage",
      "$argon2id$",
      "",
    ];
    const out = [];
    for (const hash of cases) out.push([await hasher.verify(hash, pw), await hasher.verifyStored(hash, pw)]);
    expect(out).toEqual(cases.map(() => [false, false]));
  });

  it("keeps the event loop running while a password is checked", async () => {
    const hasher = new PasswordHasher(small, 1);
    const h = await bcryptjs.hash(pw, 11);
    const start = performance.now();
    let timerAt = Number.NaN;
    setTimeout(() => { timerAt = performance.now() - start; }, 0);
    const ok = await hasher.verifyStored(h, pw);
    const took = performance.now() - start;
    await hasher.close();
    // On a hashing thread the timer runs at once (about 1 ms) while the check takes about 100 ms.
    // Computed on the event loop, the timer would run only when the whole check was done.
    expect({ ok, timerEarly: timerAt < took / 2 }).toEqual({ ok: true, timerEarly: true });
  });

  it("hashes at start on the calling thread, interchangeably with the hashing threads", async () => {
    const hasher = new PasswordHasher(small, 1);
    const atStart = hasher.hashAtStart(pw);
    expect(atStart.startsWith("$argon2id$v=19$m=4096,t=2,p=1$")).toBe(true);
    expect([hasher.verifyAtStart(atStart, pw), hasher.verifyAtStart(atStart, `${pw}x`), hasher.verifyAtStart("garbage", pw)]).toEqual([true, false, false]);
    expect([await argon2.verify(atStart, pw), await hasher.verify(atStart, pw)]).toEqual([true, true]);
    expect(hasher.verifyAtStart(await hasher.hash(pw), pw)).toBe(true);
    await hasher.close();
  });
});
