import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Outbox } from "../../../kit/src/bus/outbox.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { expectFields, recordWriteKind } from "../../../kit/src/events/audited-write.js";
import { isBuiltinFlow } from "../../../kit/src/authentication-flows/flow-model.js";
import { auditedWrite } from "./audited-write.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { RealmRecord } from "./realm.js";
import { BUILTIN_VIEWS, flowFields, flowView, type FlowRecord, type FlowView } from "./authentication-flow.js";
import { checkFlowAlias, checkFlowDescription, checkFlowSteps } from "../../../kit/src/authentication-flows/flow-rules.js";
import type { AuthenticationFlowRepository } from "../store/authentication-flow-repository.js";

export const DEFAULT_FLOWS_MAX = 100;
export const MAX_FLOWS_MAX = 1000;

export interface FlowInput {
  alias?: string;
  description?: string;
  steps?: unknown;
}

/** Who uses a flow alias (the realm's settings, clients' overrides), each named for a 409. */
export type FlowUsers = (realm: RealmRecord, alias: string) => Promise<string[]>;

/**
 * A realm's authentication flows (Keycloak's Authentication > Flows): create, list, read, update,
 * delete, each audited (AUTH_FLOW admin events staged with the write). The built-in flows are
 * listed first and can be neither changed nor deleted; a flow the realm or a client uses cannot be
 * deleted or renamed (409 naming the users), as Keycloak refuses to delete a bound flow.
 */
export class FlowAdmin {
  private readonly kind = recordWriteKind("directory.authentication-flow", (realmId, id) => this.repo.findById(realmId, id), flowFields);

  constructor(
    private readonly realms: RealmLookup,
    private readonly repo: AuthenticationFlowRepository,
    private readonly users: FlowUsers,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.kind);
  }

  async create(realmName: string, input: FlowInput): Promise<FlowView> {
    const realm = await this.realms.byName(realmName);
    const alias = checkFlowAlias(input.alias);
    const description = input.description === undefined ? "" : checkFlowDescription(input.description);
    const steps = checkFlowSteps(input.steps);
    await this.refuseTaken(realm, alias, "");
    const now = this.clock.now();
    const record: FlowRecord = {
      _id: randomUUID(), realmId: realm._id, alias, description, stepsJson: JSON.stringify(steps), createdAt: now, updatedAt: now,
    };
    const view = flowView(record);
    await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, id: record._id, expect: "present" },
      { operationType: "CREATE", resourceType: "AUTH_FLOW", path: `authentication/flows/${record._id}`, representation: view }, async () => {
        try {
          await this.repo.insert(record);
        } catch (e) {
          if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`a flow with alias "${alias}" already exists`, "alias");
          throw e;
        }
        return true;
      });
    return view;
  }

  /** The built-in flows, then the realm's in alias order; `first`/`max` page the whole list. */
  async list(realmName: string, first = 0, max = 0): Promise<FlowView[]> {
    const realm = await this.realms.byName(realmName);
    const limit = max === 0 ? DEFAULT_FLOWS_MAX : max;
    if (limit > MAX_FLOWS_MAX) throw IamError.invalid("max", `max must be between 1 and ${MAX_FLOWS_MAX}`);
    const builtins = BUILTIN_VIEWS.slice(first, first + limit);
    const skip = Math.max(0, first - BUILTIN_VIEWS.length);
    const rest = limit - builtins.length;
    const stored = rest > 0 ? await this.repo.page(realm._id, skip, rest) : [];
    return [...builtins, ...stored.map(flowView)];
  }

  async get(realmName: string, id: string): Promise<FlowView> {
    const realm = await this.realms.byName(realmName);
    const builtin = BUILTIN_VIEWS.find((f) => f.id === id);
    if (builtin) return builtin;
    return flowView(await this.find(realm, id));
  }

  /** A flow by alias, built-in or the realm's: the one a login runs. */
  async byAlias(realmName: string, alias: string): Promise<FlowView> {
    const realm = await this.realms.byName(realmName);
    const builtin = BUILTIN_VIEWS.find((f) => f.alias === alias);
    if (builtin) return builtin;
    const record = await this.repo.findByAlias(realm._id, alias);
    if (!record) throw IamError.notFound(`authentication flow "${alias}"`, "flow_not_found");
    return flowView(record);
  }

  /** Whether the alias names a flow of the realm (built-in or stored): realm and client settings check it. */
  async exists(realmId: string, alias: string): Promise<boolean> {
    return isBuiltinFlow(alias) || (await this.repo.findByAlias(realmId, alias)) !== null;
  }

  async update(realmName: string, id: string, input: FlowInput & { id?: string; builtIn?: boolean }): Promise<FlowView> {
    const realm = await this.realms.byName(realmName);
    this.refuseBuiltin(id);
    const current = await this.find(realm, id);
    const set: Partial<FlowRecord> = { updatedAt: this.clock.now() };
    if (input.alias !== undefined && input.alias !== current.alias) {
      set.alias = checkFlowAlias(input.alias);
      const users = await this.users(realm, current.alias);
      if (users.length) throw IamError.conflict(`flow "${current.alias}" is used by ${users.join(", ")}: its alias cannot change`, "alias", "flow_in_use");
      await this.refuseTaken(realm, set.alias, id);
    }
    if (input.description !== undefined) set.description = checkFlowDescription(input.description);
    if (input.steps !== undefined) set.stepsJson = JSON.stringify(checkFlowSteps(input.steps));
    const after: FlowRecord = { ...current, ...set };
    const view = flowView(after);
    const updated = await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, id, expect: expectFields(flowFields, after) },
      { operationType: "UPDATE", resourceType: "AUTH_FLOW", path: `authentication/flows/${id}`, representation: view }, async () => {
        try {
          return (await this.repo.update(realm._id, id, set)) !== null;
        } catch (e) {
          if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`a flow with alias "${set.alias}" already exists`, "alias");
          throw e;
        }
      });
    if (!updated) throw IamError.notFound(`authentication flow "${id}"`, "flow_not_found");
    return view;
  }

  async delete(realmName: string, id: string): Promise<void> {
    const realm = await this.realms.byName(realmName);
    this.refuseBuiltin(id);
    const current = await this.find(realm, id);
    const users = await this.users(realm, current.alias);
    if (users.length) throw IamError.conflict(`flow "${current.alias}" is used by ${users.join(", ")}`, "id", "flow_in_use");
    const deleted = await auditedWrite(this.outbox, this.kind, realm, { realmId: realm._id, id, expect: "absent" },
      { operationType: "DELETE", resourceType: "AUTH_FLOW", path: `authentication/flows/${id}` }, () => this.repo.delete(realm._id, id));
    if (!deleted) throw IamError.notFound(`authentication flow "${id}"`, "flow_not_found");
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.repo.deleteRealm(realmId);
  }

  private async find(realm: RealmRecord, id: string): Promise<FlowRecord> {
    const record = await this.repo.findById(realm._id, id);
    if (!record) throw IamError.notFound(`authentication flow "${id}"`, "flow_not_found");
    return record;
  }

  private refuseBuiltin(id: string): void {
    const builtin = BUILTIN_VIEWS.find((f) => f.id === id);
    if (builtin) throw IamError.invalid("id", `the built-in flow "${builtin.alias}" cannot be changed or deleted`, "builtin_flow");
  }

  /** A readable 409 for a taken alias (built-in aliases included); the unique index still decides a race. */
  private async refuseTaken(realm: RealmRecord, alias: string, id: string): Promise<void> {
    const taken = isBuiltinFlow(alias) || ((await this.repo.findByAlias(realm._id, alias))?._id ?? id) !== id;
    if (taken) throw IamError.conflict(`a flow with alias "${alias}" already exists`, "alias");
  }
}
