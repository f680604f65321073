import { rmSync, mkdirSync } from "node:fs";
import { startTessera } from "./tessera-target.js";
import { load } from "./bench-kit.js";

const alg = (process.argv[2] ?? "RS256") as "RS256" | "ES256";
const prof = process.argv[3] === "prof";
rmSync("/tmp/prof", { recursive: true, force: true });
mkdirSync("/tmp/prof");
const t = await startTessera({ alg, nodeArgs: prof ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : [] });
const basic = Buffer.from(`${t.clientId}:${t.clientSecret}`).toString("base64");
const run = (d: number) => load({
  url: `${t.issuer}/protocol/openid-connect/token`, method: "POST", duration: d, connections: 16, body: "grant_type=client_credentials",
  headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` },
  verify: (b) => b.includes("access_token"),
});
await run(2);
for (let i = 0; i < 2; i++) { const r = await run(8); console.log(alg, Math.round(r.rps), "p99", r.p99ms, "bad", r.non2xx + r.mismatches + r.errors); }
await t.server.stop();
