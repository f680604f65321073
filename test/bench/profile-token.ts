import { rmSync, mkdirSync } from "node:fs";
import { profilingNodeArgs, startTessera } from "./tessera-target.js";
import { load } from "./bench-kit.js";

/**
 * A quick look at the token endpoint without the full benchmark: embedded Tessera pinned to the
 * server core, 16 keep-alive connections, a 2 s warm-up and two 8 s runs, req/s printed.
 *   node dist/test/bench/profile-token.js <RS256|ES256> [prof] [password] [cheap]
 * `prof` writes a V8 CPU profile of the server to /tmp/prof (open it in Chrome DevTools);
 * `password` loads the password grant instead of client_credentials; `cheap` uses cheap hashing.
 * Run it with the load generator pinned too: taskset -c 1 node dist/test/bench/profile-token.js RS256
 * RUNS=n sets the number of 8 s runs (default 2); SERVER_NODE_ARGS adds flags to the server's node
 * (e.g. --perf-basic-prof, for `perf record -p <pid>` with JavaScript names).
 */
const alg = (process.argv[2] ?? "RS256") as "RS256" | "ES256";
const prof = process.argv[3] === "prof";
const password = process.argv[4] === "password";
rmSync("/tmp/prof", { recursive: true, force: true });
mkdirSync("/tmp/prof");
const t = await startTessera({ alg, cheapHashing: process.argv[5] === "cheap", nodeArgs: profilingNodeArgs(prof) });
const basic = Buffer.from(`${t.clientId}:${t.clientSecret}`).toString("base64");
const body = password ? new URLSearchParams({ grant_type: "password", username: t.username, password: t.password }).toString() : "grant_type=client_credentials";
const run = (d: number) => load({
  url: `${t.issuer}/protocol/openid-connect/token`, method: "POST", duration: d, connections: 16, body,
  headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` },
  verify: (b) => b.includes("access_token"),
});
await run(2);
for (let i = 0; i < Number(process.env.RUNS ?? 2); i++) { const r = await run(8); console.log(alg, Math.round(r.rps), "p99", r.p99ms, "bad", r.non2xx + r.mismatches + r.errors); }
await t.server.stop();
