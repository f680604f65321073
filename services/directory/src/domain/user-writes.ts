import type { UserRemoval } from "./user-removal.js";
import type { UserDisabling } from "./user-disabling.js";
import type { PasswordChanges } from "./password-changes.js";
import type { Outbox, OutboxKind } from "../../../kit/src/bus/outbox.js";
import type { RecordWriteSnapshot } from "../../../kit/src/events/audited-write.js";

/**
 * The user writes whose announcement revokes something, each staged in the outbox (outbox.ts).
 * One of each per directory: each registers its kind with the outbox, whose relay finishes what
 * a crash interrupted; the users, clients, registration and authentication slices share them.
 */
export interface UserWrites {
  removal: UserRemoval;
  disabling: UserDisabling;
  passwordChanges: PasswordChanges;
  /** The directory's outbox, for the slices' own audited writes (audited-write.ts). */
  outbox: Outbox;
  /** A user created or updated through the Admin API (UserAdmin, built by more than one slice). */
  userRecords: OutboxKind<RecordWriteSnapshot>;
}
