import { writeFileSync } from "node:fs";
import { recordQueryPlans } from "../../../services/kit/src/store/sqlite-query-plans.js";

/**
 * Loaded into an embedded server with `node --import` (test/e2e/query-plans.e2e.test.ts), before
 * the application: records SQLite's plan for every distinct statement the document store reads or
 * deletes with on a table, and writes them as JSON [[sql, plan], ...] to the file named by
 * TESSERA_TEST_QUERY_PLANS on SIGUSR2.
 */
const recording = recordQueryPlans((sql) => /FROM "[a-z_]+"/.test(sql) && /^\s*(SELECT|DELETE)/i.test(sql));

process.on("SIGUSR2", () => {
  writeFileSync(process.env.TESSERA_TEST_QUERY_PLANS!, JSON.stringify(recording.plans.map((p) => [p.sql, p.plan])));
});
