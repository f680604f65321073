import type { Logger } from "pino";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { ProviderRecord, SyncResultRecord } from "./provider.js";
import { LdapFailure, LdapSession } from "./ldap-connection.js";
import { attributesToRead, mapEntry, type MappedEntry } from "./entry-mapping.js";
import { DirectoryUsers, UpsertOutcome } from "./directory-users.js";
import { escapeFilterValue } from "./ldap-text.js";

/** Entries per RFC 2696 page: under the 500 most servers cap a single search at. */
export const DEFAULT_PAGE_SIZE = 500;

/**
 * A full sync of one provider (spec 4.11): a paged search (RFC 2696) of its users DN, each entry
 * mapped and created or updated in the directory keyed by its stable id, then the linked users
 * whose entries were not seen released (disabled or unlinked, per the provider). An entry that
 * cannot be a user, or that the directory refuses (its username held by a local user), is counted
 * as failed and logged; the run goes on. A search that fails part-way fails the run, and then no
 * user is released: an entry not seen is not known to be gone.
 */
export class LdapSync {
  constructor(
    private readonly users: DirectoryUsers,
    private readonly credentialOf: (p: ProviderRecord) => string,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly pageSize = DEFAULT_PAGE_SIZE,
  ) {}

  /**
   * `keepGoing` is asked between pages (a lost lease stops the run). `since` (epoch ms): a
   * changed-entries sync, reading only entries whose modifyTimestamp is at or after it (new ones
   * included), with no vanished-user check (an entry not read is not known to be gone).
   */
  async run(p: ProviderRecord, keepGoing: () => boolean = () => true, since?: number): Promise<SyncResultRecord> {
    if (!p.enabled) throw new IamError({ code: "failedPrecondition", reason: "provider_disabled", message: "the provider is disabled" });
    if (!p.importEnabled) throw new IamError({ code: "failedPrecondition", reason: "import_disabled", message: "importEnabled is false: the provider imports no users" });
    const started = this.clock.now();
    const out = { created: 0, updated: 0, failed: 0, removed: 0 };
    const seen = new Set<string>();
    let session: LdapSession;
    try {
      session = await LdapSession.open(p, this.credentialOf(p));
    } catch (e) {
      throw unavailable(e);
    }
    try {
      const changed = since !== undefined ? `(modifyTimestamp>=${generalizedTime(since)})` : "";
      const filter = `(&(objectClass=${escapeFilterValue(p.userObjectClass)})(${p.usernameLdapAttr}=*)${changed})`;
      for await (const page of session.search(p.usersDn, filter, attributesToRead(p), { pageSize: this.pageSize })) {
        if (!keepGoing()) throw IamError.unavailable("the sync lease was lost; another replica runs the sync", "sync_lease_lost");
        const mapped: MappedEntry[] = [];
        for (const e of page) {
          try {
            const m = mapEntry(p, e);
            seen.add(m.externalId);
            mapped.push(m);
          } catch (err) {
            out.failed++;
            this.logger.warn({ realm: p.realm, provider: p._id, dn: e.dn, err: (err as Error).message }, "LDAP entry skipped by sync");
          }
        }
        const results = await this.users.upsert(p.realm, p._id, mapped);
        results.forEach((r, i) => {
          if (r.outcome === UpsertOutcome.CREATED) out.created++;
          else if (r.outcome === UpsertOutcome.UPDATED) out.updated++;
          else if (r.outcome === UpsertOutcome.FAILED) {
            out.failed++;
            this.logger.warn({ realm: p.realm, provider: p._id, dn: mapped[i]?.dn, error: r.error, message: r.message }, "LDAP entry refused by the directory");
          }
        });
      }
    } catch (e) {
      throw unavailable(e);
    } finally {
      await session.close();
    }
    if (since === undefined) {
      const links = await this.users.links(p.realm, p._id);
      const gone = links.filter((l) => !seen.has(l.externalId) && (p.vanishedUsers === "UNLINK" || !l.missing)).map((l) => l.userId);
      out.removed = await this.users.release(p.realm, p._id, gone, p.vanishedUsers === "UNLINK");
    }
    const finishedAt = this.clock.now();
    this.logger.info({ realm: p.realm, provider: p._id, ...out, ms: finishedAt - started }, "LDAP sync finished");
    return { ...out, finishedAt };
  }
}

/** RFC 4517 3.3.13 GeneralizedTime in UTC, whole seconds: YYYYMMDDHHMMSSZ. */
export function generalizedTime(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, "").replace(/\.\d{3}Z$/, "Z");
}

/** An unreachable or failing server is the service's Unavailable (503), naming what failed. */
export function unavailable(e: unknown): unknown {
  if (e instanceof LdapFailure) return new IamError({ code: "unavailable", reason: `ldap_${e.kind}`, message: e.message });
  return e;
}
