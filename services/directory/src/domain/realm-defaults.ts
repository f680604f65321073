import { createHash } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock, Collection, Doc, Store } from "../../../kit/src/store/port.js";
import { BUILTIN_SCOPES } from "./builtin-scopes.js";
import { OIDC } from "./client-scope.js";
import { OFFLINE_ACCESS_ROLE } from "./role.js";
import type { RealmRecord } from "./realm.js";
import type { RoleRepository } from "../store/role-repository.js";
import type { ClientScopeRepository } from "../store/client-scope-repository.js";

interface SeedMark extends Doc {
  seededAt: number;
}

/**
 * Seeds a realm's defaults on its first use by roles, clients or scopes: the realm role
 * `offline_access` and the built-in client scopes with their mappers (Keycloak's defaults).
 * Seeded records have ids derived from the realm id and their names, so concurrent seeders (two
 * requests, two directory replicas) insert the same documents and the loser's duplicates are
 * ignored. A per-realm mark written last means "done": a default an admin deletes later is not
 * re-created. Seeding lazily (rather than on realm.created) keeps realm creation independent of
 * these collections, and realms imported or created before this code get their defaults too.
 */
export class RealmDefaults {
  private readonly done = new Set<string>();

  private constructor(
    private readonly marks: Collection<SeedMark>,
    private readonly roles: RoleRepository,
    private readonly scopes: ClientScopeRepository,
    private readonly clock: Clock,
  ) {}

  static async open(store: Store, roles: RoleRepository, scopes: ClientScopeRepository, clock: Clock): Promise<RealmDefaults> {
    return new RealmDefaults(await store.collection<SeedMark>({ name: "realm_seeds" }), roles, scopes, clock);
  }

  async ensure(realm: RealmRecord): Promise<void> {
    if (this.done.has(realm._id)) return;
    if (!(await this.marks.get(realm._id))) {
      const now = this.clock.now();
      await ignoreDuplicate(this.roles.insert({
        _id: seedId(realm._id, "role", OFFLINE_ACCESS_ROLE), realmId: realm._id, clientId: "",
        name: OFFLINE_ACCESS_ROLE, description: "${role_offline-access}", createdAt: now,
      }));
      for (const s of BUILTIN_SCOPES) {
        const scopeId = seedId(realm._id, "scope", s.name);
        await ignoreDuplicate(this.scopes.insertScope({
          _id: scopeId, realmId: realm._id, name: s.name, description: s.description, protocol: OIDC, createdAt: now,
        }));
        for (const [i, m] of s.mappers.entries()) {
          await ignoreDuplicate(this.scopes.insertMapper({
            _id: seedId(realm._id, `mapper:${s.name}`, m.name), realmId: realm._id, scopeId, name: m.name,
            mapperType: m.mapperType, protocol: OIDC, config: { ...m.config }, createdAt: now + i,
          }));
        }
      }
      await ignoreDuplicate(this.marks.insert({ _id: realm._id, seededAt: now }));
    }
    this.done.add(realm._id);
  }

  async forget(realmId: string): Promise<void> {
    this.done.delete(realmId);
    await this.marks.delete(realmId);
  }
}

/** A UUID-shaped id derived from the realm and the record's name. */
function seedId(realmId: string, kind: string, name: string): string {
  const h = createHash("sha256").update(`${realmId}\0${kind}\0${name}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

async function ignoreDuplicate(p: Promise<void>): Promise<void> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
  }
}
