// Test aid, preloaded into an embedded server with `node -r` (test/e2e/query-plans.e2e.test.ts):
// records SQLite's plan (EXPLAIN QUERY PLAN, with the first run's parameters) for every distinct
// statement the document store runs on a table (`... FROM "<table>" ...`), and writes them as JSON
// [[sql, plan], ...] to the file named by TESSERA_TEST_QUERY_PLANS on SIGUSR2. CommonJS, because a
// preload runs before the ESM application loads.
const { writeFileSync } = require("node:fs");
const Database = require("better-sqlite3");

const plans = new Map();
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (sql) {
  const statement = prepare.call(this, sql);
  if (!/FROM "[a-z_]+"/.test(sql) || !/^\s*(SELECT|DELETE)/i.test(sql)) return statement;
  const db = this;
  for (const method of ["run", "get", "all", "iterate"]) {
    const original = statement[method];
    if (typeof original !== "function") continue;
    statement[method] = function (...args) {
      if (!plans.has(sql)) {
        try {
          plans.set(sql, prepare.call(db, `EXPLAIN QUERY PLAN ${sql}`).all(...args).map((r) => r.detail).join(" | "));
        } catch (e) {
          plans.set(sql, `EXPLAIN failed: ${e.message}`);
        }
      }
      return original.apply(this, args);
    };
  }
  return statement;
};

process.on("SIGUSR2", () => writeFileSync(process.env.TESSERA_TEST_QUERY_PLANS, JSON.stringify([...plans])));
