import Database from "better-sqlite3";

/** One SELECT the SQLite store ran, with SQLite's plan for it. */
export interface QueryPlan {
  sql: string;
  plan: string;
}

/**
 * Test support: records the query plan (`EXPLAIN QUERY PLAN`, with the parameters of the run) of
 * every `SELECT doc FROM "<table>"` the SQLite store runs through `all` while recording, so a test
 * can assert which index a repository's lookup uses. Wraps better-sqlite3's `prepare`; `stop()`
 * restores it. Start it before the store prepares the statements (statements are cached).
 */
export function recordQueryPlans(table: string): { plans: QueryPlan[]; stop(): void } {
  const prepare = Database.prototype.prepare;
  const plans: QueryPlan[] = [];
  const prefix = `SELECT doc FROM "${table}"`;
  type All = { all: (...args: unknown[]) => unknown[] };
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    const statement = prepare.call(this, sql);
    if (!sql.trimStart().startsWith(prefix)) return statement;
    const db = this;
    const all = (statement as unknown as All).all.bind(statement);
    (statement as unknown as All).all = (...args: unknown[]) => {
      const explained = prepare.call(db, `EXPLAIN QUERY PLAN ${sql}`) as unknown as All;
      plans.push({ sql, plan: (explained.all(...args) as Array<{ detail: string }>).map((r) => r.detail).join(" | ") });
      return all(...args);
    };
    return statement;
  } as typeof prepare;
  return { plans, stop: () => { Database.prototype.prepare = prepare; } };
}
