// The image's HEALTHCHECK: GET /health of whichever process is PID 1 (the entrypoint exec'd it),
// on the port that process listens on. The gateway (and embedded) listen on TESSERA_PORT; a
// service on the port of its own TESSERA_<NAME>_URL. Exit 0 when it answers 200 within 3 s.
// An argument names another pid than 1 (to check a process started outside a container).
import { readFileSync } from "node:fs";
import { request } from "node:http";

function port() {
  let cmd = "";
  try { cmd = readFileSync(`/proc/${Number(process.argv[2] ?? 1)}/cmdline`, "utf8"); } catch { /* not Linux: assume the gateway */ }
  const service = /dist\/services\/([a-z]+)\/src\/main\.js/.exec(cmd)?.[1];
  if (service) {
    const url = process.env[`TESSERA_${service.toUpperCase()}_URL`];
    if (!url) return undefined;
    const u = new URL(url);
    return Number(u.port || (u.protocol === "https:" ? 443 : 80));
  }
  return Number(process.env.TESSERA_PORT || 8080);
}

const p = port();
if (!p) process.exit(1);
const req = request({ host: "127.0.0.1", port: p, path: "/health", timeout: 3000 }, (res) => {
  res.resume();
  process.exit(res.statusCode === 200 ? 0 : 1);
});
req.on("timeout", () => { req.destroy(); process.exit(1); });
req.on("error", () => process.exit(1));
req.end();
