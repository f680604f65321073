import type { Doc } from "../../../kit/src/store/port.js";
import type { Acr } from "./acr.js";

export type DeviceCodeStatus = "pending" | "approved" | "denied";

/**
 * A device authorization (RFC 8628), stored under the SHA-256 of the device_code. The user types
 * `userCode` on the verification page (normalised: upper case, no dash). The token endpoint polls
 * it: `authorization_pending`, `slow_down` (polled before `lastPolledAt + interval`),
 * `expired_token`, `access_denied`, or tokens once `approved` (consumed once).
 */
export interface DeviceCodeRecord extends Doc {
  realmId: string;
  realmName: string;
  clientId: string;
  /** The directory's id of the client (absent in codes stored before it was recorded): see issuedTo. */
  clientInternalId?: string;
  /** Normalised user code, e.g. "WDJBMJHT"; unique among live codes. */
  userCode: string;
  scope: string;
  status: DeviceCodeStatus;
  /** Polling interval in seconds (RFC 8628 section 3.2), raised by 5 on each slow_down. */
  interval: number;
  lastPolledAt: number;
  userId?: string;
  /** The SSO session the user approved in; the device grant refuses the code once it has ended. */
  ssoSessionId?: string;
  authTime?: number;
  amr?: string[];
  /** The level of the login that approved it (acr.ts); absent in codes approved before it was recorded. */
  acr?: Acr;
  createdAt: number;
  expiresAt: number;
  consumedAt?: number;
}
