import { createHash } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock, Collection, Doc, Store } from "../../../kit/src/store/port.js";
import { BUILTIN_SCOPES, BUILTIN_SEED_VERSION, type BuiltinMapper, type BuiltinScope } from "./builtin-scopes.js";
import { OIDC } from "./client-scope.js";
import { OFFLINE_ACCESS_ROLE } from "./role.js";
import type { RealmRecord } from "./realm.js";
import type { RoleRepository } from "../store/role-repository.js";
import type { ClientScopeRepository } from "../store/client-scope-repository.js";

interface SeedMark extends Doc {
  seededAt: number;
  /** The built-in scopes' version seeded (BuiltinScope.since); absent on marks of version 1. */
  version?: number;
  /** The default clients were seeded (ClientSeed); absent on marks older than them. */
  clients?: boolean;
}

/** Seeds a default client into a realm under the given id; idempotent (a concurrent seeder inserts the same id). */
export type ClientSeed = (realm: RealmRecord, id: string, now: number) => Promise<void>;

/**
 * Seeds a realm's defaults on its first use by roles, clients or scopes: the realm role
 * `offline_access` and the built-in client scopes with their mappers (Keycloak's defaults).
 * Seeded records have ids derived from the realm id and their names, so concurrent seeders (two
 * requests, two directory replicas) insert the same documents and the loser's duplicates are
 * ignored. A per-realm mark written last means "done": a default an admin deletes later is not
 * re-created. The mark carries the version of the built-ins it seeded: a realm seeded before a
 * scope was added (address and phone, version 2) gets that scope once, on its next use. Seeding
 * lazily (rather than on realm.created) keeps realm creation independent of these collections, and
 * realms imported or created before this code get their defaults too.
 */
export class RealmDefaults {
  private readonly done = new Set<string>();
  private readonly clientSeeds = new Map<string, ClientSeed>();

  private constructor(
    private readonly marks: Collection<SeedMark>,
    private readonly roles: RoleRepository,
    private readonly scopes: ClientScopeRepository,
    private readonly clock: Clock,
  ) {}

  static async open(store: Store, roles: RoleRepository, scopes: ClientScopeRepository, clock: Clock): Promise<RealmDefaults> {
    return new RealmDefaults(await store.collection<SeedMark>({ name: "realm_seeds" }), roles, scopes, clock);
  }

  /**
   * A default client (the account console's) seeded with the realm's other defaults, by this
   * instance only: the import path's instance seeds none, and marks none seeded.
   */
  seedClient(clientId: string, seed: ClientSeed): this {
    this.clientSeeds.set(clientId, seed);
    return this;
  }

  async ensure(realm: RealmRecord): Promise<void> {
    if (this.done.has(realm._id)) return;
    const mark = await this.marks.get(realm._id);
    const seeded = mark ? mark.version ?? 1 : 0;
    if (this.clientSeeds.size > 0 && !mark?.clients) {
      // After the scopes, which the client's default scopes name.
      if (seeded < BUILTIN_SEED_VERSION) await this.seedScopes(realm, mark, seeded);
      const now = this.clock.now();
      for (const [clientId, seed] of this.clientSeeds) await seed(realm, seedId(realm._id, "client", clientId), now);
      if (await this.marks.get(realm._id)) await this.marks.update({ _id: realm._id }, { $set: { clients: true } });
      else await ignoreDuplicate(this.marks.insert({ _id: realm._id, seededAt: now, version: BUILTIN_SEED_VERSION, clients: true }));
    } else if (seeded < BUILTIN_SEED_VERSION) {
      await this.seedScopes(realm, mark, seeded);
    }
    this.done.add(realm._id);
  }

  private async seedScopes(realm: RealmRecord, mark: SeedMark | null, seeded: number): Promise<void> {
    const now = this.clock.now();
    if (!mark) {
      await ignoreDuplicate(this.roles.insert({
        _id: seedId(realm._id, "role", OFFLINE_ACCESS_ROLE), realmId: realm._id, clientId: "",
        name: OFFLINE_ACCESS_ROLE, description: "${role_offline-access}", createdAt: now,
      }));
    }
    for (const s of BUILTIN_SCOPES.filter((b) => b.since > seeded)) await this.seedScope(realm, s, now);
    // Mappers added to a scope seeded before them (profile's updated_at, version 4).
    for (const s of BUILTIN_SCOPES.filter((b) => b.since <= seeded)) await this.seedLateMappers(realm, s, seeded, now);
    if (mark) await this.marks.update({ _id: realm._id }, { $set: { version: BUILTIN_SEED_VERSION } });
    else await ignoreDuplicate(this.marks.insert({ _id: realm._id, seededAt: now, version: BUILTIN_SEED_VERSION }));
  }

  private async seedScope(realm: RealmRecord, s: (typeof BUILTIN_SCOPES)[number], now: number): Promise<void> {
    const scopeId = seedId(realm._id, "scope", s.name);
    try {
      await this.scopes.insertScope({
        _id: scopeId, realmId: realm._id, name: s.name, description: s.description, protocol: OIDC, createdAt: now,
      });
    } catch (e) {
      if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
      // Another seeder inserted it (same id), or an admin already made a scope of that name
      // (another id): then theirs stays, without our mappers.
      if (!(await this.scopes.findScope(realm._id, scopeId))) return;
    }
    for (const [i, m] of s.mappers.entries()) await this.seedMapper(realm, s, scopeId, m, now + i);
  }

  /**
   * A built-in mapper newer than the realm's seeding goes into the scope the seeder made, once; a
   * scope the admin deleted since, or made themselves under that name, is left as it is.
   */
  private async seedLateMappers(realm: RealmRecord, s: (typeof BUILTIN_SCOPES)[number], seeded: number, now: number): Promise<void> {
    const late = s.mappers.filter((m) => (m.since ?? s.since) > seeded);
    if (!late.length) return;
    const scopeId = seedId(realm._id, "scope", s.name);
    if (!(await this.scopes.findScope(realm._id, scopeId))) return;
    for (const [i, m] of late.entries()) await this.seedMapper(realm, s, scopeId, m, now + s.mappers.length + i);
  }

  private async seedMapper(realm: RealmRecord, s: BuiltinScope, scopeId: string, m: BuiltinMapper, createdAt: number): Promise<void> {
    await ignoreDuplicate(this.scopes.insertMapper({
      _id: seedId(realm._id, `mapper:${s.name}`, m.name), realmId: realm._id, scopeId, name: m.name,
      mapperType: m.mapperType, protocol: OIDC, config: { ...m.config }, createdAt,
    }));
  }

  async forget(realmId: string): Promise<void> {
    this.done.delete(realmId);
    await this.marks.delete(realmId);
  }
}

/** A UUID-shaped id derived from the realm and the record's name (a seeded record's id for good: a rename keeps it). */
export function seedId(realmId: string, kind: string, name: string): string {
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
