import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pbkdf2Sync, randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { adminApi, uniqueName } from "./support/http.js";
import { eventually } from "./support/targets.js";
import { startEmbeddedServer, type TestServer } from "./support/embedded-server.js";

// A realm import killed part-way (spec 4.1: "a failure part-way leaves no half-imported realm").
// The import writes under a staging realm the directory rolls back when its importer is gone; in
// embedded mode the restarted process is the store's only user and rolls it back at start. The
// test reads the directory's SQLite file (read-only) to kill the server exactly while users are
// being written: embedded mode only, since it owns the process it kills.
describe("realm import killed mid-way (embedded)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "tessera-import-crash-"));
  let server: TestServer | undefined;
  afterAll(async () => server?.stop());

  const USERS = 20_000;
  const hash = `$pbkdf2-sha256$i=1000$${Buffer.from("salt-salt-salt-1").toString("base64")}$${pbkdf2Sync("pw-crash-test", "salt-salt-salt-1", 1000, 32, "sha256").toString("base64")}`;
  function document(name: string) {
    const settings = {
      name, displayName: "", enabled: true, accessTokenLifespan: 300, refreshTokenLifespan: 1800, offlineTokenLifespan: 2_592_000, ssoSessionMaxLifespan: 36_000,
      smtpHost: "", smtpPort: 587, smtpUser: "", smtpFrom: "", smtpSecure: false, passwordMinLength: 8, passwordRequireUppercase: false,
      passwordRequireLowercase: false, passwordRequireDigits: false, passwordRequireSpecialChars: false, passwordHistoryCount: 0, passwordMaxAgeDays: 0,
      bruteForceEnabled: false, maxLoginFailures: 5, lockoutDuration: 900, failureResetTime: 43_200, permanentLockoutAfter: 0, registrationAllowed: false,
      requireEmailVerification: false, mfaRequired: false, eventsEnabled: false, eventsExpiration: 604_800, adminEventsEnabled: false,
      themeName: "tessera", theme: {}, loginTheme: "tessera", accountTheme: "tessera", emailTheme: "tessera", rateLimitPerIp: 0, rateLimitPerClient: 0,
    };
    return {
      formatVersion: 1, realm: settings, roles: [], clientScopes: [], clients: [], groups: [], identityProviders: [], userFederationProviders: [], samlServiceProviders: [],
      users: Array.from({ length: USERS }, (_, i) => ({
        id: randomUUID(), username: `user-${i}`, email: "", firstName: "", lastName: "", enabled: true, emailVerified: false, requirePasswordReset: false,
        createdAt: 1_700_000_000_000, credentials: [{ type: "password", passwordHash: hash, temporary: false, createdAt: 1_700_000_000_000 }],
        realmRoles: [], clientRoles: {}, groups: [], federatedIdentities: [],
      })),
    };
  }

  /** The staging realm's id and how many users the directory holds under it (read-only, beside the server). */
  function staging(name: string): { id: string | undefined; staging: boolean; users: number } {
    const db = new Database(join(dataDir, "directory.db"), { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare(`SELECT doc FROM "realms" WHERE json_extract(doc, '$.name') = ?`).get(name) as { doc: string } | undefined;
      if (!row) return { id: undefined, staging: false, users: 0 };
      const realm = JSON.parse(row.doc) as { _id: string; importHeartbeatAt?: number };
      const users = (db.prepare(`SELECT count(*) AS n FROM "users" WHERE json_extract(doc, '$.realmId') = ?`).get(realm._id) as { n: number }).n;
      return { id: realm._id, staging: realm.importHeartbeatAt !== undefined, users };
    } finally {
      db.close();
    }
  }

  function usersOf(realmId: string): number {
    const db = new Database(join(dataDir, "directory.db"), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare(`SELECT count(*) AS n FROM "users" WHERE json_extract(doc, '$.realmId') = ?`).get(realmId) as { n: number }).n;
    } finally {
      db.close();
    }
  }

  it("rolls the staging realm back on restart: no realm, no users, and the same import then succeeds", async () => {
    server = await startEmbeddedServer("import-crash", { TESSERA_DATA_DIR: dataDir });
    const api = adminApi(server.url, server.apiKey);
    const name = uniqueName("crash");
    const doc = document(name);
    const pending = api.post("/admin/realms/import", doc).catch((e: unknown) => e);
    let seen = { id: undefined as string | undefined, staging: false, users: 0 };
    for (let i = 0; i < 1000 && !(seen.staging && seen.users > 0); i++) {
      await new Promise((r) => setTimeout(r, 10));
      seen = staging(name);
    }
    // Killed while the staging realm holds some of the users, not all.
    expect(seen.staging).toBe(true);
    expect(seen.users).toBeGreaterThan(0);
    expect(seen.users).toBeLessThan(USERS);
    await server.process!.stop("SIGKILL");
    // The request never got an answer: the connection died with the process.
    expect(String(await pending)).toMatch(/fetch failed/);

    server = await startEmbeddedServer("import-crash-2", { TESSERA_DATA_DIR: dataDir, TESSERA_ADMIN_API_KEY: server.apiKey });
    const again = adminApi(server.url, server.apiKey);
    expect((await again.get(`/admin/realms/${name}`)).status).toBe(404);
    expect(staging(name).id).toBeUndefined();
    // realm.deleted makes the directory drop what the import wrote.
    expect(await eventually(async () => usersOf(seen.id!), (n) => n === 0, 30_000)).toBe(0);

    const ok = await again.post("/admin/realms/import", doc);
    expect(ok.status).toBe(201);
    const list = await again.get(`/admin/realms/${name}/users?limit=1`);
    expect(list.body.total).toBe(USERS);
  }, 180_000);
});
