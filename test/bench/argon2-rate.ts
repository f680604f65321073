import argon2 from "argon2";

/**
 * The argon2id verification rate at the realm's parameters on the server core (issue 4: password
 * logins and the code flow are compared with it). Run pinned: node argon2-rate.js <seconds> <memKiB> <iterations>
 * Prints one JSON line {rate}. Four verifications in flight, as the server's threadpool would run them.
 */
const seconds = Number(process.argv[2] ?? 5);
const memoryCost = Number(process.argv[3] ?? 19456);
const timeCost = Number(process.argv[4] ?? 2);
const hash = await argon2.hash("Bench-password-1", { type: argon2.argon2id, memoryCost, timeCost, parallelism: 1 });
let done = 0;
const until = Date.now() + seconds * 1000;
await Promise.all(Array.from({ length: 4 }, async () => {
  while (Date.now() < until) {
    if (!(await argon2.verify(hash, "Bench-password-1"))) throw new Error("verify failed");
    done++;
  }
}));
process.stdout.write(JSON.stringify({ rate: done / seconds }) + "\n");
