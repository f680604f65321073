import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { checkLength, requireString } from "../../../kit/src/validation/checks.js";
import {
  mapperView, OIDC, scopeView, type ClientScopeRecord, type ProtocolMapperRecord, type ScopeAssignmentRecord, type ScopeKind,
} from "./client-scope.js";
import { checkMapperConfig, checkMapperType, withTokenFlagDefaults } from "./mapper-rules.js";
import type { RealmRecord } from "./realm.js";
import type { RealmAccess } from "./realm-access.js";
import type { ClientAdmin } from "./client-admin.js";
import type { ClientScopeRepository } from "../store/client-scope-repository.js";
import type { ScopeAssignmentRepository } from "../store/scope-assignment-repository.js";
import type { PluginRegistry } from "../../../kit/src/plugins/plugin-registry.js";
import type { Outbox } from "../../../kit/src/bus/outbox.js";
import { auditedWrite } from "./audited-write.js";
import { expectFields, recordWriteKind } from "../../../kit/src/events/audited-write.js";

export type ScopeView = ReturnType<typeof scopeView>;

const SCOPE_NAME = /^[\x21\x23-\x5B\x5D-\x7E]+$/; // RFC 6749 section 3.3 scope-token

/** A scope's own fields (its mappers are their own records). */
const scopeFields = (s: ClientScopeRecord) => ({ name: s.name, description: s.description, protocol: s.protocol });
const mapperFields = (m: ProtocolMapperRecord) => ({ name: m.name, config: m.config });
const assignmentFields = (a: ScopeAssignmentRecord) => ({ kind: a.kind });

/**
 * Client scopes, protocol mappers and a client's scope assignments (spec 2.8, 4.9). Each write's
 * admin event is staged with it (auditedWrite): a mapper decides what tokens carry, so a crash
 * must not keep such a change and lose its record.
 */
export class ClientScopeAdmin {
  private readonly scopeKind = recordWriteKind("directory.client-scope", (realmId, id) => this.repo.findScope(realmId, id), scopeFields);
  /** Mapper ids are `<scopeId>/<mapperId>`. */
  private readonly mapperKind = recordWriteKind("directory.protocol-mapper", (realmId, id) => {
    const [scopeId = "", mapperId = ""] = id.split("/");
    return this.repo.findMapper(realmId, scopeId, mapperId);
  }, mapperFields);
  /** Assignment ids are `<client record id>:<scopeId>`. */
  private readonly assignmentKind = recordWriteKind("directory.scope-assignment", (realmId, id) => {
    const [clientId = "", scopeId = ""] = id.split(":");
    return this.assignments.find(realmId, clientId, scopeId);
  }, assignmentFields);

  constructor(
    private readonly repo: ClientScopeRepository,
    private readonly assignments: ScopeAssignmentRepository,
    private readonly realms: RealmAccess,
    private readonly clients: ClientAdmin,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    /** Plugin mapper types are accepted while their plugin is loaded. */
    private readonly plugins?: PluginRegistry,
  ) {
    for (const kind of [this.scopeKind, this.mapperKind, this.assignmentKind]) outbox.register(kind);
  }

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
    const view = scopeView(scope, []);
    await auditedWrite(this.outbox, this.scopeKind, realm, { realmId: realm._id, id: scope._id, expect: "present" },
      { operationType: "CREATE", resourceType: "CLIENT_SCOPE", path: `client-scopes/${scope._id}`, representation: view },
      async () => { await this.insertScope(scope); return true; });
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
    const current = await this.requireScope(realm, scopeId);
    const set: Partial<ClientScopeRecord> = {};
    if (input.name !== undefined) set.name = checkScopeName(input.name);
    if (input.description !== undefined) set.description = checkLength("description", input.description, 0, 2048);
    const after = { ...current, ...set };
    const view = scopeView(after, await this.repo.mappersOf(realm._id, [scopeId]));
    const updated = await auditedWrite(this.outbox, this.scopeKind, realm, { realmId: realm._id, id: scopeId, expect: expectFields(scopeFields, after) },
      { operationType: "UPDATE", resourceType: "CLIENT_SCOPE", path: `client-scopes/${scopeId}`, representation: view }, async () => {
        try {
          return (await this.repo.updateScope(realm._id, scopeId, set)) !== null;
        } catch (e) {
          if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`client scope "${set.name}" already exists`, "name");
          throw e;
        }
      });
    if (!updated) throw scopeNotFound(scopeId);
    return view;
  }

  /** Deletes the scope, its mappers and its assignments to clients. */
  async delete(realmName: string, scopeId: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    const deleted = await auditedWrite(this.outbox, this.scopeKind, realm, { realmId: realm._id, id: scopeId, expect: "absent" },
      { operationType: "DELETE", resourceType: "CLIENT_SCOPE", path: `client-scopes/${scopeId}` }, async () => {
        if (!(await this.repo.deleteScope(realm._id, scopeId))) return false;
        await this.assignments.deleteScope(realm._id, scopeId);
        return true;
      });
    if (!deleted) throw scopeNotFound(scopeId);
  }

  async addMapper(realmName: string, scopeId: string, input: { name?: string; mapperType?: string; protocol?: string; config?: Record<string, string> }) {
    const realm = await this.realms.byName(realmName);
    const scope = await this.requireScope(realm, scopeId);
    const name = requireString("name", input.name, 1, 255);
    const mapperType = checkMapperType(input.mapperType, this.plugins);
    if (input.protocol !== undefined && input.protocol !== scope.protocol) {
      throw IamError.invalid("protocol", `protocol must be "${scope.protocol}", the scope's protocol`);
    }
    const mapper: ProtocolMapperRecord = {
      _id: randomUUID(), realmId: realm._id, scopeId, name, mapperType, protocol: scope.protocol,
      config: withTokenFlagDefaults(mapperType, checkMapperConfig(mapperType, input.config ?? {}, this.plugins)), createdAt: this.clock.now(),
    };
    await auditedWrite(this.outbox, this.mapperKind, realm, { realmId: realm._id, id: `${scopeId}/${mapper._id}`, expect: "present" },
      { operationType: "CREATE", resourceType: "PROTOCOL_MAPPER", path: mapperPath(mapper), representation: mapperView(mapper) }, async () => {
        try {
          await this.repo.insertMapper(mapper);
        } catch (e) {
          if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`protocol mapper "${name}" already exists in this scope`, "name");
          throw e;
        }
        return true;
      });
    return mapperView(mapper);
  }

  async updateMapper(realmName: string, scopeId: string, mapperId: string, input: { name?: string; config?: Record<string, string> }) {
    const realm = await this.realms.byName(realmName);
    await this.requireScope(realm, scopeId);
    const current = await this.repo.findMapper(realm._id, scopeId, mapperId);
    if (!current) throw IamError.notFound(`protocol mapper "${mapperId}"`, "mapper_not_found");
    const set: Partial<ProtocolMapperRecord> = {};
    if (input.name !== undefined) set.name = requireString("name", input.name, 1, 255);
    if (input.config !== undefined) set.config = withTokenFlagDefaults(current.mapperType, checkMapperConfig(current.mapperType, input.config, this.plugins));
    const after = { ...current, ...set };
    const updated = await auditedWrite(this.outbox, this.mapperKind, realm, { realmId: realm._id, id: `${scopeId}/${mapperId}`, expect: expectFields(mapperFields, after) },
      { operationType: "UPDATE", resourceType: "PROTOCOL_MAPPER", path: mapperPath(after), representation: mapperView(after) }, async () => {
        try {
          return (await this.repo.updateMapper(realm._id, scopeId, mapperId, set)) !== null;
        } catch (e) {
          if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`protocol mapper "${set.name}" already exists in this scope`, "name");
          throw e;
        }
      });
    if (!updated) throw IamError.notFound(`protocol mapper "${mapperId}"`, "mapper_not_found");
    return mapperView(after);
  }

  async deleteMapper(realmName: string, scopeId: string, mapperId: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    await this.requireScope(realm, scopeId);
    const deleted = await auditedWrite(this.outbox, this.mapperKind, realm, { realmId: realm._id, id: `${scopeId}/${mapperId}`, expect: "absent" },
      { operationType: "DELETE", resourceType: "PROTOCOL_MAPPER", path: `client-scopes/${scopeId}/protocol-mappers/${mapperId}` },
      () => this.repo.deleteMapper(realm._id, scopeId, mapperId));
    if (!deleted) throw IamError.notFound(`protocol mapper "${mapperId}"`, "mapper_not_found");
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
    const record: ScopeAssignmentRecord = { _id: `${client._id}:${scope._id}`, realmId: realm._id, clientId: client._id, scopeId: scope._id, kind };
    const assignment = { clientId: client.clientId, clientScopeId: scope._id, clientScopeName: scope.name, kind };
    // Assigned as this kind: one already of the other kind is a 409, and then nothing is recorded.
    await auditedWrite(this.outbox, this.assignmentKind, realm, { realmId: realm._id, id: record._id, expect: expectFields(assignmentFields, record) },
      { operationType: "CREATE", resourceType: "CLIENT_SCOPE_CLIENT_MAPPING", path: `clients/${client._id}/${kind}-client-scopes/${scope._id}`, representation: assignment }, async () => {
        try {
          await this.assignments.insert(record);
        } catch (e) {
          if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
          const existing = await this.assignments.find(realm._id, client._id, scope._id);
          if (existing?.kind !== kind) {
            throw IamError.conflict(`client scope "${scope.name}" is already a ${existing?.kind ?? "assigned"} scope of client "${clientId}"`, "clientScopeId");
          }
        }
        return true;
      });
    return assignment;
  }

  async unassign(realmName: string, clientId: string, kind: ScopeKind, scopeId: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    const client = await this.clients.require(realm, clientId);
    const removed = await auditedWrite(this.outbox, this.assignmentKind, realm, { realmId: realm._id, id: `${client._id}:${scopeId}`, expect: "absent" },
      { operationType: "DELETE", resourceType: "CLIENT_SCOPE_CLIENT_MAPPING", path: `clients/${client._id}/${kind}-client-scopes/${scopeId}` },
      () => this.assignments.remove(realm._id, client._id, scopeId, kind));
    if (!removed) throw IamError.notFound(`${kind} client scope "${scopeId}" of client "${clientId}"`, "scope_assignment_not_found");
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
