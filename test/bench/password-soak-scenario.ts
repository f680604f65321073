import autocannon from "autocannon";
import { adminApi } from "../e2e/support/http.js";
import { startTessera } from "./tessera-target.js";
import type { Row } from "./client-credentials-scenario.js";

/**
 * `n` password grants under load with zero non-2xx answers (the target: 10,000), at production argon2id,
 * 16 connections, on two fresh realms of one embedded server, brute-force detection off and on;
 * each realm's very first token request is part of the load (its signing key is created under it,
 * where a race once answered 500). Every body must carry an access token.
 */
export async function passwordSoak(n: number, connections: number): Promise<Row[]> {
  const t = await startTessera({ alg: "RS256" });
  try {
    const api = adminApi(t.baseUrl, t.apiKey);
    const rows: Row[] = [];
    for (const bruteForce of [false, true]) {
      const realm = `soak-${bruteForce ? "bf" : "plain"}`;
      const must = (status: number, what: string) => { if (status >= 300) throw new Error(`${what}: HTTP ${status}`); };
      must((await api.post("/admin/realms", { name: realm, bruteForceEnabled: bruteForce })).status, "create realm");
      const client = await api.post(`/admin/realms/${realm}/clients`, { clientId: "soak", redirectUris: ["http://127.0.0.1:9/cb"], grantTypes: ["password", "refresh_token"] });
      must(client.status, "create client");
      must((await api.post(`/admin/realms/${realm}/users`, { username: "soak-user", password: t.password })).status, "create user");
      let mismatches = 0;
      const r = await autocannon({
        url: `${t.baseUrl}/realms/${realm}/protocol/openid-connect/token`, method: "POST", connections, amount: n, timeout: 60,
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`soak:${client.body.secret as string}`).toString("base64")}` },
        body: new URLSearchParams({ grant_type: "password", username: "soak-user", password: t.password }).toString(),
        verifyBody: (b: string | Buffer | undefined) => { const ok = String(b ?? "").includes('"access_token":"'); if (!ok) mismatches++; return ok; },
      });
      const codes = Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => `${code}: ${(s as { count: number }).count}`).join(", ");
      rows.push({
        scenario: `password grant soak, brute-force detection ${bruteForce ? "on" : "off"}`, target: t.label, rps: r.requests.average,
        runs: [], p99ms: r.latency.p99, bad: r.non2xx + mismatches + r.errors + r.timeouts,
        note: `${r.requests.total} grants from a fresh realm, ${connections} connections; statuses ${codes}; errors ${r.errors}, timeouts ${r.timeouts}`,
      });
    }
    return rows;
  } finally {
    await t.stop();
  }
}
