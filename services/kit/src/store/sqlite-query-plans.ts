import Database from "better-sqlite3";

/** A statement the SQLite store ran, with SQLite's plan for it. */
export interface QueryPlan {
  sql: string;
  plan: string;
}

/** Statements reading a table the way the document store does: `SELECT doc FROM "<table>" ...`. */
export function selectsFrom(table: string): (sql: string) => boolean {
  const prefix = `SELECT doc FROM "${table}"`;
  return (sql) => sql.trimStart().startsWith(prefix);
}

/**
 * Test support: records the query plan (`EXPLAIN QUERY PLAN`, with the parameters of its first run)
 * of every distinct statement matching `match` that SQLite runs while recording, so a test can
 * assert which index a lookup uses. Wraps better-sqlite3's `prepare`, so it must start before the
 * store prepares the statements (they are cached); `stop()` restores it. Used in-process by unit
 * tests and, loaded with `--import`, in an e2e server (test/e2e/support/query-plans-preload.ts).
 */
export function recordQueryPlans(match: (sql: string) => boolean): { plans: QueryPlan[]; stop(): void } {
  const prepare = Database.prototype.prepare;
  const plans: QueryPlan[] = [];
  const seen = new Set<string>();
  type Runs = Record<string, ((...args: unknown[]) => unknown) | undefined>;
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    const statement = prepare.call(this, sql);
    if (!match(sql)) return statement;
    const db = this;
    const runs = statement as unknown as Runs;
    for (const method of ["run", "get", "all", "iterate"]) {
      const original = runs[method];
      if (typeof original !== "function") continue;
      runs[method] = function (this: unknown, ...args: unknown[]) {
        if (!seen.has(sql)) {
          seen.add(sql);
          const explained = prepare.call(db, `EXPLAIN QUERY PLAN ${sql}`) as unknown as { all: (...a: unknown[]) => Array<{ detail: string }> };
          plans.push({ sql, plan: explained.all(...args).map((r) => r.detail).join(" | ") });
        }
        return original.apply(this, args);
      };
    }
    return statement;
  } as typeof prepare;
  return { plans, stop: () => { Database.prototype.prepare = prepare; } };
}
