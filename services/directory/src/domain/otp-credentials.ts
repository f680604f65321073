import { randomBytes } from "node:crypto";
import { IamError } from "../../../kit/src/errors.js";
import type { Clock } from "../../../kit/src/store/port.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import { sha256Hex } from "../../../kit/src/crypto/random.js";
import type { RealmLookup } from "./realm-lookup.js";
import type { RealmRecord } from "./realm.js";
import type { UserRecord } from "./user.js";
import type { BruteForce } from "./brute-force.js";
import { EVENT_ERRORS, type AuthOutcomeName } from "./password-authenticator.js";
import { base32Encode, generateTotpSecret, matchTotpStep, otpauthUri } from "./totp.js";
import type { UserRepository } from "../store/user-repository.js";
import type { OtpRepository } from "../store/otp-repository.js";
import type { Outbox, OutboxKind } from "../../../kit/src/bus/outbox.js";
import { auditedWrite } from "./audited-write.js";
import { actionDone } from "./required-actions.js";

export const RECOVERY_CODE_COUNT = 10;

export interface OtpVerifyResult {
  outcome: AuthOutcomeName;
  eventError: string;
}

/**
 * TOTP (RFC 6238) as a second factor (spec 1.6): enrolment (a pending secret, sealed at rest,
 * confirmed by a first valid code, which returns one-time recovery codes once), verification
 * (one step of drift either side, each step accepted once, wrong codes counted by brute-force
 * protection), and the Admin API's status and reset (spec 4.13).
 */
export class OtpCredentials {
  /** An MFA reset, as the relay finds it: the user's TOTP record gone. */
  private readonly resetKind: OutboxKind<{ realmId: string; userId: string }> = {
    name: "directory.mfa-reset",
    applied: async (s) => (await this.repo.find(s.realmId, s.userId)) === null,
  };

  constructor(
    private readonly realms: RealmLookup,
    private readonly users: UserRepository,
    private readonly repo: OtpRepository,
    private readonly bruteForce: BruteForce,
    private readonly secrets: SecretBox,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {
    outbox.register(this.resetKind);
  }

  async verify(realmName: string, userId: string, code: string): Promise<OtpVerifyResult> {
    const { realm, user } = await this.lookup(realmName, userId, false);
    if (!user) return { outcome: "INVALID_CREDENTIALS", eventError: EVENT_ERRORS.notFound };
    const lock = await this.bruteForce.state(realm, user._id);
    if (lock !== "none") return { outcome: "LOCKED", eventError: lock === "permanent" ? EVENT_ERRORS.disabled : EVENT_ERRORS.locked };
    if (!user.enabled) return { outcome: "DISABLED", eventError: EVENT_ERRORS.disabled };
    const otp = await this.repo.find(realm._id, user._id);
    if (!otp?.confirmed || !otp.secretSealed) {
      throw new IamError({ code: "failedPrecondition", reason: "otp_not_configured", message: "the user has no TOTP credential" });
    }
    const cleaned = code.replace(/[\s-]/g, "").toLowerCase();
    let ok = false;
    if (/^\d{6}$/.test(cleaned)) {
      const step = matchTotpStep(this.secrets.open(otp.secretSealed, aad(realm, user._id)), cleaned, this.clock.now());
      ok = step !== null && await this.repo.useStep(realm._id, user._id, step);
    } else if (/^[a-z2-7]{10}$/.test(cleaned)) {
      ok = await this.repo.consumeRecoveryCode(realm._id, user._id, sha256Hex(cleaned));
    }
    if (!ok) {
      await this.bruteForce.failure(realm, user._id);
      return { outcome: "INVALID_CREDENTIALS", eventError: EVENT_ERRORS.invalid };
    }
    await this.bruteForce.success(realm, user._id);
    return { outcome: "OK", eventError: "" };
  }

  /** A fresh pending secret (replacing an earlier pending one). Refused when TOTP is already configured. */
  async begin(realmName: string, userId: string): Promise<{ secret: string; otpauthUri: string }> {
    const { realm, user } = await this.lookup(realmName, userId, true);
    const secret = generateTotpSecret();
    if (!(await this.repo.setPending(realm._id, user!._id, this.secrets.seal(secret, aad(realm, user!._id)), this.clock.now()))) {
      throw new IamError({ code: "failedPrecondition", reason: "otp_already_configured", message: "the user already has a TOTP credential" });
    }
    return { secret, otpauthUri: otpauthUri(realm.displayName || realm.name, user!.username, secret) };
  }

  /** Confirms the pending secret with a first code; returns the recovery codes (shown once) or `confirmed: false`. */
  async confirm(realmName: string, userId: string, code: string): Promise<{ confirmed: boolean; recoveryCodes: string[] }> {
    const { realm, user } = await this.lookup(realmName, userId, true);
    const otp = await this.repo.find(realm._id, user!._id);
    if (!otp?.pendingSealed) {
      throw new IamError({ code: "failedPrecondition", reason: "no_pending_enrollment", message: "no TOTP enrolment is pending" });
    }
    const now = this.clock.now();
    const step = matchTotpStep(this.secrets.open(otp.pendingSealed, aad(realm, user!._id)), code.trim(), now);
    if (step === null || !(await this.repo.confirm(realm._id, user!._id, otp.pendingSealed, step, now))) {
      return { confirmed: false, recoveryCodes: [] };
    }
    // An administrator's CONFIGURE_TOTP is done (the realm's mfaRequired was never listed).
    const done = actionDone(user!, "CONFIGURE_TOTP");
    if (done.requiredActions) await this.users.update(realm._id, user!._id, { ...done, updatedAt: now });
    return { confirmed: true, recoveryCodes: await issueRecoveryCodes(this.repo, realm._id, user!._id, now) };
  }

  async configured(realm: RealmRecord, userId: string): Promise<boolean> {
    return (await this.repo.find(realm._id, userId))?.confirmed ?? false;
  }

  /** Admin API MFA status (spec 4.13). */
  async status(realmName: string, userId: string): Promise<boolean> {
    const { realm, user } = await this.lookup(realmName, userId, true);
    return this.configured(realm, user!._id);
  }

  /**
   * Admin API MFA reset (spec 3, 4.13): TOTP, pending enrolment and recovery codes removed. It
   * withdraws a second factor, so its admin event is staged with it (auditedWrite).
   */
  async reset(realmName: string, userId: string): Promise<void> {
    const { realm, user } = await this.lookup(realmName, userId, true);
    const id = user!._id;
    await auditedWrite(this.outbox, this.resetKind, realm, { realmId: realm._id, userId: id }, { operationType: "ACTION", resourceType: "USER", path: `users/${id}/mfa` }, async () => {
      await this.repo.deleteUser(realm._id, id);
      return true;
    });
  }

  forget(realmId: string, userId: string): Promise<boolean> {
    return this.repo.deleteUser(realmId, userId);
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.repo.deleteRealm(realmId);
  }

  private async lookup(realmName: string, userId: string, required: boolean): Promise<{ realm: RealmRecord; user: UserRecord | null }> {
    if (!realmName) throw IamError.invalid("realm", "realm is required");
    const realm = await this.realms.byName(realmName);
    const user = userId ? await this.users.findById(realm._id, userId) : null;
    if (!user && required) throw IamError.notFound(`user "${userId}"`, "user_not_found");
    return { realm, user };
  }
}

/**
 * A new set of recovery codes for the user, replacing every earlier one (used or not); only their
 * SHA-256 digests are stored, so the answer is the one time they are seen.
 */
export async function issueRecoveryCodes(repo: OtpRepository, realmId: string, userId: string, now: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await repo.replaceRecoveryCodes(realmId, userId, codes.map((c) => sha256Hex(c.replace("-", ""))), now);
  return codes;
}

/** 50 random bits as ten base32 letters, shown as `xxxxx-xxxxx`. */
function newRecoveryCode(): string {
  const s = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/** Binds a sealed secret to its user (SecretBox associated data). */
function aad(realm: RealmRecord, userId: string): string {
  return `realm:${realm._id}:user:${userId}:totp`;
}

