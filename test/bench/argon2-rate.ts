import { hash as nrsHash, verify as nrsVerify, verifySync as nrsVerifySync } from "@node-rs/argon2";
import argon2 from "argon2";
import { availableParallelism } from "node:os";

/**
 * The argon2id verification rate at the realm's parameters on the server core (docs/performance.md: password
 * logins and the code flow are compared with it). Run pinned: node argon2-rate.js <seconds> <memKiB> <iterations>
 * Prints one JSON line {rate, rates}. Measured for both argon2 implementations Node has at hand:
 * `@node-rs/argon2` (RustCrypto, what Tessera hashes with) and `argon2` (the reference C
 * implementation), each with one verification per core in flight and with four (libuv's default
 * threadpool); and `@node-rs/argon2` synchronously, one verification after another on one thread
 * (what each of Tessera's hashing threads runs, hashing-thread.ts). The highest rate is the
 * baseline, so the comparison is with the best this machine can hash, whichever implementation
 * and way that is.
 */
const seconds = Number(process.argv[2] ?? 5);
const memoryCost = Number(process.argv[3] ?? 19456);
const timeCost = Number(process.argv[4] ?? 2);
const password = "Bench-password-1";

const implementations: Record<string, (hash: string) => Promise<boolean>> = {
  "node-rs": (hash) => nrsVerify(hash, password),
  "reference": (hash) => argon2.verify(hash, password),
};
// Each verifies a hash the other wrote: the PHC string is the same format either way.
const hashes: Record<string, string> = {
  "node-rs": await argon2.hash(password, { type: argon2.argon2id, memoryCost, timeCost, parallelism: 1 }),
  "reference": await nrsHash(password, { memoryCost, timeCost, parallelism: 1 }),
};

async function rate(verify: (hash: string) => Promise<boolean>, hash: string, inFlight: number): Promise<number> {
  let done = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (Date.now() < until) {
      if (!(await verify(hash))) throw new Error("verify failed");
      done++;
    }
  }));
  return done / seconds;
}

/** One thread verifying back to back, as a hashing thread does under load. */
function syncRate(hash: string): number {
  let done = 0;
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (!nrsVerifySync(hash, password)) throw new Error("verify failed");
    done++;
  }
  return done / seconds;
}

const rates: Record<string, number> = {};
for (const [name, verify] of Object.entries(implementations)) {
  for (const n of [...new Set([availableParallelism(), 4])]) rates[`${name} x${n}`] = await rate(verify, hashes[name]!, n);
}
rates["node-rs sync"] = syncRate(hashes["node-rs"]!);
process.stdout.write(JSON.stringify({ rate: Math.max(...Object.values(rates)), rates }) + "\n");
