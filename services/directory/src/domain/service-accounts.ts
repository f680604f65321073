import { usernameKeyOf } from "./username.js";
import { randomUUID } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import { serviceAccountUsername, type ClientRecord } from "./client.js";
import type { RealmRecord } from "./realm.js";
import type { UserRecord } from "./user.js";
import type { UserRepository } from "../store/user-repository.js";
import type { UserRemoval } from "./user-removal.js";

/**
 * Service-account users (spec 1.11): a client with the client_credentials grant acts as the user
 * `service-account-<clientId>`, which holds the roles its tokens carry.
 */
export class ServiceAccounts {
  constructor(
    private readonly users: UserRepository,
    private readonly removal: UserRemoval,
    private readonly clock: Clock,
  ) {}

  async find(realm: RealmRecord, client: Pick<ClientRecord, "clientId">): Promise<UserRecord | null> {
    const user = await this.users.findByUsername(realm._id, serviceAccountUsername(client.clientId));
    return user && user.serviceAccountClientId === client.clientId ? user : null;
  }

  /** Creates the user unless it exists; a human user already holding the name is a 409. */
  async ensure(realm: RealmRecord, client: ClientRecord): Promise<UserRecord> {
    const existing = await this.find(realm, client);
    if (existing) return existing;
    const now = this.clock.now();
    const id = randomUUID();
    const username = serviceAccountUsername(client.clientId);
    const user: UserRecord = {
      _id: id, realmId: realm._id, username, usernameKey: usernameKeyOf(username),
      email: "", emailKey: `none:${id}`, firstName: "", lastName: "", enabled: true, emailVerified: false,
      requirePasswordReset: false, serviceAccountClientId: client.clientId, attributes: {},
      createdAt: now, updatedAt: now,
    };
    try {
      await this.users.insert(user);
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") {
        const again = await this.find(realm, client);
        if (again) return again;
        throw IamError.conflict(`username "${username}" of the service-account user is taken`, "clientId");
      }
      throw e;
    }
    return user;
  }

  /**
   * Deletes the service-account user as any user is deleted (UserRemoval): its group memberships
   * and role mappings go with it, and `user.deleted` has the token service revoke its
   * client_credentials tokens, which no session holds.
   */
  async remove(realm: RealmRecord, client: Pick<ClientRecord, "clientId">): Promise<void> {
    const user = await this.find(realm, client);
    if (user) await this.removal.remove(realm, user._id);
  }
}
