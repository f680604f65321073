import type { Collection, Store } from "../../../kit/src/store/port.js";
import type { DeviceCodeRecord } from "../domain/device-code.js";

/** Device authorizations (RFC 8628), stored under the SHA-256 of the device code. */
export class DeviceCodeRepository {
  private constructor(readonly codes: Collection<DeviceCodeRecord>) {}

  static async open(store: Store): Promise<DeviceCodeRepository> {
    return new DeviceCodeRepository(await store.collection<DeviceCodeRecord>({
      name: "device_codes",
      ttl: true,
      indexes: [{ fields: ["realmId", "userCode"], unique: true }],
    }));
  }

  /** Throws IamError alreadyExists when the user code collides (the caller draws another). */
  insert(code: DeviceCodeRecord): Promise<void> {
    return this.codes.insert(code);
  }

  findByHash(deviceCodeHash: string): Promise<DeviceCodeRecord | null> {
    return this.codes.get(deviceCodeHash);
  }

  findPendingByUserCode(realmId: string, userCode: string): Promise<DeviceCodeRecord | null> {
    return this.codes.findOne({ realmId, userCode, status: "pending" });
  }

  /** Approves or denies a pending code once (conditional update); null if not pending any more. */
  decide(id: string, change: Partial<DeviceCodeRecord> & { status: "approved" | "denied" }): Promise<DeviceCodeRecord | null> {
    return this.codes.findOneAndUpdate({ _id: id, status: "pending" }, { $set: change });
  }

  /** Records a poll; returns the record as it was matched after the update. */
  recordPoll(id: string, now: number, interval: number): Promise<DeviceCodeRecord | null> {
    return this.codes.findOneAndUpdate({ _id: id }, { $set: { lastPolledAt: now, interval } });
  }

  /** Hands out the approved code's tokens once. */
  consumeApproved(id: string, now: number): Promise<DeviceCodeRecord | null> {
    return this.codes.findOneAndUpdate({ _id: id, status: "approved", consumedAt: { $exists: false } }, { $set: { consumedAt: now } });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.codes.deleteMany({ realmId });
  }
}
