// `npm start`: refuse at once when another Tessera holds the data directory, rebuild only what is
// stale (protos -> gen/ with buf, TypeScript -> dist/ with an incremental tsc, console/ ->
// dist/console/ with vite), then run the embedded suite in this same process. Nothing changed:
// no build, about a second to /health.
// `node scripts/start.mjs --build-only` builds what is stale and stops (no lock check);
// `--mark-built` records that dist/ is up to date (after `npm run build`'s clean compile).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const builtStamp = join(dist, ".tessera-built");
const entry = join(dist, "gateway", "src", "main-embedded.js");
const args = new Set(process.argv.slice(2));

/** The newest and oldest modification times of the files under `dirs` that `keep` accepts (and of the directories: a deleted file changes its directory's). */
function mtimes(dirs, keep) {
  let newest = 0;
  let oldest = Infinity;
  let files = 0;
  const skip = new Set(["node_modules", "dist", "target", "artifacts", "tmp", "__pycache__", ".pytest_cache"]);
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    newest = Math.max(newest, statSync(dir).mtimeMs);
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (!skip.has(e.name)) walk(path);
      } else if (keep(e.name)) {
        const m = statSync(path).mtimeMs;
        newest = Math.max(newest, m);
        oldest = Math.min(oldest, m);
        files++;
      }
    }
  };
  for (const d of dirs) walk(join(root, d));
  return { newest, oldest, files };
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function run(command, argv) {
  const bin = join(root, "node_modules", ".bin", command);
  const r = spawnSync(bin, argv, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) {
    process.stderr.write(`tessera: ${command} ${argv.join(" ")} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status ?? 1);
  }
}

/**
 * The data directory's lock (gateway/src/embedded/data-dir-lock.ts: SQLite's exclusive lock on
 * <dataDir>/tessera.lock, a kernel file lock) tried and released before anything is built, so a
 * second start against a running instance is refused in a moment and never rebuilds the dist/
 * the first one runs from. The server takes the lock for real when it starts.
 */
async function refuseIfHeld() {
  const dataDir = process.env.TESSERA_DATA_DIR || "./data";
  const lockFile = join(dataDir, "tessera.lock");
  if (dataDir === ":memory:" || !existsSync(lockFile)) return;
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(lockFile, { fileMustExist: true, timeout: 0 });
  try {
    db.exec("BEGIN EXCLUSIVE");
    db.exec("ROLLBACK");
  } catch (e) {
    if (e.code !== "SQLITE_BUSY") throw e;
    process.stderr.write(`tessera: configuration error: TESSERA_DATA_DIR: ${dataDir} is in use by another Tessera process; stop it, or give this one its own data directory\n`);
    process.exit(78);
  } finally {
    db.close();
  }
}

function markBuilt(at) {
  mkdirSync(dist, { recursive: true });
  writeFileSync(builtStamp, "");
  // The time the build started: a source saved while it ran is newer, so the next start builds again.
  utimesSync(builtStamp, at / 1000, at / 1000);
}

function buildIfStale() {
  const protos = mtimes(["proto"], (n) => n.endsWith(".proto"));
  const protoConfig = Math.max(mtime(join(root, "buf.yaml")), mtime(join(root, "buf.gen.yaml")));
  const generated = mtimes(["gen"], (n) => n.endsWith(".ts"));
  // buf generate rewrites every file of gen/ (clean: true), so its oldest file dates the generation.
  if (generated.files === 0 || Math.max(protos.newest, protoConfig) > generated.oldest) {
    process.stdout.write(generated.files === 0 ? "tessera: generating gen/ from the protos (buf generate)\n" : "tessera: protos changed; generating gen/ (buf generate)\n");
    run("buf", ["generate"]);
  }
  const sources = mtimes(["services", "gateway", "test", "gen"], (n) => n.endsWith(".ts"));
  const config = Math.max(mtime(join(root, "tsconfig.json")), mtime(join(root, "package-lock.json")));
  const built = existsSync(entry) ? mtime(builtStamp) : 0;
  if (Math.max(sources.newest, config) > built) {
    const started = Date.now();
    process.stdout.write(built === 0 ? "tessera: compiling (tsc)\n" : "tessera: sources changed; compiling what changed (tsc --incremental)\n");
    run("tsc", ["-p", "tsconfig.json", "--incremental"]);
    markBuilt(started);
  }
  // The consoles (console/, Vite): rebuilt when a source is newer than the built document.
  const consoleSources = mtimes(["console"], (n) => /\.(tsx?|css|html|mjs|json)$/.test(n));
  const consoleBuilt = mtime(join(dist, "console", "admin.html"));
  if (consoleSources.files > 0 && Math.max(consoleSources.newest, mtime(join(root, "package-lock.json"))) > consoleBuilt) {
    process.stdout.write(consoleBuilt === 0 ? "tessera: building the consoles (vite)\n" : "tessera: console sources changed; building the consoles (vite)\n");
    run("vite", ["build", "--config", "console/vite.config.mjs", "--logLevel", "warn"]);
  }
}

if (args.has("--mark-built")) {
  markBuilt(Date.now());
} else if (args.has("--build-only")) {
  buildIfStale();
} else {
  await refuseIfHeld();
  buildIfStale();
  await import(pathToFileURL(entry).href);
}
