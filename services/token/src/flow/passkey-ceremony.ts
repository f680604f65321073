import { randomBytes } from "node:crypto";
import type { FlowKit, StepContext } from "./flow-kit.js";
import type { FlowRealm } from "./flow-realms.js";
import { pageOf, staleTransaction, type FlowReply } from "./flow-reply.js";
import { TRANSACTION_TTL_MS, type LoginTransactionRecord } from "./login-transaction.js";

/** A ceremony's challenge is good at least this long (the default policy's timeout is 2 minutes; slack for the post). */
export const PASSKEY_CHALLENGE_TTL_MS = 150_000;
/** Time to post the result once the browser's ceremony ends. */
const POST_SLACK_MS = 30_000;
/**
 * Options without a timeout leave it to the browser: WebAuthn Level 3 section 5.4 recommends 5 to
 * 10 minutes, so the challenge lives for the longer.
 */
const BROWSER_DEFAULT_TIMEOUT_MS = 600_000;
export const PASSKEY_REGISTER_ACTION = "webauthn-register-passwordless";
export const INVALID_PASSKEY_MESSAGE = "The passkey was not accepted.";

/**
 * The relying party of the hosted pages: its id is the public URL's host (WebAuthn section 5.1.4.1
 * and 5.1.3: the rpId must be the origin's effective domain or a registrable suffix of it), its
 * origin the public URL's (ports included: section 13.4.9 checks the origin exactly).
 */
export function relyingParty(ctx: StepContext, realm: FlowRealm): { rpId: string; origin: string; rpName: string } {
  const u = new URL(ctx.baseUrl);
  return { rpId: u.hostname, origin: u.origin, rpName: realm.name };
}

/**
 * Issues a fresh challenge (32 random bytes, WebAuthn section 13.4.3), keeps it in the
 * transaction with its expiry, and shows the passkey page (an assertion: usernameless when
 * `userId` is empty, else the user's credentials as a second factor) or the registration page.
 */
export async function promptPasskey(
  kit: FlowKit, realm: FlowRealm, tx: LoginTransactionRecord, ctx: StepContext, kind: "passkey" | "passkey_register", userId: string,
): Promise<FlowReply> {
  const challenge = randomBytes(32).toString("base64url");
  const req = { realm: realm.name, userId, rp: relyingParty(ctx, realm), challenge };
  const { optionsJson } = kind === "passkey"
    ? await kit.d.passkeys.authenticationOptions(req)
    : await kit.d.passkeys.registrationOptions(req);
  const moved = await kit.d.txs.advance(tx, {
    step: kind, passkeyChallenge: challenge, passkeyChallengeExpiresAt: kit.now() + challengeTtl(optionsJson), passkeyOptions: optionsJson,
  });
  if (!moved) return staleTransaction();
  return passkeyPage(moved, kind);
}

/**
 * The realm's WebAuthn policy sets the ceremony's timeout (directory, passkey-ceremony-policy.ts):
 * the challenge outlives it by the time to post the result, never less than the default's
 * lifetime and never past the login transaction.
 */
export function challengeTtl(optionsJson: string): number {
  let timeout: unknown;
  try {
    timeout = (JSON.parse(optionsJson) as { timeout?: unknown }).timeout;
  } catch {
    timeout = undefined;
  }
  const ms = typeof timeout === "number" && timeout > 0 ? timeout : BROWSER_DEFAULT_TIMEOUT_MS;
  return Math.min(TRANSACTION_TTL_MS, Math.max(PASSKEY_CHALLENGE_TTL_MS, ms + POST_SLACK_MS));
}

/** The passkey page as the transaction holds it (again after a refused assertion, with `message`). */
export function passkeyPage(tx: LoginTransactionRecord, kind: "passkey" | "passkey_register", message = ""): FlowReply {
  return pageOf(tx, kind, {
    passkeyOptions: tx.passkeyOptions ?? "", passkeySecondFactor: !!tx.userId && kind === "passkey", username: tx.username ?? "",
    ...(message ? { message } : {}),
  });
}

/**
 * Takes the transaction's challenge for one verification: the conditional update succeeds once,
 * so a replayed form (the same assertion posted again) finds no challenge and is refused. An
 * expired challenge is taken too, and refused.
 */
export async function takeChallenge(kit: FlowKit, tx: LoginTransactionRecord): Promise<{ challenge: string; tx: LoginTransactionRecord } | null> {
  const challenge = tx.passkeyChallenge;
  if (!challenge) return null;
  const taken = await kit.d.txs.takeChallenge(tx, challenge);
  if (!taken || (tx.passkeyChallengeExpiresAt ?? 0) <= kit.now()) return null;
  return { challenge, tx: taken };
}
