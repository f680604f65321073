import { IamError } from "../../../kit/src/errors.js";
import type { RealmRecord } from "./realm.js";
import type { RealmRepository } from "../store/realm-repository.js";

/**
 * Resolves the realm named in a request path. Every realm-scoped directory record is keyed by the
 * realm's id, so a realm deleted and created again under the same name never sees old data.
 */
export class RealmLookup {
  constructor(private readonly repo: RealmRepository) {}

  async byName(name: string): Promise<RealmRecord> {
    const realm = await this.repo.findByName(name);
    if (!realm) throw IamError.notFound(`realm "${name}"`, "realm_not_found");
    return realm;
  }

  /** As byName, from the store past the realm cache (RealmRepository.findCurrentByName). */
  async current(name: string): Promise<RealmRecord> {
    const realm = await this.repo.findCurrentByName(name);
    if (!realm) throw IamError.notFound(`realm "${name}"`, "realm_not_found");
    return realm;
  }
}
