import { ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { FederationService, VerifyOutcome } from "../../../../gen/iam/federation/v1/federation_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { RealmRecord } from "./realm.js";
import type { UserRecord } from "./user.js";
import type { FederatedUsers } from "./federated-users.js";

export type LdapCheck = "OK" | "INVALID" | "UNAVAILABLE" | "UNKNOWN";

/**
 * AuthenticatePassword's federation fallback (DESIGN 3): the federation service binds to LDAP; the
 * directory keeps the user. A linked user's password is checked by an LDAP bind as its entry; an
 * unknown username is looked up in the realm's providers by priority and, when an entry names it,
 * imported (linked) before its password is checked, so brute-force counting and TOTP apply to it
 * as to a local user. The federation service unreachable counts as LDAP unreachable: fail closed.
 */
export class FederationFallback {
  private readonly client: Client<typeof FederationService>;

  constructor(transport: Transport, private readonly users: FederatedUsers) {
    this.client = createClient(FederationService, transport);
  }

  /** The user imported for `username` from the first provider holding it, or why none could be. */
  async lookup(realm: RealmRecord, username: string): Promise<{ user: UserRecord } | { user: null; unavailable: string }> {
    let found;
    try {
      found = await this.client.findEntry({ realm: realm.name, realmId: realm._id, username });
    } catch (e) {
      if (e instanceof ConnectError) return { user: null, unavailable: "federation_unavailable" };
      throw e;
    }
    if (!found.found || !found.entry) return { user: null, unavailable: found.unavailable ? found.unavailableReason || "federation_unavailable" : "" };
    const r = await this.users.upsert(realm, found.entry.providerId, found.entry);
    const user = r.userId ? await this.users.userById(realm, r.userId) : null;
    return user ? { user } : { user: null, unavailable: "" };
  }

  /** An LDAP bind as the user's entry with `password`. */
  async verify(realm: RealmRecord, user: UserRecord, password: string): Promise<{ check: LdapCheck; reason: string }> {
    try {
      const r = await this.client.verifyPassword({
        realm: realm.name, realmId: realm._id, providerId: user.federationProviderId ?? "", externalId: user.federationExternalId ?? "",
        dn: user.federationDn ?? "", password,
      });
      switch (r.outcome) {
        case VerifyOutcome.OK: return { check: "OK", reason: "" };
        case VerifyOutcome.INVALID_CREDENTIALS: return { check: "INVALID", reason: "" };
        case VerifyOutcome.UNAVAILABLE: return { check: "UNAVAILABLE", reason: r.reason || "ldap_unavailable" };
        default: return { check: "UNKNOWN", reason: "" };
      }
    } catch (e) {
      if (e instanceof ConnectError) return { check: "UNAVAILABLE", reason: "federation_unavailable" };
      throw e;
    }
  }

  /**
   * What a linked user may change through the Admin API: a READ_ONLY provider's users keep their
   * profile as LDAP has it, and no linked user has a password here (LDAP checks it).
   */
  async refuseEdit(realm: RealmRecord, user: UserRecord, what: "profile" | "password", field: string): Promise<void> {
    if (!user.federationProviderId) return;
    if (what === "password") {
      throw new IamError({ code: "invalidArgument", reason: "federated_user", field, message: "the user's password is checked by its LDAP provider and cannot be set here" });
    }
    let mode = "";
    try {
      const r = await this.client.describeLink({ realm: realm.name, realmId: realm._id, providerId: user.federationProviderId });
      mode = r.exists ? r.syncMode : "";
    } catch (e) {
      if (e instanceof ConnectError) throw IamError.unavailable("the federation service is unavailable");
      throw e;
    }
    if (mode === "READ_ONLY") {
      throw new IamError({ code: "invalidArgument", reason: "read_only_user", field, message: `the user comes from a READ_ONLY LDAP provider: ${field} cannot be changed here` });
    }
  }
}
