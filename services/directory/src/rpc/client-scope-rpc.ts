import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  ClientScopeService, ClientScopeSchema, ProtocolMapperSchema, ScopeAssignmentSchema, ScopeKind, type ClientScope,
} from "../../../../gen/iam/directory/v1/client_scope_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { ClientScopeAdmin, ScopeView } from "../domain/client-scope-admin.js";
import type { ScopeKind as DomainKind } from "../domain/client-scope.js";

/** Thin handlers: check -> domain -> convert. */
export function clientScopeRpc(admin: ClientScopeAdmin): ServiceImpl<typeof ClientScopeService> {
  return {
    async createClientScope(req) {
      const { $typeName: _t, ...input } = req.scope ?? { $typeName: "" };
      return { scope: toProto(await admin.create(req.realm, definedOnly(input))) };
    },
    async listClientScopes(req) {
      return { scopes: (await admin.list(req.realm)).map(toProto) };
    },
    async getClientScope(req) {
      return { scope: toProto(await admin.get(req.realm, req.scopeId)) };
    },
    async updateClientScope(req) {
      const { $typeName: _t, ...input } = req.update ?? { $typeName: "" };
      return { scope: toProto(await admin.update(req.realm, req.scopeId, definedOnly(input))) };
    },
    async deleteClientScope(req) {
      await admin.delete(req.realm, req.scopeId);
      return {};
    },
    async createProtocolMapper(req) {
      const { $typeName: _t, config, ...input } = req.mapper ?? { $typeName: "", config: {} };
      const m = await admin.addMapper(req.realm, req.scopeId, { ...definedOnly(input), config });
      return { mapper: fromJson(ProtocolMapperSchema, m as unknown as JsonObject) };
    },
    async updateProtocolMapper(req) {
      const u = req.update;
      const m = await admin.updateMapper(req.realm, req.scopeId, req.mapperId, {
        ...(u?.name !== undefined ? { name: u.name } : {}),
        ...(u?.configPresent ? { config: u.config } : {}),
      });
      return { mapper: fromJson(ProtocolMapperSchema, m as unknown as JsonObject) };
    },
    async deleteProtocolMapper(req) {
      await admin.deleteMapper(req.realm, req.scopeId, req.mapperId);
      return {};
    },
    async listScopeAssignments(req) {
      return { scopes: (await admin.listAssigned(req.realm, req.clientId, kindOf(req.kind))).map(toProto) };
    },
    async assignScope(req) {
      const a = await admin.assign(req.realm, req.clientId, kindOf(req.kind), req.clientScopeId || undefined);
      return { assignment: fromJson(ScopeAssignmentSchema, a as unknown as JsonObject) };
    },
    async removeScopeAssignment(req) {
      await admin.unassign(req.realm, req.clientId, kindOf(req.kind), req.scopeId);
      return {};
    },
  };
}

function kindOf(k: ScopeKind): DomainKind {
  if (k === ScopeKind.DEFAULT) return "default";
  if (k === ScopeKind.OPTIONAL) return "optional";
  throw IamError.invalid("kind", "kind is required");
}

function toProto(v: ScopeView): ClientScope {
  return fromJson(ClientScopeSchema, v as unknown as JsonObject);
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
