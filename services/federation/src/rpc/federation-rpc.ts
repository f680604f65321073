import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  FederationService, ProviderSchema, VerifyOutcome, type Provider, type ProviderInput as InputMessage,
} from "../../../../gen/iam/federation/v1/federation_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import { providerView, type ProviderInput, type ProviderRecord, type SyncResultRecord } from "../domain/provider.js";
import type { ProviderAdmin } from "../domain/provider-admin.js";
import type { SyncScheduler } from "../domain/sync-scheduler.js";
import type { LdapLogin } from "../domain/ldap-login.js";
import { testConnection } from "../domain/connection-test.js";
import type { ProviderRepository } from "../store/provider-repository.js";

export interface FederationParts {
  admin: ProviderAdmin;
  scheduler: SyncScheduler;
  login: LdapLogin;
  repo: ProviderRepository;
}

/** Thin handlers: check -> domain -> convert. */
export function federationRpc(parts: FederationParts, health: ServiceImpl<typeof FederationService>["health"]): ServiceImpl<typeof FederationService> {
  const { admin, scheduler, login, repo } = parts;
  return {
    health,
    async createProvider(req) {
      if (!req.provider) throw IamError.invalid("provider", "provider is required");
      return { provider: toProto(await admin.create(req.realm, toInput(req.provider))) };
    },
    async listProviders(req) {
      return { providers: (await admin.list(req.realm)).map(toProto) };
    },
    async getProvider(req) {
      return { provider: toProto(await admin.get(req.realm, req.id)) };
    },
    async updateProvider(req) {
      return { provider: toProto(await admin.update(req.realm, req.id, req.provider ? toInput(req.provider) : {})) };
    },
    async deleteProvider(req) {
      return { provider: toProto(await admin.delete(req.realm, req.id)) };
    },
    async testConnection(req) {
      const p = await admin.get(req.realm, req.id);
      const r = await testConnection(p, admin.credentialOf(p));
      return r.success ? { success: true } : { success: false, error: r.error, message: r.message };
    },
    async syncProvider(req) {
      const p = await admin.get(req.realm, req.id);
      const result = await scheduler.syncNow(p, req.changedOnly);
      await admin.recordSync(req.realm, p._id, result);
      return { result: syncToProto(result) };
    },
    async findEntry(req) {
      const r = await login.findEntry(req.realmId, req.username);
      if (!r.found) return { found: false, unavailable: r.unavailable !== "", unavailableReason: r.unavailable };
      return { found: true, entry: { ...r.entry, providerId: r.providerId, readOnly: r.readOnly } };
    },
    async verifyPassword(req) {
      const r = await login.verify(req.realmId, req.providerId, req.dn, req.password);
      return { outcome: VerifyOutcome[r.outcome], reason: r.outcome === "UNAVAILABLE" ? r.reason : "" };
    },
    async describeLink(req) {
      const p = await repo.findById(req.realmId, req.providerId);
      return p ? { exists: true, syncMode: p.syncMode, providerName: p.name } : { exists: false };
    },
  };
}

function toProto(p: ProviderRecord): Provider {
  return fromJson(ProviderSchema, providerView(p) as unknown as JsonObject);
}

function syncToProto(r: SyncResultRecord) {
  return { created: r.created, updated: r.updated, failed: r.failed, removed: r.removed, finishedAt: timestampFromMs(r.finishedAt) };
}

function toInput(m: InputMessage): ProviderInput {
  const { $typeName: _t, ...fields } = m;
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as ProviderInput;
}
