import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { IamError } from "../../../kit/src/errors.js";
import type { Outbox } from "../../../kit/src/bus/outbox.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import { adminEventMessage } from "../../../kit/src/events/admin-events.js";
import type { RealmSettingsDoc } from "../../../kit/src/realm-transfer/document-schema.js";
import { lazyImport } from "../../../kit/src/runtime/lazy-import.js";
import type { RealmRepository } from "../store/realm-repository.js";
import type { RealmAdmin } from "./realm-admin.js";
import type { LocalizationText, RealmRecord } from "./realm.js";
import { checkDefaultLocale, checkLocaleTag, checkRealmFields, checkRealmName } from "./realm-rules.js";
import { checkLocalizationTexts, flattenTexts } from "./realm-localization.js";
import { realmView } from "./realm-view.js";

// The realm document's zod schema loads with the first import, not at start (faster cold start).
const documentSchema = lazyImport(() => import("../../../kit/src/realm-transfer/document-schema.js"));

/**
 * How long a staging realm outlives its importer's last sign of life before it is rolled back.
 * The gateway heartbeats at least every IMPORT_HEARTBEAT_MS (a batch of users, or the heartbeat
 * RPC), so only a stopped importer (a crash, a killed gateway) goes this long without one.
 */
export const IMPORT_LEASE_MS = 120_000;

/**
 * The directory's side of a realm import: the journal. A realm import is written under a staging
 * realm record (`importHeartbeatAt` set), invisible to every lookup; every service writes its part
 * under the staging realm's fresh id; `finish` makes it the realm in one conditional update.
 * Should the import fail part-way the gateway calls `abort`; should the importer die, the sweep
 * finds the staging realm once its lease runs out (at once at start when this process is the
 * store's only user) and rolls it back. Rolling back is deleting the realm record with
 * realm.deleted, on which every service drops what it wrote under that id: a half-imported realm
 * never becomes visible, and its records never outlive it.
 *
 * The realm gets a new id on every import, though every other id is kept: services drop a deleted
 * realm's data by its id, asynchronously, so an id reused by the realm imported in its place would
 * have the old realm's cascade delete the new realm's records.
 */
export class RealmImportJournal {
  constructor(
    private readonly repo: RealmRepository,
    private readonly realms: RealmAdmin,
    private readonly secrets: SecretBox,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async begin(settings: unknown, overwrite: boolean): Promise<string> {
    const parsed = (await documentSchema()).realmSettingsSchema.safeParse(settings);
    if (!parsed.success) throw IamError.invalid("realm", "the realm section does not match the export format");
    const s = parsed.data;
    const name = checkRealmName(s.name);
    const { name: _n, smtpPassword, localizationTexts, ...fields } = s;
    checkRealmFields(fields);
    checkDefaultLocale(fields);
    const texts = importedTexts(localizationTexts ?? {});
    const existing = await this.repo.findAnyByName(name);
    if (existing?.importHeartbeatAt !== undefined) {
      if (existing.importHeartbeatAt > this.clock.now() - IMPORT_LEASE_MS) throw IamError.conflict(`an import of realm "${name}" is in progress`, "name");
      await this.rollback(existing, "its importer stopped");
    } else if (existing) {
      if (!overwrite) throw IamError.conflict(`realm "${name}" already exists`, "name");
      await this.realms.remove(existing);
    }
    const now = this.clock.now();
    const id = randomUUID();
    const record: RealmRecord = {
      ...(fields as Omit<RealmSettingsDoc, "name" | "smtpPassword" | "localizationTexts">), ...(texts.length ? { localizationTexts: texts } : {}),
      name, _id: id, importHeartbeatAt: now, createdAt: now, updatedAt: now,
      // A document from before the switch was exported while organizations were always on.
      organizationsEnabled: fields.organizationsEnabled ?? true,
    };
    if (smtpPassword) record.smtpPasswordSealed = this.secrets.seal(smtpPassword, `realm:${id}:smtpPassword`);
    try {
      await this.repo.insert(record);
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") throw IamError.conflict(`realm "${name}" already exists`, "name");
      throw e;
    }
    return id;
  }

  async heartbeat(name: string, id: string): Promise<void> {
    if (!(await this.repo.heartbeat(id, this.clock.now()))) throw gone(name);
  }

  /** The imported realm, visible from now on; the admin event records the import (spec 6.2). */
  async finish(name: string, id: string): Promise<RealmRecord> {
    const realm = await this.repo.finishImport(id, this.clock.now());
    if (!realm || realm.name !== name) throw gone(name);
    if (realm.adminEventsEnabled) {
      await this.outbox.send([adminEventMessage("directory", {
        realm: realm.name, operationType: "CREATE", resourceType: "REALM", resourcePath: `realms/${realm.name}`,
        representation: { ...realmView(realm), imported: true },
      }, this.clock.now(), randomUUID())]);
    }
    this.logger.info({ realm: realm.name, realm_id: id }, "realm imported");
    return realm;
  }

  async abort(name: string, id: string): Promise<void> {
    const staging = await this.repo.findById(id);
    if (staging?.importHeartbeatAt !== undefined && staging.name === name) await this.rollback(staging, "the import failed");
  }

  /** Rolls back every staging realm whose lease ran out (all of them when `everything`). */
  async sweep(everything: boolean): Promise<number> {
    const stale = await this.repo.listStaging(everything ? Number.MAX_SAFE_INTEGER : this.clock.now() - IMPORT_LEASE_MS);
    for (const realm of stale) await this.rollback(realm, "its importer stopped");
    return stale.length;
  }

  private async rollback(realm: RealmRecord, why: string): Promise<void> {
    await this.realms.remove(realm);
    this.logger.warn({ realm: realm.name, realm_id: realm._id }, `realm import rolled back: ${why}`);
  }
}

/** A document's overrides as stored, each locale tag and key checked as the Admin API checks them. */
function importedTexts(byLocale: Record<string, Record<string, string>>): LocalizationText[] {
  const out: LocalizationText[] = [];
  for (const [locale, texts] of Object.entries(byLocale)) {
    const tag = checkLocaleTag("localizationTexts", locale);
    out.push(...flattenTexts({ [tag]: checkLocalizationTexts(texts) }));
  }
  return out;
}

function gone(name: string): IamError {
  return new IamError({ code: "failedPrecondition", reason: "import_rolled_back", message: `the import of realm "${name}" was rolled back` });
}
