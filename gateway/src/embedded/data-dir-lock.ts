import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { ConfigError } from "../../../services/kit/src/config.js";

/** A data directory held by this process until `release`. */
export interface DataDirLock {
  release(): void;
}

/**
 * Holds the embedded data directory for this process (DESIGN 2: one process per data dir; its
 * in-process bus could not reach a second one). The lock is SQLite's own exclusive lock on
 * `<dataDir>/tessera.lock`, a POSIX file lock: the kernel drops it when the process dies, however
 * it dies, so there is no stale lock to judge, and a second process (or a second suite in this
 * one) is refused at once instead of sharing the stores.
 *
 * Holding it is also what lets the services take over, at start, the outbox entries a crashed
 * predecessor left (ServiceDeps.soleProcess): no other process can be writing them, so their
 * revocations go out at once instead of after their lease.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, "tessera.lock");
  let db: Database.Database;
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    db = new Database(path, { timeout: 0 });
  } catch (e) {
    // Not writable, or not a directory: name the setting rather than fail with the errno's trace.
    throw new ConfigError("TESSERA_DATA_DIR", `cannot use ${dataDir}: ${(e as Error).message}`);
  }
  try {
    db.pragma("locking_mode = EXCLUSIVE");
    // The first write takes the exclusive lock; in EXCLUSIVE mode it is kept after the commit.
    db.exec("CREATE TABLE IF NOT EXISTS holder (pid INTEGER)");
    db.transaction(() => {
      db.exec("DELETE FROM holder");
      db.prepare("INSERT INTO holder (pid) VALUES (?)").run(process.pid);
    }).exclusive();
  } catch (e) {
    db.close();
    if ((e as { code?: string }).code === "SQLITE_BUSY") {
      throw new ConfigError("TESSERA_DATA_DIR", `${dataDir} is in use by another Tessera process; stop it, or give this one its own data directory`);
    }
    throw e;
  }
  return { release: () => db.close() };
}
