import { parentPort } from "node:worker_threads";
import type { HashJob, HashReply } from "./hash-job.js";

/**
 * A stand-in hashing thread for hashing-pool.test.ts, for the failures a real one cannot be made to
 * show on demand: it exits on the password "exit-now" and throws on "throw-now" (before replying
 * to anything of that message); otherwise every job matches at once.
 */
parentPort?.on("message", (jobs: HashJob[]) => {
  if (jobs.some((j) => j.password === "exit-now")) process.exit(3);
  if (jobs.some((j) => j.password === "throw-now")) throw new Error("boom");
  const replies: HashReply[] = jobs.map((j) => ({ id: j.id, value: j.kind === "hash" ? "stand-in" : true }));
  parentPort!.postMessage(replies);
});
