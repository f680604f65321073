import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  IdentityProviderService, IdentityProviderSchema, type IdentityProvider, type IdentityProviderInput as InputMessage,
} from "../../../../gen/iam/broker/v1/identity_provider_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { ProviderAdmin } from "../domain/provider-admin.js";
import type { LinkAdmin } from "../domain/link-admin.js";
import type { MapperAdmin } from "../domain/mapper-admin.js";
import { mapperRpc } from "./mapper-rpc.js";
import { providerView, type IdentityProviderInput, type IdentityProviderRecord } from "../domain/identity-provider.js";

/** Thin handlers: check -> domain -> convert. */
export function providerRpc(admin: ProviderAdmin, links: LinkAdmin, mappers: MapperAdmin): ServiceImpl<typeof IdentityProviderService> {
  return {
    ...mapperRpc(mappers),
    async createIdentityProvider(req) {
      if (!req.provider) throw IamError.invalid("provider", "provider is required");
      return { provider: toProto(await admin.create(req.realm, toInput(req.provider))) };
    },
    async listIdentityProviders(req) {
      return { providers: (await admin.list(req.realm)).map(toProto) };
    },
    async getIdentityProvider(req) {
      return { provider: toProto(await admin.get(req.realm, req.alias)) };
    },
    async updateIdentityProvider(req) {
      return { provider: toProto(await admin.update(req.realm, req.alias, req.provider ? toInput(req.provider) : {})) };
    },
    async deleteIdentityProvider(req) {
      return { provider: toProto(await admin.delete(req.realm, req.alias)) };
    },
    async listFederatedIdentities(req) {
      const list = await links.list(req.realm, req.userId);
      return {
        identities: list.map((l) => ({ identityProvider: l.alias, userId: l.subject, userName: l.username, createdAt: timestampFromMs(l.createdAt) })),
      };
    },
    async deleteFederatedIdentity(req) {
      await links.delete(req.realm, req.userId, req.alias);
      return {};
    },
  };
}

function toProto(p: IdentityProviderRecord): IdentityProvider {
  return fromJson(IdentityProviderSchema, providerView(p) as JsonObject);
}

function toInput(m: InputMessage): IdentityProviderInput {
  const { $typeName: _t, ...fields } = m;
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as IdentityProviderInput;
}
