import { IamError } from "../../../kit/src/errors.js";
import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/** A realm's dynamic registration policy, keyed by the realm id, with its count of registered clients. */
export interface RegistrationPolicyRecord extends Doc {
  anonymousRegistrationAllowed: boolean;
  allowedRedirectUriHosts: string[];
  allowedGrantTypes: string[];
  maxClients: number;
  /** Clients registered dynamically and not yet deleted; moved only by conditional increments. */
  registeredClients: number;
  updatedAt: number;
}

export class RegistrationPolicyRepository {
  private constructor(private readonly policies: Collection<RegistrationPolicyRecord>) {}

  static async open(store: Store): Promise<RegistrationPolicyRepository> {
    return new RegistrationPolicyRepository(await store.collection<RegistrationPolicyRecord>({ name: "registration_policies" }));
  }

  get(realmId: string): Promise<RegistrationPolicyRecord | null> {
    return this.policies.get(realmId);
  }

  /** Stores the defaults unless the realm has a policy already (a concurrent first write wins). */
  async ensure(defaults: RegistrationPolicyRecord): Promise<RegistrationPolicyRecord> {
    try {
      await this.policies.insert(defaults);
    } catch (e) {
      if (!(e instanceof IamError && e.code === "alreadyExists")) throw e;
    }
    return (await this.policies.get(defaults._id)) ?? defaults;
  }

  async update(realmId: string, set: Partial<Omit<RegistrationPolicyRecord, "_id" | "registeredClients">>): Promise<RegistrationPolicyRecord | null> {
    return this.policies.findOneAndUpdate({ _id: realmId }, { $set: set });
  }

  /** Counts one more registered client unless the cap is reached: one conditional update. */
  async reserveSlot(realmId: string, maxClients: number): Promise<boolean> {
    return (await this.policies.update({ _id: realmId, registeredClients: { $lt: maxClients } }, { $inc: { registeredClients: 1 } })) > 0;
  }

  async releaseSlot(realmId: string): Promise<void> {
    await this.policies.update({ _id: realmId, registeredClients: { $gt: 0 } }, { $inc: { registeredClients: -1 } });
  }

  delete(realmId: string): Promise<boolean> {
    return this.policies.delete(realmId);
  }
}
