import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { checkLength, requireString } from "../../../kit/src/validation/checks.js";
import {
  mapperView, OIDC, scopeView, type ClientScopeRecord, type ProtocolMapperRecord, type ScopeKind,
} from "./client-scope.js";
import { checkMapperConfig, checkMapperType } from "./mapper-rules.js";
import type { RealmRecord } from "./realm.js";
import type { RealmAccess } from "./realm-access.js";
import type { ClientAdmin } from "./client-admin.js";
import type { ClientScopeRepository } from "../store/client-scope-repository.js";
import type { ScopeAssignmentRepository } from "../store/scope-assignment-repository.js";
import type { DirectoryAdminEvents } from "../events/directory-admin-events.js";

export type ScopeView = ReturnType<typeof scopeView>;

const SCOPE_NAME = /^[\x21\x23-\x5B\x5D-\x7E]+$/; // RFC 6749 section 3.3 scope-token

/** Client scopes, protocol mappers and a client's scope assignments (spec 2.8, 4.9). */
export class ClientScopeAdmin {
  constructor(
    private readonly repo: ClientScopeRepository,
    private readonly assignments: ScopeAssignmentRepository,
    private readonly realms: RealmAccess,
    private readonly clients: ClientAdmin,
    private readonly events: DirectoryAdminEvents,
    private readonly clock: Clock,
  ) {}

  async create(realmName: string, input: { name?: string; description?: string; protocol?: string }): Promise<ScopeView> {
    const realm = await this.realms.byName(realmName);
    const name = checkScopeName(input.name);
    if (input.description !== undefined) checkLength("description", input.description, 0, 2048);
    if (input.protocol !== undefined && input.protocol !== OIDC && input.protocol !== "saml") {
      throw IamError.invalid("protocol", 'protocol must be "openid-connect" or "saml"');
    }
    const scope: ClientScopeRecord = {
      _id: randomUUID(), realmId: realm._id, name, description: input.description ?? "",
      protocol: input.protocol ?? OIDC, createdAt: this.clock.now(),
    };
    await this.insertScope(scope);
    const view = scopeView(scope, []);
    await this.events.record(realm, "CREATE", "CLIENT_SCOPE", `client-scopes/${scope._id}`, view);
    return view;
  }

  async list(realmName: string): Promise<ScopeView[]> {
    const realm = await this.realms.byName(realmName);
    const scopes = await this.repo.listScopes(realm._id);
    const mappers = await this.repo.mappersOf(realm._id, scopes.map((s) => s._id));
    return scopes.map((s) => scopeView(s, mappers));
  }

  async get(realmName: string, scopeId: string): Promise<ScopeView> {
    const realm = await this.realms.byName(realmName);
    const scope = await this.requireScope(realm, scopeId);
    return scopeView(scope, await this.repo.mappersOf(realm._id, [scope._id]));
  }

  async update(realmName: string, scopeId: string, input: { name?: string; description?: string }): Promise<ScopeView> {
    const realm = await this.realms.byName(realmName);
    await this.requireScope(realm, scopeId);
    const set: Partial<ClientScopeRecord> = {};
    if (input.name !== undefined) set.name = checkScopeName(input.name);
    if (input.description !== undefined) set.description = checkLength("description", input.description, 0, 2048);
    let updated: ClientScopeRecord | null;
    try {
      updated = await this.repo.updateScope(realm._id, scopeId, set);
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`client scope "${set.name}" already exists`, "name");
      throw e;
    }
    if (!updated) throw scopeNotFound(scopeId);
    const view = scopeView(updated, await this.repo.mappersOf(realm._id, [scopeId]));
    await this.events.record(realm, "UPDATE", "CLIENT_SCOPE", `client-scopes/${scopeId}`, view);
    return view;
  }

  /** Deletes the scope, its mappers and its assignments to clients. */
  async delete(realmName: string, scopeId: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    if (!(await this.repo.deleteScope(realm._id, scopeId))) throw scopeNotFound(scopeId);
    await this.assignments.deleteScope(realm._id, scopeId);
    await this.events.record(realm, "DELETE", "CLIENT_SCOPE", `client-scopes/${scopeId}`);
  }

  async addMapper(realmName: string, scopeId: string, input: { name?: string; mapperType?: string; protocol?: string; config?: Record<string, string> }) {
    const realm = await this.realms.byName(realmName);
    const scope = await this.requireScope(realm, scopeId);
    const name = requireString("name", input.name, 1, 255);
    const mapperType = checkMapperType(input.mapperType);
    if (input.protocol !== undefined && input.protocol !== scope.protocol) {
      throw IamError.invalid("protocol", `protocol must be "${scope.protocol}", the scope's protocol`);
    }
    const mapper: ProtocolMapperRecord = {
      _id: randomUUID(), realmId: realm._id, scopeId, name, mapperType, protocol: scope.protocol,
      config: checkMapperConfig(mapperType, input.config ?? {}), createdAt: this.clock.now(),
    };
    try {
      await this.repo.insertMapper(mapper);
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`protocol mapper "${name}" already exists in this scope`, "name");
      throw e;
    }
    await this.events.record(realm, "CREATE", "PROTOCOL_MAPPER", mapperPath(mapper), mapperView(mapper));
    return mapperView(mapper);
  }

  async updateMapper(realmName: string, scopeId: string, mapperId: string, input: { name?: string; config?: Record<string, string> }) {
    const realm = await this.realms.byName(realmName);
    await this.requireScope(realm, scopeId);
    const current = await this.repo.findMapper(realm._id, scopeId, mapperId);
    if (!current) throw IamError.notFound(`protocol mapper "${mapperId}"`, "mapper_not_found");
    const set: Partial<ProtocolMapperRecord> = {};
    if (input.name !== undefined) set.name = requireString("name", input.name, 1, 255);
    if (input.config !== undefined) set.config = checkMapperConfig(current.mapperType, input.config);
    let updated: ProtocolMapperRecord | null;
    try {
      updated = await this.repo.updateMapper(realm._id, scopeId, mapperId, set);
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`protocol mapper "${set.name}" already exists in this scope`, "name");
      throw e;
    }
    if (!updated) throw IamError.notFound(`protocol mapper "${mapperId}"`, "mapper_not_found");
    await this.events.record(realm, "UPDATE", "PROTOCOL_MAPPER", mapperPath(updated), mapperView(updated));
    return mapperView(updated);
  }

  async deleteMapper(realmName: string, scopeId: string, mapperId: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    await this.requireScope(realm, scopeId);
    if (!(await this.repo.deleteMapper(realm._id, scopeId, mapperId))) {
      throw IamError.notFound(`protocol mapper "${mapperId}"`, "mapper_not_found");
    }
    await this.events.record(realm, "DELETE", "PROTOCOL_MAPPER", `client-scopes/${scopeId}/protocol-mappers/${mapperId}`);
  }

  async listAssigned(realmName: string, clientId: string, kind: ScopeKind): Promise<ScopeView[]> {
    const realm = await this.realms.byName(realmName);
    const client = await this.clients.require(realm, clientId);
    const assigned = await this.assignments.ofClient(realm._id, client._id, kind);
    const scopes = await this.repo.findScopesByIds(realm._id, assigned.map((a) => a.scopeId));
    const mappers = await this.repo.mappersOf(realm._id, scopes.map((s) => s._id));
    return scopes.map((s) => scopeView(s, mappers));
  }

  /** A scope is either default or optional for a client, never both (409). */
  async assign(realmName: string, clientId: string, kind: ScopeKind, scopeId: string | undefined) {
    const realm = await this.realms.byName(realmName);
    const client = await this.clients.require(realm, clientId);
    const id = requireString("clientScopeId", scopeId, 1, 64);
    const scope = await this.repo.findScope(realm._id, id);
    if (!scope) throw scopeNotFound(id);
    try {
      await this.assignments.insert({ _id: `${client._id}:${scope._id}`, realmId: realm._id, clientId: client._id, scopeId: scope._id, kind });
    } catch (e) {
      if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
      const existing = await this.assignments.find(realm._id, client._id, scope._id);
      if (existing?.kind !== kind) {
        throw IamError.conflict(`client scope "${scope.name}" is already a ${existing?.kind ?? "assigned"} scope of client "${clientId}"`, "clientScopeId");
      }
    }
    const assignment = { clientId: client.clientId, clientScopeId: scope._id, clientScopeName: scope.name, kind };
    await this.events.record(realm, "CREATE", "CLIENT_SCOPE_CLIENT_MAPPING", `clients/${client._id}/${kind}-client-scopes/${scope._id}`, assignment);
    return assignment;
  }

  async unassign(realmName: string, clientId: string, kind: ScopeKind, scopeId: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    const client = await this.clients.require(realm, clientId);
    if (!(await this.assignments.remove(realm._id, client._id, scopeId, kind))) {
      throw IamError.notFound(`${kind} client scope "${scopeId}" of client "${clientId}"`, "scope_assignment_not_found");
    }
    await this.events.record(realm, "DELETE", "CLIENT_SCOPE_CLIENT_MAPPING", `clients/${client._id}/${kind}-client-scopes/${scopeId}`);
  }

  private async requireScope(realm: RealmRecord, id: string): Promise<ClientScopeRecord> {
    const scope = await this.repo.findScope(realm._id, id);
    if (!scope) throw scopeNotFound(id);
    return scope;
  }

  private async insertScope(scope: ClientScopeRecord): Promise<void> {
    try {
      await this.repo.insertScope(scope);
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`client scope "${scope.name}" already exists`, "name");
      throw e;
    }
  }
}

function checkScopeName(v: string | undefined): string {
  const name = requireString("name", v, 1, 255);
  if (!SCOPE_NAME.test(name)) throw IamError.invalid("name", "name must be a scope token: printable ASCII without spaces, quotes or backslashes");
  return name;
}

function scopeNotFound(id: string): IamError {
  return IamError.notFound(`client scope "${id}"`, "client_scope_not_found");
}

function mapperPath(m: ProtocolMapperRecord): string {
  return `client-scopes/${m.scopeId}/protocol-mappers/${m._id}`;
}
