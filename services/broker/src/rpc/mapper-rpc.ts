import type { ServiceImpl } from "@connectrpc/connect";
import type { IdentityProviderService, IdentityProviderMapperInput as InputMessage } from "../../../../gen/iam/broker/v1/identity_provider_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { MapperAdmin } from "../domain/mapper-admin.js";
import { mapperView, type IdpMapperInput, type MapperType } from "../domain/idp-mapper.js";

type MapperMethods = Pick<ServiceImpl<typeof IdentityProviderService>,
  "listIdentityProviderMappers" | "createIdentityProviderMapper" | "getIdentityProviderMapper" | "updateIdentityProviderMapper"
  | "deleteIdentityProviderMapper" | "listIdentityProviderMapperTypes">;

/** Thin handlers of the identity provider mappers' Admin API. */
export function mapperRpc(admin: MapperAdmin): MapperMethods {
  return {
    async listIdentityProviderMappers(req) {
      return { mappers: (await admin.list(req.realm, req.alias)).map(mapperView) };
    },
    async createIdentityProviderMapper(req) {
      if (!req.mapper) throw IamError.invalid("mapper", "mapper is required");
      return { mapper: mapperView(await admin.create(req.realm, req.alias, toInput(req.mapper))) };
    },
    async getIdentityProviderMapper(req) {
      return { mapper: mapperView(await admin.get(req.realm, req.alias, req.id)) };
    },
    async updateIdentityProviderMapper(req) {
      if (!req.mapper) throw IamError.invalid("mapper", "mapper is required");
      return { mapper: mapperView(await admin.update(req.realm, req.alias, req.id, toInput(req.mapper))) };
    },
    async deleteIdentityProviderMapper(req) {
      await admin.delete(req.realm, req.alias, req.id);
      return {};
    },
    async listIdentityProviderMapperTypes(req) {
      return { types: (await admin.typesFor(req.realm, req.alias)).map(typeMessage) };
    },
  };
}

function typeMessage(t: MapperType) {
  return {
    id: t.id, name: t.name, category: t.category, helpText: t.helpText,
    properties: t.properties.map((p) => ({ name: p.name, label: p.label, helpText: p.helpText, required: p.required, defaultValue: p.defaultValue ?? "" })),
  };
}

function toInput(m: InputMessage): IdpMapperInput {
  return {
    ...(m.id !== undefined ? { id: m.id } : {}),
    ...(m.name !== undefined ? { name: m.name } : {}),
    ...(m.identityProviderAlias !== undefined ? { identityProviderAlias: m.identityProviderAlias } : {}),
    ...(m.identityProviderMapper !== undefined ? { identityProviderMapper: m.identityProviderMapper } : {}),
    config: { ...m.config },
  };
}
