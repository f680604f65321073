import { hashSync as argon2HashSync } from "@node-rs/argon2";
import { hashFormat, verifyStoredHash } from "./stored-hash.js";

/** argon2id parameters (RFC 9106 section 3.1): memory in KiB, passes, lanes. */
export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/**
 * One unit of password work, as the event loop posts it to a hashing thread (hashing-pool.ts):
 *   - `hash`: a new argon2id PHC string for `password` at `params`;
 *   - `verify`: `password` against `hash`, an argon2 hash only (`anyFormat` false: hashes Tessera
 *     wrote itself) or any stored format (imported bcrypt and PBKDF2 too).
 */
export type HashJob =
  | { id: number; kind: "hash"; password: string; params: Argon2Params }
  | { id: number; kind: "verify"; password: string; hash: string; anyFormat: boolean };

/** A job's outcome, posted back in batches: the hash or the match, or why the job failed. */
export type HashReply = { id: number; value: string | boolean } | { id: number; error: string };

/** Runs one job on the calling thread. Verification never throws: a malformed hash does not match. */
export function runHashJob(job: HashJob): HashReply {
  try {
    if (job.kind === "hash") {
      // Algorithm and version are the package defaults, argon2id and v=19 (0x13); the unit test pins both.
      return { id: job.id, value: argon2HashSync(job.password, job.params) };
    }
    const matches = job.anyFormat || hashFormat(job.hash) === "argon2" ? verifyStoredHash(job.hash, job.password) : false;
    return { id: job.id, value: matches };
  } catch (err) {
    return { id: job.id, error: err instanceof Error ? err.message : String(err) };
  }
}
