import { randomBytes } from "node:crypto";
import type { FlowKit, StepContext } from "./flow-kit.js";
import type { FlowRealm } from "./flow-realms.js";
import { pageOf, staleTransaction, type FlowReply } from "./flow-reply.js";
import type { LoginTransactionRecord } from "./login-transaction.js";

/** A ceremony's challenge is good this long (the options' timeout is 2 minutes; a little slack for the post). */
export const PASSKEY_CHALLENGE_TTL_MS = 150_000;
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
    step: kind, passkeyChallenge: challenge, passkeyChallengeExpiresAt: kit.now() + PASSKEY_CHALLENGE_TTL_MS, passkeyOptions: optionsJson,
  });
  if (!moved) return staleTransaction();
  return passkeyPage(moved, kind);
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
