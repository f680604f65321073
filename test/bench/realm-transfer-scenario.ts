import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pbkdf2Sync, randomBytes, randomUUID } from "node:crypto";
import { freePort } from "../e2e/support/free-port.js";
import { startPinned } from "./bench-kit.js";
import type { Row } from "./client-credentials-scenario.js";

/** The server's peak resident set since the last reset (VmHWM), MB. */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}

/** Resets the peak (Linux clear_refs "5"), so each phase reports its own. */
function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch { /* not permitted: the peak then covers both phases */ }
}

/**
 * Realm export and import at 100,000 users (spec 4.1, "large realms stream"): one embedded server
 * pinned to the server core; the import of a document of `users` users (each with a PBKDF2 hash,
 * two realm roles and a group), then its export with includeUsers, read as a stream, from a
 * restarted server. Reported: time, users per second, and the server's peak RSS in each phase.
 */
export async function realmTransfer(users = 100_000): Promise<Row[]> {
  const port = await freePort();
  const apiKey = `bench-${randomBytes(8).toString("hex")}`;
  const env = {
    TESSERA_PORT: String(port), TESSERA_HOST: "127.0.0.1", TESSERA_DATA_DIR: mkdtempSync(join(tmpdir(), "tessera-bench-xfer-")),
    TESSERA_ADMIN_API_KEY: apiKey, TESSERA_LOG_LEVEL: "warn",
  };
  const start = () => startPinned("tessera", "gateway/src/main-embedded.js", [], env, `http://localhost:${port}/health/ready`);
  let server = await start();
  let pid = server.child.pid!;
  const headers = { "X-Admin-API-Key": apiKey, "content-type": "application/json" };
  const rows: Row[] = [];
  try {
    const salt = randomBytes(16);
    const hash = `$pbkdf2-sha512$i=210000$${salt.toString("base64")}$${pbkdf2Sync("bench-password", salt, 1000, 64, "sha512").toString("base64")}`;
    const realm = `bench-xfer-${Date.now().toString(36)}`;
    const doc = JSON.stringify({
      formatVersion: 1,
      realm: {
        name: realm, displayName: "", enabled: true, accessTokenLifespan: 300, refreshTokenLifespan: 1800, offlineTokenLifespan: 2_592_000,
        ssoSessionMaxLifespan: 36_000, smtpHost: "", smtpPort: 587, smtpUser: "", smtpFrom: "", smtpSecure: false, passwordMinLength: 8,
        passwordRequireUppercase: false, passwordRequireLowercase: false, passwordRequireDigits: false, passwordRequireSpecialChars: false,
        passwordHistoryCount: 0, passwordMaxAgeDays: 0, bruteForceEnabled: false, maxLoginFailures: 5, lockoutDuration: 900,
        failureResetTime: 43_200, permanentLockoutAfter: 0, registrationAllowed: false, requireEmailVerification: false, mfaRequired: false,
        eventsEnabled: false, eventsExpiration: 604_800, adminEventsEnabled: false, themeName: "tessera", theme: {}, loginTheme: "tessera",
        accountTheme: "tessera", emailTheme: "tessera", rateLimitPerIp: 0, rateLimitPerClient: 0,
      },
      roles: [{ id: randomUUID(), name: "reader" }, { id: randomUUID(), name: "writer" }],
      clientScopes: [], clients: [], groups: [{ id: randomUUID(), name: "staff", realmRoles: [], clientRoles: {}, subGroups: [] }],
      identityProviders: [], userFederationProviders: [], samlServiceProviders: [],
      users: Array.from({ length: users }, (_, i) => ({
        id: randomUUID(), username: `user-${i}`, email: `user-${i}@bench.test`, firstName: "Bench", lastName: String(i), enabled: true,
        emailVerified: true, requirePasswordReset: false, createdAt: 1_700_000_000_000,
        credentials: [{ type: "password", passwordHash: hash, temporary: false, createdAt: 1_700_000_000_000 }],
        realmRoles: ["reader", "writer"], clientRoles: {}, groups: ["/staff"], federatedIdentities: [],
      })),
    });
    const mb = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`;
    resetPeak(pid);
    let t0 = performance.now();
    const imported = await fetch(`http://localhost:${port}/admin/realms/import`, { method: "POST", headers, body: doc });
    const importSeconds = (performance.now() - t0) / 1000;
    await imported.text();
    rows.push({
      scenario: "realm-transfer", target: `embedded import ${users.toLocaleString("en")} users`, rps: users / importSeconds,
      runs: [Number(importSeconds.toFixed(1))], p99ms: 0, bad: imported.status === 201 ? 0 : 1,
      note: `${importSeconds.toFixed(1)} s for a ${mb(doc.length)} document; server peak RSS ${peakRssMb(pid)} MB (status ${imported.status})`,
    });

    // The export runs in a fresh process on the same data: its peak is the export's own, not
    // the import's garbage still resident.
    await server.stop();
    server = await start();
    pid = server.child.pid!;
    const idleMb = peakRssMb(pid);
    resetPeak(pid);
    t0 = performance.now();
    const res = await fetch(`http://localhost:${port}/admin/realms/${realm}/export?includeUsers=true`, { headers });
    let bytes = 0;
    let text = "";
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      text += decoder.decode(chunk, { stream: true });
    }
    const exportSeconds = (performance.now() - t0) / 1000;
    const exportedUsers = (JSON.parse(text) as { users?: unknown[] }).users?.length ?? 0;
    rows.push({
      scenario: "realm-transfer", target: `embedded export ${users.toLocaleString("en")} users (streamed)`, rps: users / exportSeconds,
      runs: [Number(exportSeconds.toFixed(1))], p99ms: 0, bad: exportedUsers === users ? 0 : 1,
      note: `${exportSeconds.toFixed(1)} s, ${mb(bytes)}; server peak RSS ${peakRssMb(pid)} MB (${idleMb} MB after start); ${exportedUsers} users in the document`,
    });
  } finally {
    await server.stop();
  }
  return rows;
}
