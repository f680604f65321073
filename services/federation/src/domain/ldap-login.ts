import type { Logger } from "pino";
import type { ProviderRepository } from "../store/provider-repository.js";
import type { ProviderRecord } from "./provider.js";
import { bindAs, LdapFailure, LdapSession } from "./ldap-connection.js";
import { attributesToRead, mapEntry, type MappedEntry } from "./entry-mapping.js";
import { escapeFilterValue } from "./ldap-text.js";

export type FoundEntry =
  | { found: true; providerId: string; readOnly: boolean; entry: MappedEntry }
  | { found: false; unavailable: string };

export type VerifyResult = { outcome: "OK" | "INVALID_CREDENTIALS" | "UNKNOWN" } | { outcome: "UNAVAILABLE"; reason: string };

/**
 * LDAP bind authentication (DESIGN 3), the directory's AuthenticatePassword fallback. The username
 * reaches the search filter escaped (RFC 4515), so `*` or `*)(uid=*))(|(uid=*` match only an entry
 * with that very name; an empty password is never bound with (ldap-connection.ts).
 */
export class LdapLogin {
  constructor(
    private readonly repo: ProviderRepository,
    private readonly credentialOf: (p: ProviderRecord) => string,
    private readonly logger: Logger,
  ) {}

  /**
   * The entry `username` names in the realm's enabled providers, searched by priority; the first
   * provider holding exactly one such entry wins. A provider that cannot be searched is skipped,
   * and reported only when no other had the entry.
   */
  async findEntry(realmId: string, username: string): Promise<FoundEntry> {
    const name = username.trim();
    let unavailable = "";
    if (!name) return { found: false, unavailable };
    for (const p of await this.repo.listByPriority(realmId)) {
      if (!p.enabled) continue;
      try {
        const entry = await this.searchOne(p, name);
        if (entry) return { found: true, providerId: p._id, readOnly: p.syncMode === "READ_ONLY", entry };
      } catch (e) {
        const reason = e instanceof LdapFailure ? `ldap_${e.kind}` : "ldap_error";
        this.logger.warn({ realm: p.realm, provider: p._id, reason, err: (e as Error).message }, "LDAP user lookup failed");
        unavailable ||= reason;
      }
    }
    return { found: false, unavailable };
  }

  /** A bind as the linked entry's DN with the typed password. */
  async verify(realmId: string, providerId: string, dn: string, password: string): Promise<VerifyResult> {
    const p = await this.repo.findById(realmId, providerId);
    if (!p || !p.enabled) return { outcome: "UNKNOWN" };
    try {
      return { outcome: (await bindAs(p, dn, password)) ? "OK" : "INVALID_CREDENTIALS" };
    } catch (e) {
      const reason = e instanceof LdapFailure ? `ldap_${e.kind}` : "ldap_error";
      this.logger.warn({ realm: p.realm, provider: p._id, reason, err: (e as Error).message }, "LDAP bind failed");
      return { outcome: "UNAVAILABLE", reason };
    }
  }

  private async searchOne(p: ProviderRecord, username: string): Promise<MappedEntry | null> {
    const session = await LdapSession.open(p, this.credentialOf(p));
    try {
      const filter = `(&(objectClass=${escapeFilterValue(p.userObjectClass)})(${p.usernameLdapAttr}=${escapeFilterValue(username)}))`;
      const found = [];
      try {
        for await (const page of session.search(p.usersDn, filter, attributesToRead(p), { sizeLimit: 2 })) found.push(...page);
      } catch (e) {
        // sizeLimitExceeded (RFC 4511 result 4): more than the two asked for, ambiguous as two are.
        if (!(e instanceof LdapFailure && e.resultCode === 4)) throw e;
        found.push(...[{ dn: "" }, { dn: "" }]);
      }
      if (found.length !== 1) {
        if (found.length > 1) this.logger.warn({ realm: p.realm, provider: p._id }, "LDAP username matches more than one entry; not used");
        return null;
      }
      return mapEntry(p, found[0]!);
    } finally {
      await session.close();
    }
  }
}
