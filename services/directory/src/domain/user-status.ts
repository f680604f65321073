import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { BruteForce } from "./brute-force.js";
import type { OtpCredentials } from "./otp-credentials.js";
import { requiredActions, type RequiredActionName } from "./required-actions.js";
import type { UserRepository } from "../store/user-repository.js";
import type { CredentialRepository } from "../store/credential-repository.js";

export interface UserStatus {
  exists: boolean;
  enabled: boolean;
  username: string;
  requiredActions: RequiredActionName[];
  otpConfigured: boolean;
  /** A client's service account: an identity no person logs in as (impersonation refuses it). */
  serviceAccount?: boolean;
}

/** A user as the token service needs it on refresh and code exchange: still usable, next steps. */
export class UserStatusReader {
  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserRepository,
    private readonly credentials: CredentialRepository,
    private readonly otp: OtpCredentials,
    private readonly bruteForce: BruteForce,
    private readonly clock: Clock,
  ) {}

  async status(realmName: string, userId: string): Promise<UserStatus> {
    if (!realmName) throw IamError.invalid("realm", "realm is required");
    const realm = await this.realms.byName(realmName);
    const user = userId ? await this.users.findById(realm._id, userId) : null;
    if (!user) return { exists: false, enabled: false, username: "", requiredActions: [], otpConfigured: false };
    const [password, otpConfigured, lock] = await Promise.all([
      this.credentials.findPassword(realm._id, user._id),
      this.otp.configured(realm, user._id),
      this.bruteForce.state(realm, user._id),
    ]);
    return {
      exists: true,
      // A temporary lockout stops new logins only; a permanent one disables the user.
      enabled: user.enabled && lock !== "permanent",
      username: user.username,
      requiredActions: requiredActions(realm, user, password, otpConfigured, this.clock.now()),
      otpConfigured,
      serviceAccount: !!user.serviceAccountClientId,
    };
  }
}
