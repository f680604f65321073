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
import type { Outbox } from "../../../kit/src/bus/outbox.js";
import { auditedWrite } from "./audited-write.js";
import { expectFields, recordWriteKind } from "../../../kit/src/events/audited-write.js";
import { OFFLINE_ACCESS_ROLE } from "./role.js";

export interface RoleInput {
  name?: string;
  description?: string;
}

/** A role with the slug of its client ("" for realm roles), as the Admin API shows it. */
export interface RoleWithClient {
  role: RoleRecord;
  clientSlug: string;
}

/**
 * Realm roles and client roles (spec 2.4, 4.4). An empty clientId means realm roles. Creation,
 * updates and deletion stage their admin event with the write (auditedWrite).
 */
export class RoleAdmin {
  private readonly kind = recordWriteKind("directory.role", async (realmId, id) => (await this.repo.findByIds(realmId, [id]))[0] ?? null, roleFields);

  constructor(
    private readonly repo: RoleRepository,
    private readonly mappings: RoleMappingRepository,
    private readonly realms: RealmAccess,
    private readonly clients: ClientAdmin,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.kind);
  }

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
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, id: role._id, expect: "present" },
      { operationType: "CREATE", resourceType: client ? "CLIENT_ROLE" : "REALM_ROLE", path: rolePath(role, client), representation: roleView(role, client?.clientId) }, async () => {
        try {
          await this.repo.insert(role);
        } catch (e) {
          if (e instanceof IamError && e.code === "alreadyExists") {
            throw IamError.conflict(client ? `role "${name}" already exists in client "${client.clientId}"` : `role "${name}" already exists`, "name");
          }
          throw e;
        }
        return true;
      });
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

  /**
   * Renames or describes a role, as Keycloak's PUT of a role does. Mappings and composites hold the
   * role by id, so they follow a rename; flow conditions name roles and do not. The realm's
   * offline_access role keeps its name: offline tokens are granted by it (Keycloak's default role).
   */
  async update(realmName: string, clientId: string, name: string, input: RoleInput): Promise<RoleWithClient> {
    const { realm, client } = await this.container(realmName, clientId);
    const role = await this.repo.findByName(realm._id, client?._id ?? "", name);
    if (!role) throw IamError.notFound(`role "${name}"`, "role_not_found");
    const set: Partial<Pick<RoleRecord, "name" | "description">> = {};
    if (input.name !== undefined && input.name !== role.name) {
      set.name = requireString("name", input.name.trim() === "" ? "" : input.name, 1, 255);
      if (!client && role.name === OFFLINE_ACCESS_ROLE) throw IamError.invalid("name", `the realm's ${OFFLINE_ACCESS_ROLE} role cannot be renamed`);
    }
    if (input.description !== undefined) set.description = checkLength("description", input.description, 0, 2048);
    const after = { ...role, ...set };
    const updated = await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, id: role._id, expect: expectFields(roleFields, after) },
      { operationType: "UPDATE", resourceType: client ? "CLIENT_ROLE" : "REALM_ROLE", path: rolePath(role, client), representation: roleView(after, client?.clientId) }, async () => {
        try {
          return (await this.repo.update(realm._id, role._id, set)) !== null;
        } catch (e) {
          if (e instanceof IamError && e.code === "alreadyExists") {
            throw IamError.conflict(client ? `role "${set.name}" already exists in client "${client.clientId}"` : `role "${set.name}" already exists`, "name");
          }
          throw e;
        }
      });
    if (!updated) throw IamError.notFound(`role "${name}"`, "role_not_found");
    return { role: after, clientSlug: client?.clientId ?? "" };
  }

  /** Deletes the role, every mapping of it and its place in every composite (spec 4.4). */
  async delete(realmName: string, clientId: string, name: string): Promise<void> {
    const { realm, client } = await this.container(realmName, clientId);
    const role = await this.repo.findByName(realm._id, client?._id ?? "", name);
    if (!role) throw IamError.notFound(`role "${name}"`, "role_not_found");
    const deleted = await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, id: role._id, expect: "absent" },
      { operationType: "DELETE", resourceType: client ? "CLIENT_ROLE" : "REALM_ROLE", path: rolePath(role, client) }, async () => {
        if (!(await this.repo.delete(realm._id, role._id))) return false;
        await this.mappings.deleteRole(realm._id, role._id);
        await this.repo.pullFromComposites(realm._id, role._id);
        return true;
      });
    if (!deleted) throw IamError.notFound(`role "${name}"`, "role_not_found");
  }
}

/** What an update's admin event expects the record to hold. */
const roleFields = (r: RoleRecord) => ({ name: r.name, description: r.description });

function rolePath(role: RoleRecord, client: ClientRecord | null): string {
  return client ? `clients/${client._id}/roles/${role.name}` : `roles/${role.name}`;
}
