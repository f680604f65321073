import { randomUUID } from "node:crypto";
import type { Doc } from "../../../kit/src/store/port.js";
import { randomToken, sha256Hex } from "../../../kit/src/crypto/random.js";
import type { SecretBox } from "../../../kit/src/crypto/secret-box.js";
import type { Acr } from "./acr.js";

/**
 * How many earlier hashes a family started before generation-numbered tokens remembers, to
 * recognise a replay of one of its older tokens (newer tokens prove their generation, below).
 */
export const REMEMBERED_GENERATIONS = 20;

/**
 * A refresh token family (DESIGN 5): the OAuth session of spec 2.6 type `oauth`, or an offline
 * session (spec 4.2) when `offline`. One record per token pair issued by a grant; each refresh
 * rotates it with one conditional update (`currentHash` -> next), so the store is written once
 * per issued pair. A token of an earlier generation was already rotated: its reuse revokes the
 * whole family (OAuth 2.0 Security BCP, RFC 9700 section 4.14.2), however many rotations ago.
 */
export interface RefreshFamilyRecord extends Doc {
  realmId: string;
  realmName: string;
  clientId: string;
  /**
   * The client's internal id (the directory's, not its clientId): a client deleted and created
   * again under the same clientId is another client, which may not use these tokens (RFC 6749
   * section 6). Absent in families started before it was recorded; those are bound by clientId.
   */
  clientInternalId?: string;
  userId: string;
  username: string;
  /** The SSO session the tokens were issued in; "" for the password grant. */
  ssoSessionId: string;
  /** `sid` of the tokens: the SSO session, or the family itself when there is none. */
  sid: string;
  offline: boolean;
  /** The originally granted scope; a refresh never grows it (RFC 6749 section 6). */
  scope: string;
  currentHash: string;
  /**
   * The generation of the current token: 0 as issued, +1 per rotation. Absent in families started
   * before tokens carried it; their first rotation sets it.
   */
  generation?: number;
  /** Hashes of the tokens of a family started before `generation` existed, newest first (REMEMBERED_GENERATIONS). */
  previousHashes: string[];
  authTime: number;
  amr: string[];
  /** The level of the login the family came from (acr.ts), which every refresh keeps; absent in families started before it was recorded. */
  acr?: Acr;
  /**
   * The one audience a token exchange narrowed the family's tokens to (RFC 8693 section 2.1):
   * every refresh keeps it. Absent for every other grant.
   */
  audience?: string;
  ipAddress: string;
  /**
   * RFC 9449 section 5: the thumbprint of the DPoP key a public client's tokens are bound to; each
   * refresh must prove possession of it. Absent when unbound (confidential clients' tokens too).
   */
  dpopJkt?: string;
  createdAt: number;
  /**
   * When the login began, which SSO Session Max counts from (session-max.ts): the SSO session's
   * start, or the family's own for the password grant. Absent in families started before it was
   * recorded; those count from `createdAt`.
   */
  sessionStartedAt?: number;
  /**
   * The SSO session's "Remember me" (sso-session.ts), copied as `sessionStartedAt` is: an online
   * family's idle and absolute bounds are then the realm's remember-me ones. Absent: not remembered.
   */
  rememberMe?: boolean;
  lastRefreshAt: number;
  expiresAt: number;
}

/** The MAC purpose of refresh tokens (SecretBox.mac). */
const TOKEN_MAC = "refresh-token-v2";

/** A presented refresh token, read. `generation` is absent for a token of the first format. */
export interface PresentedRefreshToken {
  familyId: string;
  hash: string;
  generation?: number;
}

/**
 * Refresh tokens (opaque to clients) are `<familyId>.<generation>.<256-bit random>.<tag>`, the tag
 * a MAC under the master key over the rest; only the SHA-256 of the random part is stored, as the
 * family's current hash. The family id makes a lookup one read by primary key. The tag proves the
 * token was issued here for that generation, so a token of any earlier generation is recognised
 * as a replay without the family keeping every hash it ever had: when the family remembered only
 * its last 20 hashes, 21 quick refreshes by a thief made the victim's old token merely "unknown"
 * and left the thief's family alive. An unissued token (a made-up secret under a family id, which
 * is public as `sid`) fails the tag and revokes nothing.
 */
export function newRefreshToken(secrets: SecretBox, familyId: string, generation: number): { token: string; hash: string } {
  const secret = randomToken(32);
  const body = `${familyId}.${generation}.${secret}`;
  return { token: `${body}.${secrets.mac(TOKEN_MAC, body)}`, hash: sha256Hex(secret) };
}

/** The token's parts when it is well formed and (for the current format) its tag verifies; else null. */
export function parseRefreshToken(secrets: SecretBox, token: string): PresentedRefreshToken | null {
  const parts = token.split(".");
  const familyId = parts[0] ?? "";
  if (!/^[0-9a-f-]{36}$/.test(familyId)) return null;
  if (parts.length === 2) {
    // The first format, `<familyId>.<random>`, issued before generations: valid until it expires.
    return /^[A-Za-z0-9_-]{43}$/.test(parts[1]!) ? { familyId, hash: sha256Hex(parts[1]!) } : null;
  }
  if (parts.length !== 4) return null;
  const [, gen, secret, tag] = parts as [string, string, string, string];
  if (!/^(0|[1-9][0-9]{0,8})$/.test(gen) || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return null;
  if (!secrets.verifyMac(TOKEN_MAC, `${familyId}.${gen}.${secret}`, tag)) return null;
  return { familyId, hash: sha256Hex(secret), generation: Number(gen) };
}

/** Whether the token is one the family had before its current one (a replay when presented). */
export function isEarlierToken(family: RefreshFamilyRecord, presented: PresentedRefreshToken): boolean {
  if (presented.generation === undefined) return family.previousHashes.includes(presented.hash);
  return presented.generation < (family.generation ?? 0);
}

export function newFamilyId(): string {
  return randomUUID();
}

/** The family an authorization code issues, derived from the code's hash so a replay finds it without a second write. */
export function familyIdOfCode(codeHash: string): string {
  const h = sha256Hex(`family:${codeHash}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
