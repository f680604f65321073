import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { UserRepository } from "../store/user-repository.js";
import { actionDone } from "./required-actions.js";

/** The user attribute that records the acceptance (Keycloak's TermsAndConditions.USER_ATTRIBUTE). */
export const TERMS_ATTRIBUTE = "terms_and_conditions";

/**
 * Keycloak's Terms and Conditions required action, accepted at login: the action leaves the
 * user's list and `terms_and_conditions` holds the acceptance time in epoch seconds, as Keycloak
 * 24 and later store it (earlier versions kept no attribute). One write, so a login cannot see
 * the action gone without the record of the acceptance.
 */
export class TermsAcceptance {
  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserRepository,
    private readonly clock: Clock,
  ) {}

  /** The acceptance time written, in epoch seconds. */
  async accept(realmName: string, userId: string): Promise<number> {
    const realm = await this.realms.byName(realmName);
    const user = userId ? await this.users.findById(realm._id, userId) : null;
    if (!user) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    const now = this.clock.now();
    const acceptedAt = Math.floor(now / 1000);
    const updated = await this.users.update(realm._id, user._id, {
      attributes: { ...user.attributes, [TERMS_ATTRIBUTE]: [String(acceptedAt)] }, ...actionDone(user, "TERMS_AND_CONDITIONS"), updatedAt: now,
    });
    if (!updated) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    return acceptedAt;
  }
}
