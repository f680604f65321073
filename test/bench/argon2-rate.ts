import argon2 from "argon2";
import { availableParallelism } from "node:os";

/**
 * The argon2id verification rate at the realm's parameters on the server core (issue 4: password
 * logins and the code flow are compared with it). Run pinned: node argon2-rate.js <seconds> <memKiB> <iterations>
 * Prints one JSON line {rate, byInFlight}. Measured with one verification per core in flight (what
 * Tessera's hashing slots run) and with four (libuv's default threadpool); the higher rate is the
 * baseline, so the comparison is with the best this machine can hash.
 */
const seconds = Number(process.argv[2] ?? 5);
const memoryCost = Number(process.argv[3] ?? 19456);
const timeCost = Number(process.argv[4] ?? 2);
const hash = await argon2.hash("Bench-password-1", { type: argon2.argon2id, memoryCost, timeCost, parallelism: 1 });

async function rate(inFlight: number): Promise<number> {
  let done = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (Date.now() < until) {
      if (!(await argon2.verify(hash, "Bench-password-1"))) throw new Error("verify failed");
      done++;
    }
  }));
  return done / seconds;
}

const byInFlight: Record<number, number> = {};
for (const n of [...new Set([availableParallelism(), 4])]) byInFlight[n] = await rate(n);
process.stdout.write(JSON.stringify({ rate: Math.max(...Object.values(byInFlight)), byInFlight }) + "\n");
