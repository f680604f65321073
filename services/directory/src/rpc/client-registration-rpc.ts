import { create, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  ClientRegistrationService, InitialAccessTokenSchema, RegistrationPolicySchema, type InitialAccessToken, type RegistrationPolicy,
} from "../../../../gen/iam/directory/v1/client_registration_pb.js";
import type { DynamicRegistration } from "../domain/dynamic-registration.js";
import type { RegistrationAdmin } from "../domain/registration-admin.js";
import type { InitialAccessTokenRecord } from "../store/initial-access-token-repository.js";
import type { RegistrationPolicyRecord } from "../store/registration-policy-repository.js";

/** Thin handlers: check -> domain -> convert. */
export function clientRegistrationRpc(admin: RegistrationAdmin, registration: DynamicRegistration): ServiceImpl<typeof ClientRegistrationService> {
  return {
    async createInitialAccessToken(req) {
      const { record, token } = await admin.createToken(req.realm, { expiration: req.input?.expiration, count: req.input?.count });
      return { token: tokenProto(record, token) };
    },
    async listInitialAccessTokens(req) {
      return { tokens: (await admin.listTokens(req.realm, req.first, req.max)).map((t) => tokenProto(t)) };
    },
    async deleteInitialAccessToken(req) {
      await admin.deleteToken(req.realm, req.id);
      return {};
    },
    async getRegistrationPolicy(req) {
      return { policy: policyProto(await admin.policy(req.realm)) };
    },
    async updateRegistrationPolicy(req) {
      const u = req.update;
      const policy = await admin.updatePolicy(req.realm, {
        anonymousRegistrationAllowed: u?.anonymousRegistrationAllowed,
        maxClients: u?.maxClients,
        allowedRedirectUriHosts: u && (u.allowedRedirectUriHostsPresent || u.allowedRedirectUriHosts.length) ? u.allowedRedirectUriHosts : undefined,
        allowedGrantTypes: u && (u.allowedGrantTypesPresent || u.allowedGrantTypes.length) ? u.allowedGrantTypes : undefined,
      });
      return { policy: policyProto(policy) };
    },
    async registerClient(req) {
      return { metadata: await registration.register(req.realm, req.initialAccessToken, req.metadata ?? {}) as JsonObject };
    },
    async getRegisteredClient(req) {
      return { metadata: await registration.read(req.realm, req.clientId, req.registrationAccessToken) as JsonObject };
    },
    async updateRegisteredClient(req) {
      return { metadata: await registration.update(req.realm, req.clientId, req.registrationAccessToken, req.metadata ?? {}) as JsonObject };
    },
    async deleteRegisteredClient(req) {
      await registration.delete(req.realm, req.clientId, req.registrationAccessToken);
      return {};
    },
  };
}

function tokenProto(t: InitialAccessTokenRecord, token?: string): InitialAccessToken {
  return create(InitialAccessTokenSchema, {
    id: t._id, expiration: t.expiration, count: t.count, remainingCount: t.remainingCount, createdAt: timestampFromMs(t.createdAt),
    ...(t.expiresAt !== undefined ? { expiresAt: timestampFromMs(t.expiresAt) } : {}),
    ...(token !== undefined ? { token } : {}),
  });
}

function policyProto(p: RegistrationPolicyRecord): RegistrationPolicy {
  return create(RegistrationPolicySchema, {
    anonymousRegistrationAllowed: p.anonymousRegistrationAllowed, allowedRedirectUriHosts: p.allowedRedirectUriHosts,
    allowedGrantTypes: p.allowedGrantTypes, maxClients: p.maxClients, registeredClients: p.registeredClients,
  });
}
