import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { checkLength, requireString } from "../../../kit/src/validation/checks.js";
import { roleView, type RoleRecord } from "./role.js";
import type { RealmRecord } from "./realm.js";
import type { ClientRecord } from "./client.js";
import type { RealmAccess } from "./realm-access.js";
import type { ClientAdmin } from "./client-admin.js";
import type { RoleRepository } from "../store/role-repository.js";
import type { RoleMappingRepository } from "../store/role-mapping-repository.js";
import type { DirectoryAdminEvents } from "../events/directory-admin-events.js";

export interface RoleInput {
  name?: string;
  description?: string;
}

/** A role with the slug of its client ("" for realm roles), as the Admin API shows it. */
export interface RoleWithClient {
  role: RoleRecord;
  clientSlug: string;
}

/** Realm roles and client roles (spec 2.4, 4.4). An empty clientId means realm roles. */
export class RoleAdmin {
  constructor(
    private readonly repo: RoleRepository,
    private readonly mappings: RoleMappingRepository,
    private readonly realms: RealmAccess,
    private readonly clients: ClientAdmin,
    private readonly events: DirectoryAdminEvents,
    private readonly clock: Clock,
  ) {}

  /** The realm and, for client roles, the client named in the path (404s when unknown). */
  async container(realmName: string, clientId: string): Promise<{ realm: RealmRecord; client: ClientRecord | null }> {
    const realm = await this.realms.byName(realmName);
    return { realm, client: clientId ? await this.clients.require(realm, clientId) : null };
  }

  async create(realmName: string, clientId: string, input: RoleInput): Promise<RoleWithClient> {
    const { realm, client } = await this.container(realmName, clientId);
    const name = requireString("name", input.name?.trim() === "" ? "" : input.name, 1, 255);
    if (input.description !== undefined) checkLength("description", input.description, 0, 2048);
    const role: RoleRecord = {
      _id: randomUUID(), realmId: realm._id, clientId: client?._id ?? "", name,
      description: input.description ?? "", createdAt: this.clock.now(),
    };
    try {
      await this.repo.insert(role);
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") {
        throw IamError.conflict(client ? `role "${name}" already exists in client "${client.clientId}"` : `role "${name}" already exists`, "name");
      }
      throw e;
    }
    await this.events.record(realm, "CREATE", client ? "CLIENT_ROLE" : "REALM_ROLE", rolePath(role, client), roleView(role, client?.clientId));
    return { role, clientSlug: client?.clientId ?? "" };
  }

  async list(realmName: string, clientId: string): Promise<RoleWithClient[]> {
    const { realm, client } = await this.container(realmName, clientId);
    const roles = await this.repo.list(realm._id, client?._id ?? "");
    return roles.map((role) => ({ role, clientSlug: client?.clientId ?? "" }));
  }

  async get(realmName: string, clientId: string, name: string): Promise<RoleWithClient> {
    const { realm, client } = await this.container(realmName, clientId);
    const role = await this.repo.findByName(realm._id, client?._id ?? "", name);
    if (!role) throw IamError.notFound(`role "${name}"`, "role_not_found");
    return { role, clientSlug: client?.clientId ?? "" };
  }

  /** Deletes the role and every mapping of it (spec 4.4). */
  async delete(realmName: string, clientId: string, name: string): Promise<void> {
    const { realm, client } = await this.container(realmName, clientId);
    const role = await this.repo.findByName(realm._id, client?._id ?? "", name);
    if (!role || !(await this.repo.delete(realm._id, role._id))) throw IamError.notFound(`role "${name}"`, "role_not_found");
    await this.mappings.deleteRole(realm._id, role._id);
    await this.events.record(realm, "DELETE", client ? "CLIENT_ROLE" : "REALM_ROLE", rolePath(role, client));
  }
}

function rolePath(role: RoleRecord, client: ClientRecord | null): string {
  return client ? `clients/${client._id}/roles/${role.name}` : `roles/${role.name}`;
}
