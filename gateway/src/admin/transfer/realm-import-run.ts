import { schemaProblems, SECTION_OWNERS, USER_FIELD_OWNERS, type Problem, type RealmDocument } from "../../../../services/kit/src/realm-transfer/document-schema.js";
import type { Realm } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { REALM_PART_OWNERS, type RealmPartOwner, type RpcClients } from "../../rpc-clients.js";
import { partBytes, unlessUnimplemented } from "./part-calls.js";

/** Users per ImportRealmPart call: each batch is one bounded message and one heartbeat of the import. */
export const USER_BATCH = 5000;

/** A document with problems: nothing was written (spec 4.1, the import validates first). */
export class InvalidDocument extends Error {
  constructor(readonly problems: Problem[]) {
    super(`the document has ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
  }
}

export interface ImportOutcome {
  realm: Realm;
  /** What was not carried over, each with its path: Keycloak features without an equivalent, sections no service imports yet. */
  report: Problem[];
}

/**
 * Imports a realm document (spec 4.1): schema, then every owner's own checks, all before any
 * write, every problem with its JSON path; then the directory's staging realm, each owner's part
 * under its id, and FinishRealmImport, which makes it visible. A failure after the staging realm
 * exists aborts it (rolled back: realm.deleted, every service drops its part); a gateway that dies
 * meanwhile leaves it to the directory's lease sweep (realm-import.ts), so a half-imported realm
 * never becomes visible either way.
 */
export async function importRealm(rpc: RpcClients, doc: RealmDocument | unknown, overwrite: boolean, report: Problem[]): Promise<ImportOutcome> {
  const shapeProblems = schemaProblems(doc);
  if (shapeProblems.length) throw new InvalidDocument(shapeProblems);
  const d = doc as RealmDocument;
  const realm = d.realm.name;
  const parts = splitByOwner(d);

  const problems: Problem[] = [];
  const serving = new Set<RealmPartOwner>();
  for (const owner of REALM_PART_OWNERS) {
    const res = await unlessUnimplemented(() => rpc.realmParts[owner].validateRealmPart({ realm, json: partBytes(parts[owner]), overwrite }));
    if (res) {
      serving.add(owner);
      problems.push(...res.problems.map((p) => ({ path: p.path, message: p.message })));
    } else {
      // Carried through, never dropped silently: the sections of an owner that imports nothing yet.
      for (const section of SECTION_OWNERS[owner]) {
        const entries = (d as Record<string, unknown>)[section];
        if (Array.isArray(entries)) {
          entries.forEach((_, i) => report.push({ path: `$.${section}[${i}]`, message: `not imported: the ${owner} service does not import ${section} yet` }));
        }
      }
      for (const field of userFieldsOf(owner)) {
        (d.users ?? []).forEach((u, i) => ((u as Record<string, unknown>)[field] as unknown[] | undefined ?? []).forEach((_, j) => report.push({
          path: `$.users[${i}].${field}[${j}]`, message: `not imported: the ${owner} service does not import ${field} yet`,
        })));
      }
    }
  }
  if (problems.length) throw new InvalidDocument(problems);

  const { realmId } = await rpc.realmImport.beginRealmImport({ realmJson: partBytes(d.realm), overwrite });
  try {
    const { users = [], realm: _settings, ...configuration } = parts.directory as { users?: unknown[]; realm: unknown };
    const notes = await rpc.realmParts.directory.importRealmPart({ realm, realmId, json: partBytes(configuration) });
    report.push(...notes.notes.map((n) => ({ path: n.path, message: n.message })));
    for (let i = 0; i < users.length; i += USER_BATCH) {
      await rpc.realmParts.directory.importRealmPart({ realm, realmId, json: partBytes({ users: users.slice(i, i + USER_BATCH) }), offset: i });
    }
    for (const owner of REALM_PART_OWNERS) {
      if (owner === "directory" || !serving.has(owner)) continue;
      await rpc.realmImport.heartbeatRealmImport({ realm, realmId });
      // Its sections first, then its fields of the users (which may name what the sections hold).
      const { users: userFields = [], ...sections } = parts[owner] as { users?: unknown[] };
      const res = await rpc.realmParts[owner].importRealmPart({ realm, realmId, json: partBytes(sections) });
      report.push(...res.notes.map((n) => ({ path: n.path, message: n.message })));
      for (let i = 0; i < userFields.length; i += USER_BATCH) {
        await rpc.realmImport.heartbeatRealmImport({ realm, realmId });
        const batch = await rpc.realmParts[owner].importRealmPart({ realm, realmId, json: partBytes({ users: userFields.slice(i, i + USER_BATCH) }), offset: i });
        report.push(...batch.notes.map((n) => ({ path: n.path, message: n.message })));
      }
    }
    const finished = await rpc.realmImport.finishRealmImport({ realm, realmId });
    return { realm: finished.realm!, report };
  } catch (e) {
    await rpc.realmImport.abortRealmImport({ realm, realmId }).catch(() => undefined); // the lease sweep finishes it otherwise
    throw e;
  }
}

/**
 * Each owner's sections. An owner of user fields (USER_FIELD_OWNERS) gets `users: [{id, <field>}]`
 * for every user, so its problems' indexes are the document's, when any user has such a field
 * set; otherwise no `users` at all (the usual realm: no work for 100,000 users without links).
 */
function splitByOwner(d: RealmDocument): Record<RealmPartOwner, Record<string, unknown>> {
  const out = {} as Record<RealmPartOwner, Record<string, unknown>>;
  for (const owner of REALM_PART_OWNERS) {
    out[owner] = {};
    for (const section of SECTION_OWNERS[owner]) {
      const v = (d as Record<string, unknown>)[section];
      if (v !== undefined) out[owner][section] = v;
    }
    const fields = userFieldsOf(owner);
    const users = (d.users ?? []) as Array<Record<string, unknown>>;
    if (fields.length && users.some((u) => fields.some((f) => Array.isArray(u[f]) && (u[f] as unknown[]).length > 0))) {
      out[owner].users = users.map((u) => Object.fromEntries([["id", u.id], ...fields.map((f) => [f, u[f]])]));
    }
  }
  return out;
}

function userFieldsOf(owner: RealmPartOwner): readonly string[] {
  return (USER_FIELD_OWNERS as Partial<Record<RealmPartOwner, readonly string[]>>)[owner] ?? [];
}
