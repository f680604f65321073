import { fromJson, toJson, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { ListValueSchema } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  OrganizationSchema, type Member, type Organization, type OrganizationInput as OrganizationInputMessage, type OrganizationService,
} from "../../../../gen/iam/directory/v1/organization_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { OrganizationView } from "../domain/organization.js";
import type { OrganizationInput } from "../domain/organization-rules.js";
import type { OrganizationAdmin } from "../domain/organization-admin.js";
import type { OrganizationMember, OrganizationMembers } from "../domain/organization-members.js";
import { userToProto } from "./user-rpc.js";

export interface OrganizationDomainServices {
  admin: OrganizationAdmin;
  members: OrganizationMembers;
}

/** Thin handlers: check -> domain -> convert. */
export function organizationRpc(d: OrganizationDomainServices, more: Partial<ServiceImpl<typeof OrganizationService>> = {}): Partial<ServiceImpl<typeof OrganizationService>> {
  return {
    async createOrganization(req) {
      if (!req.organization) throw IamError.invalid("organization", "organization is required");
      return { organization: organizationToProto(await d.admin.create(req.realm, inputOf(req.organization))) };
    },
    async listOrganizations(req) {
      const list = await d.admin.list(req.realm, {
        search: req.search, exact: req.exact, brief: req.brief,
        ...(req.first !== undefined ? { first: req.first } : {}), ...(req.max !== undefined ? { max: req.max } : {}),
      });
      return { organizations: list.map(organizationToProto) };
    },
    async countOrganizations(req) {
      return { count: BigInt(await d.admin.count(req.realm, { search: req.search, exact: req.exact })) };
    },
    async getOrganization(req) {
      return { organization: organizationToProto(await d.admin.get(req.realm, req.organizationId)) };
    },
    async updateOrganization(req) {
      if (!req.organization) throw IamError.invalid("organization", "organization is required");
      return { organization: organizationToProto(await d.admin.update(req.realm, req.organizationId, inputOf(req.organization))) };
    },
    async deleteOrganization(req) {
      await d.admin.delete(req.realm, req.organizationId);
      return {};
    },
    async addMember(req) {
      return { member: memberToProto(await d.members.add(req.realm, req.organizationId, req.userId)) };
    },
    async listMembers(req) {
      const list = await d.members.list(req.realm, req.organizationId, {
        search: req.search, membershipType: req.membershipType,
        ...(req.first !== undefined ? { first: req.first } : {}), ...(req.max !== undefined ? { max: req.max } : {}),
      });
      return { members: list.map(memberToProto) };
    },
    async countMembers(req) {
      return { count: BigInt(await d.members.count(req.realm, req.organizationId)) };
    },
    async getMember(req) {
      return { member: memberToProto(await d.members.get(req.realm, req.organizationId, req.userId)) };
    },
    async removeMember(req) {
      await d.members.remove(req.realm, req.organizationId, req.userId);
      return {};
    },
    async setMembershipType(req) {
      await d.members.setMembershipType(req.realm, req.organizationId, req.userId, req.membershipType);
      return {};
    },
    async listMemberOrganizations(req) {
      return { organizations: (await d.members.organizationsOf(req.realm, req.userId)).map(organizationToProto) };
    },
    async onboardBrokeredUser(req) {
      if (!req.identityProviderAlias) throw IamError.invalid("identityProviderAlias", "identityProviderAlias is required");
      return { organizationIds: await d.members.onboard(req.realm, req.identityProviderAlias, req.userId, req.created) };
    },
    async findByEmailDomain(req) {
      const org = await d.admin.findByEmail(req.realm, req.email.slice(0, 320));
      return org ? { organizationId: org._id, alias: org.alias, identityProviders: org.identityProviders } : {};
    },
    ...more,
  };
}

function inputOf(m: OrganizationInputMessage): OrganizationInput {
  const out: OrganizationInput = {};
  if (m.id !== undefined) out.id = m.id;
  if (m.name !== undefined) out.name = m.name;
  if (m.alias !== undefined) out.alias = m.alias;
  if (m.enabled !== undefined) out.enabled = m.enabled;
  if (m.description !== undefined) out.description = m.description;
  if (m.redirectUrl !== undefined) out.redirectUrl = m.redirectUrl;
  if (m.domains) out.domains = toJson(ListValueSchema, m.domains) as JsonValue;
  if (m.attributes) out.attributes = m.attributes;
  if (m.identityProviders) out.identityProviders = toJson(ListValueSchema, m.identityProviders) as JsonValue;
  return out;
}

export function organizationToProto(o: OrganizationView): Organization {
  return fromJson(OrganizationSchema, o as unknown as JsonObject);
}

function memberToProto(m: OrganizationMember): Member {
  return { $typeName: "iam.directory.v1.Member", user: userToProto(m.user), membershipType: m.membershipType };
}
