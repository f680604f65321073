import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { OutboxKind, Outbox } from "../../../kit/src/bus/outbox.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import { DEFAULT_THEME } from "./themes.js";
import { REALM_DEFAULTS, type LocalizationText, type RealmCreateInput, type RealmRecord, type RealmUpdateInput } from "./realm.js";
import { checkDefaultLocale, checkRealmFields, checkRealmName } from "./realm-rules.js";
import type { RealmRepository } from "../store/realm-repository.js";
import { realmDeletedEvent, realmUpdatedEvent } from "../events/realm-events.js";
import { realmView } from "./realm-view.js";
import { auditedWrite } from "./audited-write.js";
import { isBuiltinFlow } from "../../../kit/src/authentication-flows/flow-model.js";
import { expectFields, recordWriteKind } from "../../../kit/src/events/audited-write.js";
import { SerialQueue } from "../../../kit/src/store/serial-queue.js";

/** Largest page of the realm list. */
export const MAX_REALM_PAGE = 1000;
/** What the outbox keeps of a realm's deletion until it is announced (no secret). */
type RealmRemovalSnapshot = Pick<RealmRecord, "_id" | "name">;

/** A realm's record as a write leaves it (the sealed SMTP password included: only a digest is kept). */
const realmFields = (r: RealmRecord): RealmRecord => r;

/**
 * Realm administration (spec 2.1, 4.1): validation, defaults, secrets sealed, events published.
 * Creation and update stage their admin event with the write (auditedWrite); whether one is
 * recorded follows the realm's `adminEventsEnabled` as the write leaves it.
 */
export class RealmAdmin {
  /** Text override writes, queued per realm name (changeLocalizationTexts). */
  private readonly textWrites = new Map<string, SerialQueue>();
  /** Whether an authentication flow alias exists in a realm (flow-admin.ts); built-in aliases only until wired. */
  flowExists: (realmId: string, alias: string) => Promise<boolean> = async (_realmId, alias) => isBuiltinFlow(alias);
  /**
   * Runs before a realm is deleted: administrators' grants in it go (admin-accounts.ts), before
   * the realm does, so a crash between the two leaves an admin with less, never with a grant on
   * a later realm of the same name.
   */
  beforeDelete: (name: string) => Promise<void> = async () => undefined;
  private readonly adminKind = recordWriteKind("directory.realm-admin", (_realmId, id) => this.repo.findById(id), realmFields);

  constructor(
    private readonly repo: RealmRepository,
    private readonly outbox: Outbox,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.removalKind);
    outbox.register(this.adminKind);
  }

  async create(input: RealmCreateInput): Promise<RealmRecord> {
    const name = checkRealmName(input.name);
    checkRealmFields(input);
    checkDefaultLocale(input);
    const now = this.clock.now();
    const id = randomUUID();
    await this.checkFlows(id, input);
    const { smtpPassword, ...rest } = input;
    const realm: RealmRecord = {
      ...REALM_DEFAULTS,
      displayName: "",
      themeName: DEFAULT_THEME,
      theme: {},
      loginTheme: input.themeName ?? DEFAULT_THEME,
      accountTheme: input.themeName ?? DEFAULT_THEME,
      emailTheme: input.themeName ?? DEFAULT_THEME,
      ...stripUndefined(rest),
      _id: id,
      name,
      createdAt: now,
      updatedAt: now,
    };
    if (smtpPassword) realm.smtpPasswordSealed = this.secrets.seal(smtpPassword, smtpAad(id));
    await auditedWrite(this.outbox, this.adminKind, realm, { realmId: id, id, expect: "present" },
      { operationType: "CREATE", resourceType: "REALM", path: `realms/${name}`, representation: realmView(realm) }, async () => {
        try {
          await this.repo.insert(realm);
        } catch (e) {
          if (e instanceof IamError && e.code === "alreadyExists") {
            throw IamError.conflict(`realm "${name}" already exists`, "name");
          }
          throw e;
        }
        return true;
      });
    return realm;
  }

  list(): Promise<RealmRecord[]> {
    return this.repo.listByCreation();
  }

  /** A page of the list (spec 4.1): the store reads that page, never every realm. */
  page(search: string, first: number, max: number): Promise<RealmRecord[]> {
    if (max < 1 || max > MAX_REALM_PAGE) throw IamError.invalid("max", `max must be between 1 and ${MAX_REALM_PAGE}`);
    return this.repo.pageByCreation(search.trim().slice(0, 255), first, max);
  }

  async get(name: string): Promise<RealmRecord> {
    const realm = await this.repo.findByName(name);
    if (!realm) throw IamError.notFound(`realm "${name}"`, "realm_not_found");
    return realm;
  }

  /** As get, from the store past the realm cache: GetRealm's answer, which callers cache. */
  async current(name: string): Promise<RealmRecord> {
    const realm = await this.repo.findCurrentByName(name);
    if (!realm) throw IamError.notFound(`realm "${name}"`, "realm_not_found");
    return realm;
  }

  async update(name: string, input: RealmUpdateInput): Promise<RealmRecord> {
    checkRealmFields(input);
    // Past the cache: the admin event shows the realm as this write leaves it.
    const current = await this.current(name);
    await this.checkFlows(current._id, input);
    const { smtpPassword, ...rest } = input;
    const set: Partial<RealmRecord> = { ...stripUndefined(rest), updatedAt: this.clock.now() };
    const unset: string[] = [];
    // "Send the real value to change it, or omit" (spec 2.1); the redaction marker echoed back from
    // a GET changes nothing, and an empty string removes the password.
    if (smtpPassword !== undefined && smtpPassword !== "**********") {
      if (smtpPassword === "") unset.push("smtpPasswordSealed");
      else set.smtpPasswordSealed = this.secrets.seal(smtpPassword, smtpAad(current._id));
    }
    const expected: RealmRecord = { ...current, ...set };
    checkDefaultLocale(expected);
    for (const field of unset) delete (expected as Record<string, unknown>)[field];
    let updated = null as RealmRecord | null;
    await auditedWrite(this.outbox, this.adminKind, expected, { realmId: current._id, id: current._id, expect: expectFields(realmFields, expected) },
      { operationType: "UPDATE", resourceType: "REALM", path: `realms/${name}`, representation: realmView(expected) },
      async () => (updated = await this.repo.updateByName(name, set, unset)) !== null,
      // realm.updated goes with the write: a crash cannot leave the realm's caches stale until they expire.
      (stamp) => [realmUpdatedEvent(current, stamp.id("event"))]);
    if (!updated) throw IamError.notFound(`realm "${name}"`, "realm_not_found");
    return updated;
  }

  /**
   * Replaces the realm's text overrides with what `change` makes of them (realm-localization.ts
   * holds the rules), as an update of the realm: the same admin event and realm.updated, so every
   * replica's page cache drops the old texts at once.
   */
  /**
   * Changes the realm's text overrides with `change`, applied to the overrides as stored. The write
   * is a compare-and-set on their revision: when another write changed them in between, `change`
   * runs again on what that write left, so concurrent changes all stay; after a few lost races the
   * caller gets a 409 to try again.
   */
  async changeLocalizationTexts(name: string, path: string, change: (current: LocalizationText[]) => LocalizationText[]): Promise<LocalizationText[]> {
    // One at a time per realm in this process, so its own writers never race; the compare-and-set
    // settles races with other directory replicas.
    let queue = this.textWrites.get(name);
    if (!queue) this.textWrites.set(name, (queue = new SerialQueue()));
    return queue.run(() => this.writeLocalizationTexts(name, path, change));
  }

  private async writeLocalizationTexts(name: string, path: string, change: (current: LocalizationText[]) => LocalizationText[]): Promise<LocalizationText[]> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await this.current(name);
      const texts = change(current.localizationTexts ?? []);
      const revision = current.localizationRevision ?? 0;
      const set: Partial<RealmRecord> = { localizationTexts: texts, updatedAt: this.clock.now() };
      const expected: RealmRecord = { ...current, ...set, localizationRevision: revision + 1 };
      const written = await auditedWrite(this.outbox, this.adminKind, expected, { realmId: current._id, id: current._id, expect: expectFields(realmFields, expected) },
        { operationType: "UPDATE", resourceType: "REALM", path: `realms/${name}/${path}`, representation: realmView(expected) },
        async () => (await this.repo.updateLocalization(name, revision, set)) !== null,
        (stamp) => [realmUpdatedEvent(current, stamp.id("event"))]);
      if (written) return texts;
    }
    throw IamError.conflict("the realm's texts kept changing while this change was written; send it again", "texts");
  }

  /**
   * `realm.deleted` is staged in the outbox, so a crash after the record went still announces it
   * (outbox.ts); every service drops the realm's data on it. The record goes first (no
   * cache refilled after the announcement finds it); if `realm.deleted` cannot be published (the
   * bus down) it is put back before the error goes out, so the admin's retry finds the realm and
   * finishes, as user and client deletion do. Without that the retry was 404 and no service ever
   * dropped the realm's users, clients, sessions and keys.
   */
  async delete(name: string): Promise<RealmRecord> {
    const current = await this.repo.findCurrentByName(name);
    if (!current) throw IamError.notFound(`realm "${name}"`, "realm_not_found");
    await this.beforeDelete(name);
    return this.remove(current);
  }

  /**
   * Deletes this realm record, staging (an import rolled back) or not, announcing realm.deleted:
   * every service drops what it holds under the realm's id.
   */
  async remove(current: RealmRecord): Promise<RealmRecord> {
    const name = current.name;
    const snapshot: RealmRemovalSnapshot = { _id: current._id, name: current.name };
    let deleted = null as RealmRecord | null;
    await this.outbox.write({
      kind: this.removalKind,
      snapshot,
      announce: (s, stamp) => [realmDeletedEvent(s, stamp.time, stamp.id("event"))],
      apply: async () => ((deleted = await this.repo.deleteByNameAndId(name, current._id)) ? snapshot : null),
      undo: async () => { if (deleted) await this.repo.insert(deleted).catch(() => undefined); }, // the name taken meanwhile: the retry is 404 then
    });
    if (!deleted) throw IamError.notFound(`realm "${name}"`, "realm_not_found");
    return deleted;
  }

  /** The relay only announces an interrupted deletion: each service drops the realm's data on `realm.deleted`. */
  private readonly removalKind: OutboxKind<RealmRemovalSnapshot> = {
    name: "directory.realm",
    applied: async (s) => (await this.repo.findById(s._id)) === null,
  };

  /** browserFlow and directGrantFlow name a flow of the realm (a new realm has the built-in ones only). */
  private async checkFlows(realmId: string, input: RealmCreateInput): Promise<void> {
    for (const field of ["browserFlow", "directGrantFlow"] as const) {
      const alias = input[field];
      if (alias !== undefined && !(await this.flowExists(realmId, alias))) {
        throw IamError.invalid(field, `${field}: no authentication flow with alias "${alias}" in this realm`);
      }
    }
  }

  /** The SMTP password in clear, for the mailer only. */
  smtpPassword(realm: RealmRecord): string | undefined {
    return realm.smtpPasswordSealed ? this.secrets.open(realm.smtpPasswordSealed, smtpAad(realm._id)) : undefined;
  }
}

function smtpAad(realmId: string): string {
  return `realm:${realmId}:smtpPassword`;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
