import { adminApi } from "../e2e/support/http.js";
import { freePort } from "../e2e/support/free-port.js";
import { addOu, addPerson, addReader, PrivateSlapd, withLdap } from "../support/slapd.js";
import { rssOf, signedMb } from "./bench-kit.js";
import type { Row } from "./client-credentials-scenario.js";
import { startTessera } from "./tessera-target.js";

/**
 * A full LDAP sync of `entries` inetOrgPerson entries (spec 4.11) from a private OpenLDAP slapd
 * (the Debian package), through the Admin API of an embedded Tessera pinned to the server core:
 * the first sync creates every user, a second one finds nothing changed. Reported: each sync's
 * time and entries per second, and the server's RSS before and its peak during the first sync
 * (read every 50 ms from /proc). The sync binds as a reader the 500-entry size limit applies to,
 * so the search is paged (RFC 2696, 500 a page).
 */
export async function ldapSync(entries = 10_000): Promise<Row[]> {
  const slapd = new PrivateSlapd(await freePort());
  await slapd.start();
  try {
    await slapd.seedBase();
    const { usersDn, readerDn } = await withLdap(slapd.target, async (c) => {
      const dn = await addOu(c, slapd.target.baseDn, "people");
      const readerDn = await addReader(c, dn, "reader", "Reader-Pass-1");
      for (let i = 0; i < entries; i += 100) {
        await Promise.all(Array.from({ length: Math.min(100, entries - i) }, (_, k) => addPerson(c, dn, {
          uid: `user${i + k}`, givenName: `Given${i + k}`, sn: `Sn${i + k}`, mail: `user${i + k}@corp.test`,
        })));
      }
      return { usersDn: dn, readerDn };
    });
    const t = await startTessera({ alg: "RS256", cheapHashing: true });
    try {
      const admin = adminApi(t.baseUrl, t.apiKey);
      const p = await admin.post(`/admin/realms/${t.realm}/user-federation`, {
        name: "bench", providerType: "ldap", connectionUrl: slapd.url, bindDn: readerDn, bindCredential: "Reader-Pass-1", usersDn, connectionTimeout: 60,
      });
      if (p.status !== 201) throw new Error(`create provider: HTTP ${p.status}`);
      const pid = t.pid as number;
      const before = rssOf(pid);
      let peak = before;
      const sampler = setInterval(() => { peak = Math.max(peak, rssOf(pid)); }, 50);
      const run = async () => {
        const started = process.hrtime.bigint();
        const res = await admin.post(`/admin/realms/${t.realm}/user-federation/${p.body.id}/sync`);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (res.status !== 200) throw new Error(`sync: HTTP ${res.status} ${res.text.slice(0, 200)}`);
        return { ms, body: res.body as { created: number; updated: number; failed: number; removed: number } };
      };
      const first = await run();
      clearInterval(sampler);
      const second = await run();
      const bad = first.body.created !== entries || first.body.failed !== 0 ? 1 : 0;
      const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;
      return [
        {
          scenario: `LDAP full sync, ${entries} entries`, target: "Tessera (embedded) + OpenLDAP slapd", rps: entries / (first.ms / 1000), runs: [], p99ms: 0, bad,
          note: `entries/s; first sync ${(first.ms / 1000).toFixed(1)} s (created ${first.body.created}, failed ${first.body.failed}); `
            + `server RSS ${mb(before)} before, peak ${mb(peak)} during it (${signedMb(peak - before)}); `
            + `unchanged re-sync ${(second.ms / 1000).toFixed(1)} s (updated ${second.body.updated})`,
        },
      ];
    } finally {
      await t.stop();
    }
  } finally {
    await slapd.destroy();
  }
}

