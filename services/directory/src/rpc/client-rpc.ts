import { create, fromJson, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  ClientService, ClientSchema, ServiceAccountUserSchema, type Client, type ClientInput, type ClientUpdate,
} from "../../../../gen/iam/directory/v1/client_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import { clientView, type ClientCreateInput, type ClientRecord, type ClientUpdateInput } from "../domain/client.js";
import type { ClientAdmin } from "../domain/client-admin.js";
import type { ClientAuthenticator } from "../domain/client-authenticator.js";

/** Thin handlers: check -> domain -> convert. */
export function clientRpc(admin: ClientAdmin, auth: ClientAuthenticator): ServiceImpl<typeof ClientService> {
  return {
    async createClient(req) {
      if (!req.client) throw IamError.invalid("client", "client is required");
      const { client, secret } = await admin.create(req.realm, createInput(req.client));
      return { client: toProto(client, secret) };
    },
    async listClients(req) {
      return { clients: (await admin.list(req.realm)).map((c) => toProto(c)) };
    },
    async getClient(req) {
      return { client: toProto(await admin.get(req.realm, req.clientId)) };
    },
    async updateClient(req) {
      return { client: toProto(await admin.update(req.realm, req.clientId, updateInput(req.update))) };
    },
    async deleteClient(req) {
      await admin.delete(req.realm, req.clientId);
      return {};
    },
    async regenerateClientSecret(req) {
      const { client, secret } = await admin.regenerateSecret(req.realm, req.clientId);
      return { client: toProto(client, secret) };
    },
    async getServiceAccountUser(req) {
      const u = await admin.serviceAccountUser(req.realm, req.clientId);
      return {
        user: create(ServiceAccountUserSchema, {
          id: u._id, username: u.username, email: u.email, firstName: u.firstName, lastName: u.lastName,
          enabled: u.enabled, emailVerified: u.emailVerified, serviceAccountClientId: u.serviceAccountClientId,
          createdAt: timestampFromMs(u.createdAt),
        }),
      };
    },
    async authenticateClient(req) {
      return { client: toProto(await auth.authenticate(req.realm, req.clientId, req.secret)) };
    },
    async verifyClientSecretJwt(req) {
      await auth.verifyClientSecretJwt(req.realm, req.clientId, req.assertion);
      return {};
    },
    async getClientCredentialVerifier(req) {
      const v = await auth.verifier(req.realm, req.clientId);
      return { client: toProto(v.client), verifierSalt: v.salt, verifier: v.digest, scopeNames: v.scopeNames, scopes: v.scopes, introspectionClaimsDiffer: v.introspectionClaimsDiffer };
    },
  };
}

function toProto(c: ClientRecord, secret?: string): Client {
  return fromJson(ClientSchema, clientView(c, secret) as unknown as JsonObject);
}

function createInput(m: ClientInput): ClientCreateInput {
  const { $typeName: _t, grantTypes, grantTypesPresent, ...fields } = m;
  // A non-empty list is "sent" even without the presence flag (RPC callers other than the gateway).
  return { ...definedOnly(fields), ...(grantTypesPresent || grantTypes.length ? { grantTypes } : {}) };
}

function updateInput(m: ClientUpdate | undefined): ClientUpdateInput {
  if (!m) return {};
  const { $typeName: _t, redirectUris, webOrigins, grantTypes, redirectUrisPresent, webOriginsPresent, grantTypesPresent, ...fields } = m;
  return {
    ...definedOnly(fields),
    ...(redirectUrisPresent || redirectUris.length ? { redirectUris } : {}),
    ...(webOriginsPresent || webOrigins.length ? { webOrigins } : {}),
    ...(grantTypesPresent || grantTypes.length ? { grantTypes } : {}),
  };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
