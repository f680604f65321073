import { rmSync, mkdirSync } from "node:fs";
import { profilingNodeArgs, startTessera } from "./tessera-target.js";
import { load, processCpuMs } from "./bench-kit.js";

/**
 * A quick look at userinfo without the full benchmark: embedded Tessera pinned to the server core,
 * one user's access token (openid profile email) fetched by password grant, 16 keep-alive
 * connections, a 2 s warm-up and two 6 s runs; req/s and the server's CPU per request printed.
 *   taskset -c 1 node dist/test/bench/profile-userinfo.js [prof]
 * `prof` writes a V8 CPU profile of each server thread to /tmp/prof.
 */
const prof = process.argv[2] === "prof";
rmSync("/tmp/prof", { recursive: true, force: true });
mkdirSync("/tmp/prof");
const t = await startTessera({ alg: "RS256", nodeArgs: profilingNodeArgs(prof) });
const basic = `Basic ${Buffer.from(`${t.clientId}:${t.clientSecret}`).toString("base64")}`;
const res = await fetch(`${t.issuer}/protocol/openid-connect/token`, {
  method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic },
  body: new URLSearchParams({ grant_type: "password", username: t.username, password: t.password, scope: "openid profile email" }).toString(),
});
if (res.status !== 200) throw new Error(`token: HTTP ${res.status} ${await res.text()}`);
const token = ((await res.json()) as { access_token: string }).access_token;
const run = (duration: number) => load({
  url: `${t.issuer}/protocol/openid-connect/userinfo`, duration, connections: 16, headers: { authorization: `Bearer ${token}` },
  verify: (b) => b.includes('"email":"bench@example.test"'),
});
await run(2);
for (let i = 0; i < 2; i++) {
  const pid = t.server.child.pid!;
  const before = processCpuMs([pid]);
  const r = await run(6);
  const cpu = processCpuMs([pid]) - before;
  console.log("userinfo", Math.round(r.rps), "req/s; server CPU", (cpu / r.requests).toFixed(3), "ms per request; bad", r.non2xx + r.mismatches + r.errors);
}
await t.server.stop();
