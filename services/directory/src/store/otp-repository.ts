import type { Collection, Store } from "../../../kit/src/store/port.js";

/**
 * TOTP credentials (RFC 6238) and recovery codes. One OTP document per user, `_id` = `<userId>:totp`:
 * the confirmed secret and/or a pending one awaiting its first code, both sealed with the SecretBox.
 * Recovery codes are stored as SHA-256 digests (they are 50-bit random values, so a fast hash is
 * enough), `_id` = `<userId>:<digest>`, and consumed with one atomic delete.
 */
export interface OtpRecord {
  _id: string;
  realmId: string;
  userId: string;
  confirmed: boolean;
  secretSealed?: string;
  pendingSealed?: string;
  /** The last accepted time step: a code is accepted once, and never for an older step. */
  lastUsedStep: number;
  createdAt: number;
  [key: string]: unknown;
}

export interface RecoveryCodeRecord {
  _id: string;
  realmId: string;
  userId: string;
  createdAt: number;
  [key: string]: unknown;
}

export class OtpRepository {
  private constructor(
    private readonly otp: Collection<OtpRecord>,
    private readonly codes: Collection<RecoveryCodeRecord>,
  ) {}

  static async open(store: Store): Promise<OtpRepository> {
    return new OtpRepository(
      await store.collection<OtpRecord>({ name: "otp_credentials", indexes: [{ fields: ["realmId", "userId"] }] }),
      await store.collection<RecoveryCodeRecord>({ name: "recovery_codes", indexes: [{ fields: ["realmId", "userId"] }] }),
    );
  }

  find(realmId: string, userId: string): Promise<OtpRecord | null> {
    return this.otp.findOne({ _id: otpId(userId), realmId });
  }

  /** Stores a pending secret unless a confirmed one exists; returns false when one does. */
  async setPending(realmId: string, userId: string, sealed: string, now: number): Promise<boolean> {
    const _id = otpId(userId);
    if (await this.otp.update({ _id, realmId, confirmed: false }, { $set: { pendingSealed: sealed } })) return true;
    try {
      await this.otp.insert({ _id, realmId, userId, confirmed: false, pendingSealed: sealed, lastUsedStep: 0, createdAt: now });
      return true;
    } catch {
      return (await this.otp.update({ _id, realmId, confirmed: false }, { $set: { pendingSealed: sealed } })) > 0;
    }
  }

  /** Promotes exactly this pending secret (a parallel confirm or restart loses). */
  async confirm(realmId: string, userId: string, pendingSealed: string, step: number, now: number): Promise<boolean> {
    const n = await this.otp.update(
      { _id: otpId(userId), realmId, confirmed: false, pendingSealed },
      { $set: { confirmed: true, secretSealed: pendingSealed, lastUsedStep: step, createdAt: now }, $unset: ["pendingSealed"] },
    );
    return n > 0;
  }

  /** Accepts `step` once: succeeds only when it is newer than the last accepted step. */
  async useStep(realmId: string, userId: string, step: number): Promise<boolean> {
    const n = await this.otp.update(
      { _id: otpId(userId), realmId, confirmed: true, lastUsedStep: { $lt: step } },
      { $set: { lastUsedStep: step } },
    );
    return n > 0;
  }

  async replaceRecoveryCodes(realmId: string, userId: string, digests: string[], now: number): Promise<void> {
    await this.codes.deleteMany({ realmId, userId });
    await this.codes.insertMany(digests.map((d) => ({ _id: `${userId}:${d}`, realmId, userId, createdAt: now })));
  }

  /** Consumes one recovery code atomically; true when it existed. */
  async consumeRecoveryCode(realmId: string, userId: string, digest: string): Promise<boolean> {
    return (await this.codes.findOneAndDelete({ _id: `${userId}:${digest}`, realmId })) !== null;
  }

  /** Removes the TOTP credential and recovery codes; returns whether a TOTP credential existed. */
  async deleteUser(realmId: string, userId: string): Promise<boolean> {
    const n = await this.otp.deleteMany({ realmId, userId });
    await this.codes.deleteMany({ realmId, userId });
    return n > 0;
  }

  async deleteRealm(realmId: string): Promise<number> {
    const n = await this.otp.deleteMany({ realmId });
    await this.codes.deleteMany({ realmId });
    return n;
  }
}

function otpId(userId: string): string {
  return `${userId}:totp`;
}
