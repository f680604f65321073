import { IamError } from "../../../kit/src/errors.js";
import type { Outbox, OutboxKind } from "../../../kit/src/bus/outbox.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { checkLength } from "../../../kit/src/validation/checks.js";
import { checkOrganizationRoleName } from "./organization-rules.js";
import { auditedWrite } from "./audited-write.js";
import type { OrganizationRealms } from "./organization-realms.js";
import type { OrganizationAdmin } from "./organization-admin.js";
import type { OrganizationMemberRepository } from "../store/organization-member-repository.js";
import type { OrganizationRoleRecord, OrganizationRoleRepository } from "../store/organization-role-repository.js";

export interface OrganizationRoleView {
  name: string;
  description: string;
}

interface RoleSnapshot { realmId: string; organizationId: string; name: string; present: boolean }

const view = (r: OrganizationRoleRecord): OrganizationRoleView => ({ name: r.name, description: r.description });


/**
 * Roles an organization defines and grants to its members (spec 1.13 "organization roles and
 * member role mappings"); the `organization` claim lists a member's roles under its alias. A
 * member's grants live on the membership, so ending it ends them; deleting a role revokes it.
 */
export class OrganizationRoles {
  private readonly kind: OutboxKind<RoleSnapshot> = {
    name: "directory.organization-role",
    applied: async (s) => ((await this.roles.find(s.realmId, s.organizationId, s.name)) !== null) === s.present,
  };

  constructor(
    private readonly realms: OrganizationRealms,
    private readonly organizations: OrganizationAdmin,
    private readonly roles: OrganizationRoleRepository,
    private readonly members: OrganizationMemberRepository,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.kind);
    outbox.register(this.memberRoleKind);
  }

  async create(realmName: string, organizationId: string, input: { name: string; description: string }): Promise<OrganizationRoleView> {
    const realm = await this.realms.byName(realmName);
    await this.organizations.find(realm, organizationId);
    const name = checkOrganizationRoleName(input.name);
    const record: OrganizationRoleRecord = {
      _id: `${organizationId}:${name}`, realmId: realm._id, organizationId, name,
      description: checkLength("description", input.description, 0, 1024), createdAt: this.clock.now(),
    };
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, organizationId, name, present: true },
      { operationType: "CREATE", resourceType: "ORGANIZATION_ROLE", path: `organizations/${organizationId}/roles/${name}`, representation: view(record) }, async () => {
        try {
          await this.roles.insert(record);
        } catch (e) {
          if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`the organization already has a role named "${name}"`, "name");
          throw e;
        }
        return true;
      });
    return view(record);
  }

  async list(realmName: string, organizationId: string): Promise<OrganizationRoleView[]> {
    const realm = await this.realms.byName(realmName);
    await this.organizations.find(realm, organizationId);
    return (await this.roles.list(realm._id, organizationId)).map(view);
  }

  async delete(realmName: string, organizationId: string, name: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    await this.organizations.find(realm, organizationId);
    const deleted = await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, organizationId, name, present: false },
      { operationType: "DELETE", resourceType: "ORGANIZATION_ROLE", path: `organizations/${organizationId}/roles/${name}` }, async () => {
        const gone = await this.roles.delete(realm._id, organizationId, name);
        await this.members.pullRole(realm._id, organizationId, name);
        return gone;
      });
    if (!deleted) throw IamError.notFound(`role "${name}" of organization "${organizationId}"`, "role_not_found");
  }

  async ofMember(realmName: string, organizationId: string, userId: string): Promise<OrganizationRoleView[]> {
    const realm = await this.realms.byName(realmName);
    await this.organizations.find(realm, organizationId);
    const member = await this.members.find(realm._id, organizationId, userId);
    if (!member) throw IamError.notFound(`member "${userId}" of organization "${organizationId}"`, "member_not_found");
    const granted = new Set(member.roles ?? []);
    return (await this.roles.list(realm._id, organizationId)).filter((r) => granted.has(r.name)).map(view);
  }

  /** Grants (or revokes) roles of the organization to a member; every name must be a role of it. */
  async change(realmName: string, organizationId: string, userId: string, names: string[], grant: boolean): Promise<void> {
    const realm = await this.realms.byName(realmName);
    await this.organizations.find(realm, organizationId);
    if (!names.length) throw IamError.invalid("roles", "name at least one role");
    if (!(await this.members.find(realm._id, organizationId, userId))) {
      throw IamError.notFound(`member "${userId}" of organization "${organizationId}"`, "member_not_found");
    }
    for (const name of names) {
      if (!(await this.roles.find(realm._id, organizationId, name))) throw IamError.notFound(`role "${name}" of organization "${organizationId}"`, "role_not_found");
    }
    for (const name of names) {
      await auditedWrite(this.outbox, this.memberRoleKind, realm, { realmId: realm._id, organizationId, userId, name, granted: grant },
        { operationType: grant ? "CREATE" : "DELETE", resourceType: "ORGANIZATION_ROLE_MAPPING", path: `organizations/${organizationId}/members/${userId}/roles/${name}` },
        () => this.members.changeRole(realm._id, organizationId, userId, name, grant));
    }
  }

  private readonly memberRoleKind: OutboxKind<{ realmId: string; organizationId: string; userId: string; name: string; granted: boolean }> = {
    name: "directory.organization-role-mapping",
    applied: async (s) => ((await this.members.find(s.realmId, s.organizationId, s.userId))?.roles ?? []).includes(s.name) === s.granted,
  };
}
