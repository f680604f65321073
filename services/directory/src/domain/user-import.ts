import { randomUUID } from "node:crypto";
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { RealmRecord } from "./realm.js";
import { emailKeyOf, userView, type UserRecord } from "./user.js";
import { checkAttributes, checkOptionalEmail, checkUserFields, checkUsername } from "./user-rules.js";
import { usernameKeyOf } from "./username.js";
import { MAX_PASSWORD, SPEC_MIN_PASSWORD } from "./password-policy.js";
import { importedPassword } from "./imported-credential.js";
import type { UserCredentials } from "./user-credentials.js";
import type { UserRepository } from "../store/user-repository.js";
import type { UserEvents } from "../events/user-events.js";
import { auditedWrite } from "./audited-write.js";
import type { UserWrites } from "./user-writes.js";
import { isUserRequiredAction, orderedActions } from "../../../kit/src/validation/required-actions.js";

/** Users per import request (the spec leaves the size unshown). */
export const MAX_IMPORT_USERS = 10_000;

export interface ImportError { index: number; username: string; error: string; message: string }
export interface ImportResult { imported: number; skipped: number; failed: number; errors: ImportError[] }

const STRING_FIELDS = ["username", "email", "firstName", "lastName"] as const;
const BOOLEAN_FIELDS = ["enabled", "emailVerified", "requirePasswordReset"] as const;

/**
 * User import (spec 2.2 migration fields, 4.2 import users, DESIGN 5). Each user is the create body
 * plus `emailVerified`, `requirePasswordReset`, `attributes`, and either a plain `password` or a hash
 * (imported-credential.ts). Results are per user; one bad user never fails the others:
 *  - a username or email already in the realm is `skipped` (error `conflict`): import never overwrites;
 *  - an invalid user or an unsupported hash is `failed` with its reason;
 *  - a plain password is checked for spec 8's minimum length only, not the realm's policy: a
 *    migration carries over passwords users already have (the realm's policy applies at the next change).
 * Other fields of a Keycloak export (id, createdTimestamp, realmRoles...) are ignored;
 * Keycloak's `requiredActions: ["UPDATE_PASSWORD"]` sets `requirePasswordReset`.
 * Imported hashes keep their format until the user's next successful login re-hashes them to argon2id.
 * In a realm with admin events each imported user's `CREATE USER` is staged with its creation, as an
 * Admin API create's is (auditedWrite; Keycloak's partial import records one per resource it adds),
 * and the import's `ACTION USER users/import` summary, with its counts, follows the last one: a crash
 * part-way loses that summary, whose counts exist only at the end, but no user's record.
 */
export class UserImport {
  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserRepository,
    private readonly credentials: UserCredentials,
    private readonly writes: Pick<UserWrites, "outbox" | "userRecords">,
    private readonly events: UserEvents,
    private readonly clock: Clock,
  ) {}

  async import(realmName: string, input: JsonObject[]): Promise<ImportResult> {
    const realm = await this.realms.byName(realmName);
    if (input.length > MAX_IMPORT_USERS) {
      throw IamError.invalid("users", `at most ${MAX_IMPORT_USERS} users per import`, "too_many_users");
    }
    const out: ImportResult = { imported: 0, skipped: 0, failed: 0, errors: [] };
    for (const [index, raw] of input.entries()) {
      const username = typeof raw?.username === "string" ? raw.username.trim() : "";
      try {
        await this.importOne(realm, raw);
        out.imported++;
      } catch (e) {
        if (!(e instanceof IamError)) throw e;
        if (e.code === "alreadyExists") out.skipped++;
        else out.failed++;
        out.errors.push({ index, username, error: e.reason, message: e.message });
      }
    }
    await this.events.admin(realm, "ACTION", "USER", "users/import", { imported: out.imported, skipped: out.skipped, failed: out.failed });
    return out;
  }

  private async importOne(realm: RealmRecord, u: JsonObject): Promise<void> {
    // The gateway sends a non-object element as {$invalid: true}, keeping its index.
    if (typeof u !== "object" || u === null || Array.isArray(u) || u.$invalid === true) throw IamError.invalid("user", "each user must be a JSON object");
    for (const f of STRING_FIELDS) if (u[f] !== undefined && typeof u[f] !== "string") throw IamError.invalid(f, `${f} must be a string`);
    for (const f of BOOLEAN_FIELDS) if (u[f] !== undefined && typeof u[f] !== "boolean") throw IamError.invalid(f, `${f} must be a boolean`);
    const username = checkUsername(u.username as string | undefined);
    const email = u.email === undefined ? "" : checkOptionalEmail(u.email as string);
    checkUserFields({ firstName: u.firstName as string | undefined, lastName: u.lastName as string | undefined });
    const attributes = checkAttributes(u.attributes);
    const plain = checkPlain(u.password);
    const imported = importedPassword(u);
    if (plain !== undefined && imported) throw IamError.invalid("password", "give either password or a password hash, not both");
    const requiredActions = Array.isArray(u.requiredActions) ? u.requiredActions : [];
    const requirePasswordReset = u.requirePasswordReset === true || requiredActions.includes("UPDATE_PASSWORD") || imported?.temporary === true;
    const listed = orderedActions(requiredActions.filter(isUserRequiredAction)).filter((a) => a !== "UPDATE_PASSWORD");
    const hash = plain === undefined ? undefined : await this.credentials.hash(plain);

    const now = this.clock.now();
    const id = randomUUID();
    const user: UserRecord = {
      _id: id, realmId: realm._id, username, usernameKey: usernameKeyOf(username), email, emailKey: emailKeyOf(id, email),
      firstName: (u.firstName as string | undefined) ?? "", lastName: (u.lastName as string | undefined) ?? "",
      enabled: u.enabled !== false, emailVerified: u.emailVerified === true, requirePasswordReset,
      // Keycloak's other required actions Tessera runs are kept too; unknown names are ignored, as before.
      ...(listed.length ? { requiredActions: listed } : {}),
      serviceAccountClientId: "", attributes, createdAt: now, updatedAt: now,
    };
    await auditedWrite(this.writes.outbox, this.writes.userRecords, realm, { realmId: realm._id, id, expect: "present" },
      { operationType: "CREATE", resourceType: "USER", path: `users/${id}`, representation: userView(user) }, async () => {
        try {
          await this.users.insert(user);
        } catch (e) {
          if (e instanceof IamError && e.code === "alreadyExists") {
            const taken = (await this.users.findByUsername(realm._id, username)) ? `username "${username}"` : `email "${email}"`;
            throw IamError.conflict(`${taken} already exists`);
          }
          throw e;
        }
        if (hash !== undefined) await this.credentials.store(realm, user, hash, requirePasswordReset);
        if (imported) await this.credentials.store(realm, user, imported.hash, requirePasswordReset, imported.createdAt ?? now);
        return true;
      });
  }
}

function checkPlain(v: JsonValue | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw IamError.invalid("password", "password must be a string");
  const n = [...v].length;
  if (n < SPEC_MIN_PASSWORD || n > MAX_PASSWORD) {
    throw IamError.invalid("password", `password must have ${SPEC_MIN_PASSWORD} to ${MAX_PASSWORD} characters`, "invalid_password");
  }
  return v;
}

