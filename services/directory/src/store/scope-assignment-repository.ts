import { countWrites, type WriteCounter } from "../../../kit/src/store/write-counted.js";
import type { Collection, Store } from "../../../kit/src/store/port.js";
import type { ScopeAssignmentRecord, ScopeKind } from "../domain/client-scope.js";

/**
 * A client's default and optional scopes. The unique (client, scope) index makes "both default and
 * optional" impossible, whatever the race.
 */
export class ScopeAssignmentRepository {
  private constructor(private readonly assignments: Collection<ScopeAssignmentRecord>) {}

  /** `writes` counts this repository's writes for a read cache (WriteCounter). */
  static async open(store: Store, writes?: WriteCounter): Promise<ScopeAssignmentRepository> {
    const assignments = await store.collection<ScopeAssignmentRecord>({
      name: "scope_assignments",
      indexes: [{ fields: ["realmId", "clientId", "scopeId"], unique: true }, { fields: ["realmId", "scopeId"] }],
    });
    return new ScopeAssignmentRepository(writes ? countWrites(assignments, writes) : assignments);
  }

  /** Throws IamError alreadyExists when the scope is already assigned to the client (either kind). */
  insert(a: ScopeAssignmentRecord): Promise<void> {
    return this.assignments.insert(a);
  }

  find(realmId: string, clientId: string, scopeId: string): Promise<ScopeAssignmentRecord | null> {
    return this.assignments.findOne({ realmId, clientId, scopeId });
  }

  ofClient(realmId: string, clientId: string, kind?: ScopeKind): Promise<ScopeAssignmentRecord[]> {
    return this.assignments.find({ realmId, clientId, ...(kind ? { kind } : {}) });
  }

  async remove(realmId: string, clientId: string, scopeId: string, kind: ScopeKind): Promise<boolean> {
    return (await this.assignments.deleteMany({ realmId, clientId, scopeId, kind })) > 0;
  }

  deleteClient(realmId: string, clientId: string): Promise<number> {
    return this.assignments.deleteMany({ realmId, clientId });
  }

  deleteScope(realmId: string, scopeId: string): Promise<number> {
    return this.assignments.deleteMany({ realmId, scopeId });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.assignments.deleteMany({ realmId });
  }
}
