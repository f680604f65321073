import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  ServiceProviderService, ServiceProviderSchema, type ServiceProvider, type ServiceProviderInput as InputMessage,
} from "../../../../gen/iam/saml/v1/service_provider_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { ServiceProviderAdmin } from "../domain/sp-admin.js";
import { serviceProviderView, type ServiceProviderInput, type ServiceProviderRecord } from "../domain/service-provider.js";

/** Thin handlers: check -> domain -> convert. */
export function serviceProviderRpc(admin: ServiceProviderAdmin): ServiceImpl<typeof ServiceProviderService> {
  return {
    async registerServiceProvider(req) {
      if (!req.serviceProvider) throw IamError.invalid("serviceProvider", "serviceProvider is required");
      return { serviceProvider: toProto(await admin.register(req.realm, toInput(req.serviceProvider))) };
    },
    async listServiceProviders(req) {
      return { serviceProviders: (await admin.list(req.realm)).map(toProto) };
    },
    async getServiceProvider(req) {
      return { serviceProvider: toProto(await admin.get(req.realm, req.id)) };
    },
    async updateServiceProvider(req) {
      const input = req.serviceProvider ? toInput(req.serviceProvider) : {};
      return { serviceProvider: toProto(await admin.update(req.realm, req.id, input)) };
    },
    async deleteServiceProvider(req) {
      await admin.delete(req.realm, req.id);
      return {};
    },
  };
}

function toProto(sp: ServiceProviderRecord): ServiceProvider {
  return fromJson(ServiceProviderSchema, serviceProviderView(sp) as JsonObject);
}

function toInput(m: InputMessage): ServiceProviderInput {
  const { $typeName: _t, attributeStatements, attributeStatementsPresent, ...fields } = m;
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as ServiceProviderInput;
  return { ...defined, ...(attributeStatementsPresent || Object.keys(attributeStatements).length ? { attributeStatements } : {}) };
}
