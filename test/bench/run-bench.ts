import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../e2e/support/process-runner.js";
import { machine } from "./bench-kit.js";
import { clientCredentials, type Row } from "./client-credentials-scenario.js";
import { codeFlow, memory, tesseraEndpoints } from "./tessera-scenarios.js";
import { ldapSync } from "./ldap-sync-scenario.js";
import { clusterClientCredentials, clusterMemory, clusterScenarios } from "./cluster-scenario.js";
import { realmTransfer } from "./realm-transfer-scenario.js";
import { clusterTokenReplicas } from "./token-replicas-scenario.js";
import { dpopClientCredentials } from "./dpop-scenario.js";
import { privateKeyJwtClientCredentials } from "./private-key-jwt-scenario.js";
import { publicEndpoints } from "./public-endpoints-scenario.js";
import { coldStart } from "./cold-start-scenario.js";
import { passwordSoak } from "./password-soak-scenario.js";
import { clusterHop } from "./cluster-hop-scenario.js";

/**
 * `npm run bench`: the issue-4 benchmarks, appended to test/bench/RESULTS.md with the machine, date,
 * commit and command. Options: --rounds N (default 3), --duration S (default 10), --connections N
 * (default 16), --only NAME (a scenario), --sessions N (the memory scenarios, default 10000), --users N (realm-transfer, default 100000). The
 * server runs on core 0, this load generator on core 1.
 */
const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
const rounds = Number(args.get("rounds") ?? 3);
const duration = Number(args.get("duration") ?? 10);
const connections = Number(args.get("connections") ?? 16);
const only = args.get("only");
const sessions = Number(args.get("sessions") ?? 10_000);
const opts = { rounds, duration, connections };

const scenarios: Array<[string, () => Promise<Row[]>]> = [
  ["cc-rs256", () => clientCredentials("RS256", opts)],
  ["cc-es256", () => clientCredentials("ES256", opts)],
  // The same grant with a DPoP proof per request (RFC 9449), next to plain Bearer on one server.
  ["cc-dpop", () => dpopClientCredentials(opts)],
  // The same grant authenticated by a private_key_jwt assertion per request (RFC 7523), next to
  // client_secret_basic on one server.
  ["cc-private-key-jwt", () => privateKeyJwtClientCredentials(opts)],
  ["endpoints", () => tesseraEndpoints(opts)],
  // Discovery, JWKS, introspection and userinfo against oidc-provider, interleaved.
  ["public-endpoints", () => publicEndpoints(opts)],
  // Process start to the first 200 on /health, built, embedded.
  ["cold-start", () => coldStart(Number(args.get("starts") ?? 5))],
  // --grants N password grants per realm (default 10000), brute-force detection off and on.
  ["password-soak", () => passwordSoak(Number(args.get("grants") ?? 10_000), connections)],
  ["code-flow", () => codeFlow(opts)],
  ["memory", () => memory(sessions)],
  ["cluster", async () => [...await clusterClientCredentials(opts), ...await clusterHop(opts), ...await clusterTokenReplicas(opts), ...await clusterScenarios(opts), ...await clusterMemory(sessions)]],
  // CPU per client_credentials token: embedded, the cluster with its frames hop and with Connect.
  ["cluster-hop", () => clusterHop(opts)],
  // Also part of "cluster": one token replica against two, as CPU per token.
  ["cluster-replicas", () => clusterTokenReplicas(opts)],
  // Also part of "cluster"; alone, to read the cluster's memory without its load scenarios.
  ["cluster-memory", () => clusterMemory(sessions)],
  // Needs the Debian slapd (.ci/run installs it); --entries N, default 10000.
  ["ldap-sync", () => ldapSync(Number(args.get("entries") ?? 10_000))],
  // Realm export and import of --users users (default 100,000): time and the server's peak RSS.
  ["realm-transfer", () => realmTransfer(Number(args.get("users") ?? 100_000))],
];

const rows: Row[] = [];
for (const [name, run] of scenarios) {
  if (only && only !== name) continue;
  process.stdout.write(`[bench] ${name}\n`);
  try {
    rows.push(...await run());
  } catch (e) {
    rows.push({ scenario: name, target: "-", rps: 0, runs: [], p99ms: 0, bad: 0, note: `failed: ${String(e).slice(0, 200)}` });
  }
}

const m = machine();
const ceilingOf = (scenario: string) => rows.find((r) => r.scenario === scenario && r.target.includes("ceiling"))?.rps;
const lines = [
  "",
  `## ${new Date().toISOString()} — commit ${m.commit}`,
  "",
  `Machine: ${m.cpu}, ${m.cores} cores; server pinned to core 0, load generator (autocannon) to core 1.`,
  `Command: \`taskset -c 1 node dist/test/bench/run-bench.js ${process.argv.slice(2).join(" ")}\` (via \`npm run bench\`); `
    + `${rounds} interleaved rounds of ${duration} s, ${connections} keep-alive connections, median reported; every response checked (200 and a verifying token).`,
  "",
  "| scenario | target | median req/s | runs | p99 ms | bad responses | vs ceiling |",
  "|---|---|---:|---|---:|---:|---:|",
  ...rows.map((r) => {
    const c = ceilingOf(r.scenario);
    // A run with any bad response has no ratio: it did not do the work it is compared on.
    const ratio = r.bad > 0 ? "invalid" : c && r.rps ? (r.rps / c).toFixed(2) : "";
    return `| ${r.scenario} | ${r.target} | ${Math.round(r.rps)} | ${r.runs.join(", ")} | ${r.p99ms} | ${r.bad} | ${ratio}${r.note ? ` ${r.note}` : ""} |`;
  }),
];
const file = join(ROOT, "test", "bench", "RESULTS.md");
if (!existsSync(file)) writeFileSync(file, "# Benchmark results\n\nAppended by `npm run bench` (see README, Benchmarks).\n");
appendFileSync(file, lines.join("\n") + "\n");
process.stdout.write(lines.join("\n") + "\n");
