import { freePort } from "../e2e/support/free-port.js";
import { load, median, processCpuMs, startPinned, type LoadResult, type Server } from "./bench-kit.js";
import { startTessera } from "./tessera-target.js";
import type { Row } from "./client-credentials-scenario.js";

interface Opts { rounds: number; duration: number; connections: number }

/** One server's four public endpoints, as the load generator calls them. */
interface Contender {
  name: string;
  server: Server;
  discovery: string;
  jwks: string;
  introspect: { url: string; authorization: string };
  userinfo: { url: string };
  /**
   * A user access token issued now: each introspection and userinfo run takes a fresh one, as a
   * run with a baseline contender lasts longer than the bench realm's 300 s token lifespan.
   */
  userToken(): Promise<string>;
}

const FORM = "application/x-www-form-urlencoded";
const ENDPOINTS = ["discovery GET", "JWKS GET", "introspection (user access token)", "userinfo GET"] as const;
type Endpoint = typeof ENDPOINTS[number];

/**
 * The public read endpoints side by side (the target: every public endpoint ahead of oidc-provider):
 * discovery, the JWK Set, introspection and userinfo of one user's access token, on embedded
 * Tessera and on oidc-provider 9 (test/bench/oidc-provider-server.ts), each pinned to the server
 * core in turn, interleaved rounds, medians, every body checked. The Tessera rows' note is the
 * ratio to oidc-provider's rate in the same run, then the server CPU per request.
 *
 * With TESSERA_BENCH_BASELINE_DIST set to another build's dist directory (a checkout of an
 * earlier commit, built), that build runs as a third contender, "Tessera (baseline)": a before
 * and after under the same machine drift.
 */
export async function publicEndpoints(opts: Opts): Promise<Row[]> {
  const contenders: Contender[] = [];
  try {
    const oPort = await freePort();
    const op = await startPinned("oidc-provider", "test/bench/oidc-provider-server.js", [String(oPort), "RS256"], {}, `http://127.0.0.1:${oPort}/jwks`);
    contenders.push({
      name: "oidc-provider 9", server: op, discovery: `${op.url}/.well-known/openid-configuration`, jwks: `${op.url}/jwks`,
      introspect: { url: `${op.url}/token/introspection`, authorization: basic("bench-client", "bench-secret-bench-secret-bench-secret") },
      userinfo: { url: `${op.url}/me` },
      userToken: async () => (await fetch(`${op.url}/bench/user-token`)).text(),
    });
    contenders.push(await tessera("Tessera (embedded)"));
    const baseline = process.env.TESSERA_BENCH_BASELINE_DIST;
    if (baseline) contenders.push(await tessera("Tessera (baseline)", baseline));

    const results = new Map<string, { load: LoadResult; cpuMs: number }[]>();
    for (const e of ENDPOINTS) {
      for (const c of contenders) await run(c, e, opts, 3);
      for (let round = 0; round < opts.rounds; round++) {
        for (const c of contenders) {
          const key = `${e}\u0000${c.name}`;
          results.set(key, [...(results.get(key) ?? []), await run(c, e, opts, opts.duration)]);
        }
      }
    }
    const rows: Row[] = [];
    for (const e of ENDPOINTS) {
      const opRate = median(results.get(`${e}\u0000oidc-provider 9`)!.map((r) => r.load.rps));
      for (const c of contenders) {
        const rs = results.get(`${e}\u0000${c.name}`)!;
        const rps = median(rs.map((r) => r.load.rps));
        const cpu = median(rs.map((r) => (r.load.requests ? r.cpuMs / r.load.requests : 0)));
        const ratio = c.name === "oidc-provider 9" ? "" : `${(rps / opRate).toFixed(2)} of oidc-provider 9's rate; `;
        rows.push({
          scenario: `${e}, side by side`, target: c.name, rps, runs: rs.map((r) => Math.round(r.load.rps)),
          p99ms: median(rs.map((r) => r.load.p99ms)), bad: rs.reduce((n, r) => n + r.load.non2xx + r.load.mismatches + r.load.errors, 0),
          note: `${ratio}server CPU ${cpu.toFixed(3)} ms per request`,
        });
      }
    }
    return rows;
  } finally {
    for (const c of contenders) await c.server.stop();
  }
}

async function tessera(name: string, dist?: string): Promise<Contender> {
  const t = await startTessera({ alg: "RS256", ...(dist ? { dist } : {}) });
  const client = basic(t.clientId, t.clientSecret);
  const oidc = `${t.issuer}/protocol/openid-connect`;
  const userToken = async () => {
    const res = await fetch(`${oidc}/token`, {
      method: "POST", headers: { "content-type": FORM, authorization: client },
      body: new URLSearchParams({ grant_type: "password", username: t.username, password: t.password, scope: "openid profile email" }).toString(),
    });
    if (res.status !== 200) throw new Error(`${name} token: HTTP ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  await userToken();
  return {
    name, server: t.server, discovery: `${t.issuer}/.well-known/openid-configuration`, jwks: `${oidc}/certs`,
    introspect: { url: `${oidc}/token/introspect`, authorization: client }, userinfo: { url: `${oidc}/userinfo` }, userToken,
  };
}

async function run(c: Contender, e: Endpoint, opts: Opts, duration: number): Promise<{ load: LoadResult; cpuMs: number }> {
  const pid = c.server.child.pid!;
  const token = e === "userinfo GET" || e.startsWith("introspection") ? await c.userToken() : "";
  const before = processCpuMs([pid]);
  const common = { connections: opts.connections, duration };
  const result = await (e === "discovery GET" ? load({ ...common, url: c.discovery, verify: (b) => b.includes('"issuer":"') && b.includes('"jwks_uri":"') })
    : e === "JWKS GET" ? load({ ...common, url: c.jwks, verify: (b) => b.startsWith('{"keys":[{') })
    : e === "userinfo GET" ? load({ ...common, url: c.userinfo.url, headers: { authorization: `Bearer ${token}` }, verify: (b) => b.includes('"sub":"') && b.includes('"email":"bench@example.test"') })
    : load({ ...common, url: c.introspect.url, method: "POST", headers: { "content-type": FORM, authorization: c.introspect.authorization }, body: `token=${token}`, verify: (b) => b.includes('"active":true') }));
  return { load: result, cpuMs: processCpuMs([pid]) - before };
}

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
}
