import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/**
 * A back-channel logout notification not yet delivered (OIDC Back-Channel Logout 1.0 section 2.5):
 * stored before the first attempt and removed once the client acknowledged it or the attempts ran
 * out, so a crash or a restart between a session's end and its client hearing of it loses nothing.
 */
export interface BackchannelDeliveryRecord extends Doc {
  realmId: string;
  realmName: string;
  clientId: string;
  userId: string;
  sid: string;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due; while one runs, the end of its lease (no other process takes it). */
  nextAttemptAt: number;
  createdAt: number;
  /** Given up on after this, delivered or not (TTL collection). */
  expiresAt: number;
}

/** Pending back-channel logout deliveries (TTL collection `backchannel_deliveries`). */
export class BackchannelDeliveryRepository {
  private constructor(private readonly deliveries: Collection<BackchannelDeliveryRecord>) {}

  static async open(store: Store): Promise<BackchannelDeliveryRepository> {
    return new BackchannelDeliveryRepository(await store.collection<BackchannelDeliveryRecord>({
      name: "backchannel_deliveries",
      ttl: true,
      indexes: [{ fields: ["nextAttemptAt"] }, { fields: ["realmId", "createdAt"] }],
    }));
  }

  insert(d: BackchannelDeliveryRecord): Promise<void> {
    return this.deliveries.insert(d);
  }

  /** Deliveries due at `now`, oldest due first. */
  due(now: number, limit: number): Promise<BackchannelDeliveryRecord[]> {
    return this.deliveries.find({ nextAttemptAt: { $lte: now } }, { sort: [["nextAttemptAt", 1]], limit });
  }

  /**
   * Takes the delivery for one attempt: moves nextAttemptAt from the value it was read with to the
   * end of a lease, atomically, so two processes (or a retry timer and the sweep) never both send it.
   * Null when another took it first or it is gone.
   */
  claim(d: BackchannelDeliveryRecord, leaseUntil: number): Promise<BackchannelDeliveryRecord | null> {
    return this.deliveries.findOneAndUpdate({ _id: d._id, nextAttemptAt: d.nextAttemptAt }, { $set: { nextAttemptAt: leaseUntil } });
  }

  /** Records a failed attempt and when to try again. */
  reschedule(id: string, attempts: number, nextAttemptAt: number): Promise<BackchannelDeliveryRecord | null> {
    return this.deliveries.findOneAndUpdate({ _id: id }, { $set: { attempts, nextAttemptAt } });
  }

  async remove(id: string): Promise<void> {
    await this.deliveries.delete(id);
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.deliveries.deleteMany({ realmId });
  }
}
