import { IamError } from "../../../kit/src/errors.js";
import type { Outbox, OutboxKind } from "../../../kit/src/bus/outbox.js";
import type { RoleRecord } from "./role.js";
import type { RealmRecord } from "./realm.js";
import type { RoleAdmin, RoleWithClient } from "./role-admin.js";
import type { RoleRepository } from "../store/role-repository.js";
import type { ClientRepository } from "../store/client-repository.js";
import type { UserEvents } from "../events/user-events.js";
import { auditedWrite } from "./audited-write.js";

/** How deep composites are followed: more than any real hierarchy, and a bound on what a cycle costs. */
const MAX_DEPTH = 32;
/** Roles one composite may contain directly. */
export const MAX_COMPOSITES = 500;

/**
 * The roles `held` grants with every composite expanded, transitively (Keycloak's effective
 * roles: a holder of a composite holds what it contains). Cycles end where a role was seen; roles
 * since deleted are skipped. Costs no read when no held role is a composite.
 */
export async function withComposites(repo: RoleRepository, realmId: string, held: RoleRecord[]): Promise<RoleRecord[]> {
  const out = new Map(held.map((r) => [r._id, r]));
  let frontier = held;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const next = [...new Set(frontier.flatMap((r) => r.composites ?? []))].filter((id) => !out.has(id));
    if (next.length === 0) break;
    frontier = await repo.findByIds(realmId, next);
    for (const r of frontier) out.set(r._id, r);
  }
  return [...out.values()];
}

/** The composite role a request names: `clientId` "" for a realm role. */
export interface CompositeTarget {
  realmName: string;
  clientId: string;
  name: string;
}

interface CompositesSnapshot {
  realmId: string;
  roleId: string;
  ids: string[];
  /** Added (each one there) or removed (none left). */
  present: boolean;
}

/**
 * The roles a composite role contains (Keycloak's composite roles; roles are otherwise spec 2.4).
 * Adding and removing are all or nothing: every name must exist, else a 400 names the unknown
 * ones and nothing changes; both are idempotent. A change grants or withdraws access for every
 * holder, so its admin event is staged with it (auditedWrite), and the service accounts' cached
 * client_credentials grants of the realm drop with it.
 */
export class RoleComposites {
  private readonly kind: OutboxKind<CompositesSnapshot> = {
    name: "directory.role-composites",
    applied: async (s) => {
      const has = new Set((await this.repo.findByIds(s.realmId, [s.roleId]))[0]?.composites ?? []);
      return s.ids.every((id) => has.has(id) === s.present);
    },
  };

  constructor(
    private readonly repo: RoleRepository,
    private readonly roleAdmin: RoleAdmin,
    private readonly clients: ClientRepository,
    private readonly userEvents: UserEvents,
    private readonly outbox: Outbox,
  ) {
    outbox.register(this.kind);
  }

  /** The roles the composite contains directly, realm roles and client roles. */
  async list(t: CompositeTarget): Promise<RoleWithClient[]> {
    const { realm, role } = await this.composite(t);
    return this.withClients(realm, await this.repo.findByIds(realm._id, role.composites ?? []));
  }

  /** `names`: realm roles, or with `containedClientId` that client's roles. */
  async add(t: CompositeTarget, names: string[], containedClientId: string): Promise<string[]> {
    const { realm, role, contained, unique } = await this.resolve(t, names, containedClientId);
    if (contained.some((r) => r._id === role._id)) throw IamError.invalid("roleNames", `role "${role.name}" cannot contain itself`);
    const after = new Set([...(role.composites ?? []), ...contained.map((r) => r._id)]);
    if (after.size > MAX_COMPOSITES) throw IamError.invalid("roleNames", `a composite role contains at most ${MAX_COMPOSITES} roles`);
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, roleId: role._id, ids: contained.map((r) => r._id), present: true },
      this.event(role, "CREATE", contained), async () => {
        for (const r of contained) await this.repo.addComposite(realm._id, role._id, r._id);
        return true;
      }, this.userEvents.groupChange(realm));
    return unique;
  }

  async remove(t: CompositeTarget, names: string[], containedClientId: string): Promise<string[]> {
    const { realm, role, contained, unique } = await this.resolve(t, names, containedClientId);
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, roleId: role._id, ids: contained.map((r) => r._id), present: false },
      this.event(role, "DELETE", contained), async () => {
        for (const r of contained) await this.repo.removeComposite(realm._id, role._id, r._id);
        return true;
      }, this.userEvents.groupChange(realm));
    return unique;
  }

  private async composite(t: CompositeTarget): Promise<{ realm: RealmRecord; role: RoleRecord }> {
    const { role } = await this.roleAdmin.get(t.realmName, t.clientId, t.name);
    const { realm } = await this.roleAdmin.container(t.realmName, "");
    return { realm, role };
  }

  private async resolve(t: CompositeTarget, names: string[], containedClientId: string) {
    if (!names.length) throw IamError.invalid("roleNames", "roleNames is required and must not be empty");
    const { realm, role } = await this.composite(t);
    const { client } = await this.roleAdmin.container(t.realmName, containedClientId);
    const unique = [...new Set(names)];
    const contained = await this.repo.findByNames(realm._id, client?._id ?? "", unique);
    const missing = unique.filter((n) => !contained.some((r) => r.name === n));
    if (missing.length) throw IamError.invalid("roleNames", `unknown roles: ${missing.join(", ")}`, "unknown_roles");
    return { realm, role, contained, unique };
  }

  private async withClients(realm: RealmRecord, roles: RoleRecord[]): Promise<RoleWithClient[]> {
    const clients = await this.clients.findByIds(realm._id, [...new Set(roles.map((r) => r.clientId).filter(Boolean))]);
    const slug = new Map(clients.map((c) => [c._id, c.clientId]));
    return roles.map((role) => ({ role, clientSlug: slug.get(role.clientId) ?? "" }));
  }

  /** Keycloak records a composite change at the role by id, with the contained roles. */
  private event(role: RoleRecord, op: "CREATE" | "DELETE", contained: RoleRecord[]) {
    return {
      operationType: op, resourceType: role.clientId ? "CLIENT_ROLE" : "REALM_ROLE",
      path: `roles-by-id/${role._id}/composites`, representation: contained.map((r) => ({ id: r._id, name: r.name })),
    } as const;
  }
}
