import { writeFileSync } from "node:fs";

/**
 * Loaded into a benchmarked server with `node --expose-gc --import` (the memory scenarios), before
 * the application: on SIGUSR2, V8's last-resort collection (full collections until nothing more is
 * freed, then the pooled pages and the grown young generation handed back, as before an
 * out-of-memory), then a marker file `gc-<pid>-<n>` in the process's working directory, which the
 * scenario waits for, holding process.memoryUsage() as the collection left it. A plain gc() keeps
 * the young generation at the size the load grew it to, tens of MB per process; a heap snapshot
 * collects the same way, but its own allocations, hundreds of MB in seven processes, stayed in RSS
 * and were read as the sessions'.
 */
type Gc = (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;
const gc = (globalThis as { gc?: Gc }).gc;
if (!gc) throw new Error("gc-on-signal.js needs node --expose-gc");
let collections = 0;
process.on("SIGUSR2", () => {
  gc({ type: "major", execution: "sync", flavor: "last-resort" });
  // Again once V8's helper threads have swept what the first freed: only then are its pages
  // empty and released, and heapUsed no longer counts the garbage on pages not yet swept.
  setTimeout(() => {
    gc({ type: "major", execution: "sync", flavor: "last-resort" });
    writeFileSync(`gc-${process.pid}-${++collections}`, JSON.stringify(process.memoryUsage()));
  }, 500);
});
