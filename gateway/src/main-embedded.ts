import { startOrExit } from "../../services/kit/src/runtime/startup-failure.js";
import { startEmbedded } from "./embedded/run-embedded.js";
import { warmLazyImports } from "../../services/kit/src/runtime/lazy-import.js";

// `npm start`: the embedded suite in one process (DESIGN 2). Any failure to start is one line on
// stderr and exit 78 (startup-failure.ts).
const suite = await startOrExit(() => startEmbedded(process.env));

const lines = [
  "",
  `Tessera is listening on ${suite.url}`,
  `  Admin API:   ${suite.url}/admin/realms`,
  `  Health:      ${suite.url}/health/ready`,
];
if (suite.secrets.newApiKey) {
  lines.push(
    "",
    "  Admin API key (shown once; only its hash is kept in the data dir):",
    `    ${suite.secrets.newApiKey}`,
    `  Try: curl -H 'X-Admin-API-Key: ${suite.secrets.newApiKey}' ${suite.url}/admin/realms`,
  );
}
if (suite.secrets.admin?.generated) {
  lines.push(
    "",
    "  Admin login (shown once): POST /admin/auth/login",
    `    username: ${suite.secrets.admin.username}`,
    `    password: ${suite.secrets.admin.password}`,
  );
}
process.stdout.write(lines.join("\n") + "\n\n");
// Serving now: load what was left for first use, so that use rarely waits (lazy-import.ts).
void warmLazyImports();

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`tessera: ${signal} received, draining in-flight requests\n`);
  suite.close().then(() => process.exit(0), (e) => {
    process.stderr.write(`tessera: shutdown failed: ${String(e)}\n`);
    process.exit(1);
  });
};
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
