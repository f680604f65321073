import { readFileSync } from "node:fs";

/**
 * Where a server's CPU goes per flow, from `perf script` output of `perf record -F 999 -g -p <pid>`
 * (profile-flow.js with PERF=<file> records one): each sample is about 1 ms of one thread, counted
 * by thread (the main thread, whose id is the process's, or the others) and by what its stack
 * shows: argon2id (its page faults apart), RSA signing, SQLite, the flushes, V8's collector and
 * compiler, or the rest (user or kernel). Side by side for two servers, it says which part of a
 * difference in CPU per flow is whose (docs/performance.md, "The gap at production hashing").
 *   perf script -i <file> | node dist/test/bench/perf-split.js <pid> <flows>
 */
const [pid, flowsArg] = process.argv.slice(2);
const flows = Number(flowsArg);
if (!pid || !(flows > 0)) {
  console.error("usage: perf script -i <file> | node perf-split.js <pid> <flows>");
  process.exit(64);
}

/** The category of one sample's stack: its frames, leaf first. */
function categoryOf(frames: string[]): string {
  const all = frames.join("|");
  const kernelLeaf = frames[0]?.includes("[kernel.kallsyms]") ?? false;
  if (/argon2/.test(all)) return kernelLeaf ? "argon2id, page faults" : "argon2id";
  if (/RSA|BN_|bn_|rsaz|sha256_block|EVP_|ossl_/.test(all)) return "RSA signing";
  if (/fdatasync|fsync/.test(all)) return "flushes";
  if (/sqlite3/.test(all)) return "SQLite";
  if (/Scavenge|MarkCompact|Sweep|Heap::|Evacuat|Concurrent|Marking/.test(all)) return "V8 collector";
  if (/Compile|Turbofan|Maglev|Pipeline|compiler/i.test(all)) return "V8 compiler";
  if (/epoll|uv__io_poll/.test(frames[0] ?? "")) return "waiting";
  return kernelLeaf ? "rest, kernel" : "rest";
}

const counts = new Map<string, number>();
let total = 0;
for (const block of readFileSync(0, "utf8").split("\n\n")) {
  const lines = block.split("\n").filter((l) => l.trim() !== "");
  const tid = /^\S.*?\s+(\d+)\s/.exec(lines[0] ?? "")?.[1];
  if (!tid) continue;
  const key = `${tid === pid ? "main  " : "others"}  ${categoryOf(lines.slice(1).map((l) => l.trim()))}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
  total++;
}
console.log(`${total} samples, ${flows} flows: ${(total / flows).toFixed(2)} ms of CPU per flow`);
for (const [key, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`${(n / flows).toFixed(3).padStart(7)} ms  ${key}`);
