import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeTier } from "../support/tier.js";
import { SERVICE_NAMES, type ServiceName } from "../../services/kit/src/module.js";
import { generateMasterKey } from "../../services/kit/src/crypto/secret-box.js";
import { freePort } from "./support/free-port.js";
import { ARTIFACTS, startNode, waitForHttp, type RunningProcess } from "./support/process-runner.js";
import { logTails, Restartable } from "./support/restartable-server.js";
import { testServerEnv } from "./support/test-credentials.js";
import { balancer } from "../cluster/tcp-balancer.js";

/**
 * The cluster on one machine, with faults: every service its own process, two token-service
 * replicas behind a connection balancer (what a Kubernetes Service does: kube-proxy spreads
 * connections, not requests) and two gateways, on a MongoDB-wire server (FerretDB) and NATS
 * JetStream of this file's own, so they can be stopped without touching the suite's. Under a
 * steady load of client_credentials, password and refresh grants, revocations and admin writes,
 * one token replica is killed with SIGKILL, then NATS is down for 10 s, then the MongoDB-wire
 * server for 10 s, each brought back. Then nothing acknowledged may be missing: every refresh
 * token last handed out still refreshes, every acknowledged revocation holds, every created
 * user exists with exactly one admin event, every acknowledged password grant has its LOGIN
 * event and no grant has two. Failed requests and the time to recover are reported
 * (console and test/artifacts/cluster-faults.json).
 * TESSERA_TEST_FERRETDB_BIN names the FerretDB binary built from test/mongo (.ci/run builds it);
 * nats-server comes from PATH, as for the rest of the cluster tier (TESSERA_TEST_NATS_URL).
 */
const OUTAGE_MS = 10_000;
const REQUEST_TIMEOUT_MS = 20_000;
const RECOVERY_LIMIT_MS = 30_000;
/** A request during an outage is answered (503) within this, rather than held until it ends. */
const ANSWER_LIMIT_MS = 5_000;
const PASSWORD = "Fault-Tier-Pw-1";

type Kind = "client_credentials" | "password" | "refresh" | "revoke" | "admin_write";
const KINDS: Kind[] = ["client_credentials", "password", "refresh", "revoke", "admin_write"];

interface Sample { kind: Kind; start: number; end: number; status: number | "timeout" | "error"; ok: boolean; detail?: string }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeTier("cluster under faults (two token replicas, two gateways; SIGKILL, NATS and MongoDB outages)", ["TESSERA_TEST_FERRETDB_BIN", "TESSERA_TEST_NATS_URL"], () => {
  let work: string;
  let mongo: Restartable;
  let nats: Restartable;
  let lb: ReturnType<typeof balancer>;
  const procs = new Map<string, RunningProcess>();
  let env: Record<string, string>;
  let apiKey: string;
  let gateways: string[] = [];
  let tokenEnv: Record<string, Record<string, string>>;
  /** Per fault: requests, failures by kind and status, recovery time (set by the load test). */
  let outcome: Array<{ fault: string; failedStatuses: Record<string, number>; slowestMs: number }> | undefined;

  const startProcess = (name: string, entry: string, e: Record<string, string>, log = name) => procs.set(name, startNode(entry, e, `cluster-faults-${log}`));

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "tessera-faults-"));
    const mongoPort = await freePort();
    const natsPort = await freePort();
    mkdirSync(join(work, "fdb"));
    mongo = new Restartable("cluster-faults-ferretdb", process.env.TESSERA_TEST_FERRETDB_BIN as string, ["-listen", `127.0.0.1:${mongoPort}`, "-dir", join(work, "fdb")], mongoPort);
    nats = new Restartable("cluster-faults-nats", "nats-server", ["-a", "127.0.0.1", "-p", String(natsPort), "-js", "-sd", join(work, "nats")], natsPort);
    await Promise.all([mongo.start(), nats.start()]);

    const base = testServerEnv({
      TESSERA_STORE: "mongodb",
      TESSERA_MONGODB_URI: `mongodb://127.0.0.1:${mongoPort}`,
      TESSERA_MONGODB_DB_PREFIX: "faults",
      TESSERA_NATS_URL: `nats://127.0.0.1:${natsPort}`,
      TESSERA_MASTER_KEY: generateMasterKey(),
    });
    apiKey = base.apiKey;
    env = base.env;
    for (const s of SERVICE_NAMES) env[`TESSERA_${s.toUpperCase()}_URL`] = `http://127.0.0.1:${await freePort()}`;
    // Everyone dials the balancer for the token service; each replica listens on its own port.
    const lbPort = Number(new URL(env.TESSERA_TOKEN_URL!).port);
    const replicaPorts = [await freePort(), await freePort()];
    tokenEnv = {
      "token-a": { ...env, TESSERA_TOKEN_URL: `http://127.0.0.1:${replicaPorts[0]}` },
      "token-b": { ...env, TESSERA_TOKEN_URL: `http://127.0.0.1:${replicaPorts[1]}` },
    };
    lb = balancer(replicaPorts);
    await lb.listen(lbPort);
    for (const s of SERVICE_NAMES.filter((n: ServiceName) => n !== "token")) startProcess(s, `services/${s}/src/main.js`, env);
    startProcess("token-a", "services/token/src/main.js", tokenEnv["token-a"]!);
    startProcess("token-b", "services/token/src/main.js", tokenEnv["token-b"]!);
    for (const g of ["gateway-a", "gateway-b"]) {
      const port = await freePort();
      startProcess(g, "gateway/src/main.js", { ...env, TESSERA_PORT: String(port) });
      gateways.push(`http://127.0.0.1:${port}`);
    }
    for (const g of gateways) await waitForHttp(`${g}/health/ready`, [...procs.values()], 90_000);
  }, 150_000);

  afterAll(async () => {
    await Promise.all([...procs.values()].map((p) => p.stop()));
    lb?.close();
    await mongo?.stop("SIGTERM");
    await nats?.stop("SIGTERM");
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it("loses no acknowledged refresh token, revocation, admin write, admin or login event, duplicates none, and recovers on its own", async () => {
    const admin = { "x-admin-api-key": apiKey, "content-type": "application/json" };
    const g0 = gateways[0]!;
    const realm = `faults${Date.now().toString(36)}`;
    const post = (url: string, body: unknown) => fetch(url, { method: "POST", headers: admin, body: JSON.stringify(body) });
    expect((await post(`${g0}/admin/realms`, { name: realm, adminEventsEnabled: true, eventsEnabled: true, accessTokenLifespan: 600 })).status).toBe(201);
    const svc = await post(`${g0}/admin/realms/${realm}/clients`, { clientId: "svc", grantTypes: ["client_credentials"] });
    const app = await post(`${g0}/admin/realms/${realm}/clients`, { clientId: "app", grantTypes: ["password", "refresh_token"] });
    expect([svc.status, app.status]).toEqual([201, 201]);
    const svcSecret = (await svc.json() as { secret: string }).secret;
    const appSecret = (await app.json() as { secret: string }).secret;
    expect((await post(`${g0}/admin/realms/${realm}/users`, { username: "alice", password: PASSWORD })).status).toBe(201);

    const samples: Sample[] = [];
    let turn = 0;
    const gateway = () => gateways[turn++ % gateways.length]!;
    const basic = (id: string, s: string) => `Basic ${Buffer.from(`${id}:${s}`).toString("base64")}`;
    async function call(kind: Kind, url: string, init: RequestInit, want: number): Promise<{ ok: boolean; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
      const start = Date.now();
      let status: Sample["status"];
      let body: unknown;
      try {
        const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        status = res.status;
        const text = await res.text();
        body = text && (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text;
      } catch (e) {
        status = (e as Error).name === "TimeoutError" ? "timeout" : "error";
      }
      const ok = status === want;
      const detail = ok ? undefined : `${typeof body === "string" ? body : JSON.stringify(body)}`.slice(0, 160);
      samples.push({ kind, start, end: Date.now(), status, ok, ...(detail ? { detail } : {}) });
      return { ok, body };
    }
    const token = (kind: Kind, form: Record<string, string>, id: string, secret: string) => call(kind, `${gateway()}/realms/${realm}/protocol/openid-connect/token`, {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(id, secret) }, body: new URLSearchParams(form).toString(),
    }, 200);

    // What was acknowledged, to be found again at the end.
    const chains: Array<{ latest: string; broken: boolean }> = [];
    const revoked: string[] = [];
    const users: Array<{ username: string; id: string }> = [];
    let running = true;
    const pace = () => sleep(20);
    const loops = [
      (async () => { while (running) { await token("client_credentials", { grant_type: "client_credentials" }, "svc", svcSecret); await pace(); } })(),
      (async () => {
        while (running) {
          const first = await token("password", { grant_type: "password", username: "alice", password: PASSWORD }, "app", appSecret);
          if (!first.ok) { await pace(); continue; }
          const chain = { latest: first.body.refresh_token as string, broken: false };
          chains.push(chain);
          // Rotate along the chain; a failed refresh leaves its outcome unknown (the old token may
          // be spent), so that chain is left and a new one begins, as a client would.
          for (let i = 0; running && i < 20; i++) {
            const r = await token("refresh", { grant_type: "refresh_token", refresh_token: chain.latest }, "app", appSecret);
            if (!r.ok) { chain.broken = true; break; }
            chain.latest = r.body.refresh_token as string;
            await pace();
          }
        }
      })(),
      (async () => {
        while (running) {
          const t = await token("password", { grant_type: "password", username: "alice", password: PASSWORD }, "app", appSecret);
          if (t.ok) {
            const rt = t.body.refresh_token as string;
            const r = await call("revoke", `${gateway()}/realms/${realm}/protocol/openid-connect/revoke`, {
              method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic("app", appSecret) },
              body: new URLSearchParams({ token: rt, token_type_hint: "refresh_token" }).toString(),
            }, 200);
            if (r.ok) revoked.push(rt);
          }
          await pace();
        }
      })(),
      (async () => {
        for (let n = 0; running; n++) {
          const username = `u${n}-${Math.random().toString(36).slice(2, 6)}`;
          const r = await call("admin_write", `${gateway()}/admin/realms/${realm}/users`, { method: "POST", headers: admin, body: JSON.stringify({ username }) }, 201);
          if (r.ok) users.push({ username, id: r.body.id as string });
          await pace();
        }
      })(),
    ];

    // The faults, each with the moment it began and the moment its cause was gone.
    const faults: Array<{ name: string; start: number; end: number }> = [];
    /**
     * Keeps the load running after a fault for at least `minMs`, and on until every kind of
     * request has succeeded again with a request begun after the fault's end (or the recovery
     * limit has passed), so a slow recovery on a busy machine is measured rather than cut off.
     */
    const settle = async (f: { end: number }, minMs: number) => {
      await sleep(minMs);
      const recovered = () => KINDS.every((k) => samples.some((s) => s.kind === k && s.ok && s.start >= f.end));
      while (!recovered() && Date.now() - f.end < RECOVERY_LIMIT_MS) await sleep(250);
      await sleep(1_000);
    };
    await sleep(4_000);
    let start = Date.now();
    await procs.get("token-a")!.stop("SIGKILL");
    let end = Date.now();
    faults.push({ name: "token replica SIGKILL", start, end });
    await sleep(3_000);
    startProcess("token-a", "services/token/src/main.js", tokenEnv["token-a"]!, "token-a-restarted");
    await sleep(5_000);

    start = Date.now();
    await nats.stop();
    await sleep(OUTAGE_MS);
    await nats.start();
    faults.push({ name: "NATS down 10 s", start, end: Date.now() });
    await settle(faults.at(-1)!, 8_000);

    start = Date.now();
    await mongo.stop();
    await sleep(OUTAGE_MS);
    await mongo.start();
    faults.push({ name: "MongoDB-wire down 10 s", start, end: Date.now() });
    await settle(faults.at(-1)!, 12_000);
    running = false;
    await Promise.all(loops);

    // Recovery: from the fault's end until every kind has succeeded with a request begun after it.
    const report = faults.map((f, i) => {
      const until = faults[i + 1]?.start ?? Infinity;
      // A request belongs to the window it ended in: one begun just before a fault and cut by it
      // is that fault's failure.
      const within = samples.filter((s) => s.end >= f.start && s.end < until);
      const recoveredAt = Math.max(...KINDS.map((k) => Math.min(...within.filter((s) => s.kind === k && s.ok && s.start >= f.end).map((s) => s.end))));
      const failed = within.filter((s) => !s.ok);
      const statuses: Record<string, number> = {};
      for (const s of failed) statuses[`${s.kind} ${s.status}`] = (statuses[`${s.kind} ${s.status}`] ?? 0) + 1;
      return {
        fault: f.name, requests: within.length, failed: failed.length, failedStatuses: statuses,
        failures: failed.slice(0, 5).map((s) => `${s.kind} ${s.status} ${s.detail ?? ""}`),
        slowestFailureMs: Math.max(0, ...failed.map((s) => s.end - s.start)),
        slowestMs: Math.max(0, ...within.map((s) => s.end - s.start)),
        recoveryMs: Number.isFinite(recoveredAt) ? Math.max(0, recoveredAt - f.end) : null,
      };
    });
    const steady = samples.filter((s) => s.end < faults[0]!.start);
    const steadyFailed = steady.filter((s) => !s.ok).map((s) => `${s.kind} ${s.status} ${s.detail ?? ""}`);
    const summary = { steady: { requests: steady.length, failed: steadyFailed.length, failedStatuses: steadyFailed }, faults: report,
      passwordGrants: { attempted: samples.filter((s) => s.kind === "password").length, acknowledged: samples.filter((s) => s.kind === "password" && s.ok).length },
      acknowledged: { refreshChains: chains.filter((c) => !c.broken).length, revocations: revoked.length, users: users.length } };
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, "cluster-faults.json"), JSON.stringify(summary, null, 2));
    process.stdout.write(`cluster faults: ${JSON.stringify(summary, null, 2)}\n`);

    // Nothing acknowledged is missing (checked through the second gateway as well as the first).
    const check = (url: string, init: RequestInit) => fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const refreshWith = (g: string, rt: string) => check(`${g}/realms/${realm}/protocol/openid-connect/token`, {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic("app", appSecret) },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: rt }).toString(),
    });
    const intact = chains.filter((c) => !c.broken);
    const refreshes = await Promise.all(intact.map(async (c, i) => (await refreshWith(gateways[i % 2]!, c.latest)).status));
    expect(refreshes.filter((s) => s !== 200)).toEqual([]);
    const afterRevoke = await Promise.all(revoked.map(async (rt, i) => {
      const r = await refreshWith(gateways[i % 2]!, rt);
      return `${r.status} ${(await r.json() as { error: string }).error}`;
    }));
    expect(afterRevoke.filter((s) => s !== "400 invalid_grant")).toEqual([]);
    const found = await Promise.all(users.map(async (u, i) => (await check(`${gateways[i % 2]}/admin/realms/${realm}/users/${u.id}`, { headers: admin })).status));
    expect(found.filter((s) => s !== 200)).toEqual([]);
    // Exactly one CREATE USER admin event per acknowledged user (none lost, none duplicated),
    // once the relays have caught up.
    const createdPaths = new Set(users.map((u) => `users/${u.id}`));
    let counts = new Map<string, number>();
    let ids: string[] = [];
    for (const until = Date.now() + 30_000; Date.now() < until;) {
      const events: Array<{ id: string; resourcePath: string }> = [];
      for (let first = 0; ; first += 1000) {
        const page = await check(`${g0}/admin/realms/${realm}/admin-events?operationType=CREATE&resourceType=USER&first=${first}&max=1000`, { headers: admin });
        expect(page.status).toBe(200);
        const batch = await page.json() as Array<{ id: string; resourcePath: string }>;
        events.push(...batch);
        if (batch.length < 1000) break;
      }
      counts = new Map();
      for (const e of events) counts.set(e.resourcePath, (counts.get(e.resourcePath) ?? 0) + 1);
      ids = events.map((e) => e.id);
      if ([...createdPaths].every((p) => counts.has(p))) break;
      await sleep(500);
    }
    expect([...createdPaths].filter((p) => counts.get(p) !== 1)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);

    // Login events: one LOGIN per password grant. Every acknowledged grant has its event (none
    // lost); there are no more than grants attempted (a failed one may have logged before it
    // failed), so none is duplicated; and each is stored once by its id.
    const grants = samples.filter((s) => s.kind === "password");
    const acknowledgedLogins = grants.filter((s) => s.ok).length;
    let logins: Array<{ id: string }> = [];
    for (const until = Date.now() + 30_000; Date.now() < until;) {
      logins = [];
      for (let first = 0; ; first += 1000) {
        const page = await check(`${g0}/admin/realms/${realm}/events?type=LOGIN&clientId=app&first=${first}&max=1000`, { headers: admin });
        expect(page.status).toBe(200);
        const batch = await page.json() as Array<{ id: string }>;
        logins.push(...batch);
        if (batch.length < 1000) break;
      }
      if (logins.length >= acknowledgedLogins) break;
      await sleep(500);
    }
    expect(logins.length).toBeGreaterThanOrEqual(acknowledgedLogins);
    expect(logins.length).toBeLessThanOrEqual(grants.length);
    expect(new Set(logins.map((e) => e.id)).size).toBe(logins.length);

    // The load really ran through every fault, and steady state was clean.
    expect(summary.steady.failed).toBe(0);
    expect(intact.length).toBeGreaterThan(0);
    expect([revoked.length > 0, users.length > 0]).toEqual([true, true]);
    // Every kind of request succeeded again, on its own, soon after each fault's cause was gone.
    for (const r of report) {
      const recovered = r.recoveryMs !== null && r.recoveryMs <= RECOVERY_LIMIT_MS;
      // On a failure, what the servers said last, since CI keeps only the console.
      expect([r.fault, recovered, recovered ? [] : logTails(["ferretdb", "nats", "token-b", "gateway-a"].map((n) => `cluster-faults-${n}`))]).toEqual([r.fault, true, []]);
    }
    outcome = report;
  }, 240_000);

  // A JetStream publish timeout and a MongoDB server-selection or network error are Unavailable,
  // answered 503; a request during the MongoDB outage waits at most
  // TESSERA_MONGODB_SELECTION_TIMEOUT_MS (2 s) per store operation for a server before it is answered.
  it("answered 503 while a dependency was down, never another error or a hang", () => {
    expect(outcome).toBeDefined();
    for (const r of outcome!) {
      expect([r.fault, Object.keys(r.failedStatuses).filter((s) => !s.endsWith(" 503"))]).toEqual([r.fault, []]);
      // Answered, one way or the other, without making the caller wait out the outage.
      expect([r.fault, r.slowestMs <= ANSWER_LIMIT_MS]).toEqual([r.fault, true]);
    }
  });
});
