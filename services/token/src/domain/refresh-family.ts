import { randomUUID } from "node:crypto";
import type { Doc } from "../../../kit/src/store/port.js";
import { randomToken, sha256Hex } from "../../../kit/src/crypto/random.js";
import type { Acr } from "./acr.js";

/** How many earlier generations a family remembers to recognise a replayed refresh token. */
export const REMEMBERED_GENERATIONS = 20;

/**
 * A refresh token family (DESIGN 5): the OAuth session of spec 2.6 type `oauth`, or an offline
 * session (spec 4.2) when `offline`. One record per token pair issued by a grant; each refresh
 * rotates it with one conditional update (`currentHash` -> next), so the store is written once
 * per issued pair. A token whose hash is among `previousHashes` was already rotated: its reuse
 * revokes the whole family (OAuth 2.0 Security BCP, RFC 9700 section 4.14.2).
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
  previousHashes: string[];
  authTime: number;
  amr: string[];
  /** The level of the login the family came from (acr.ts), which every refresh keeps; absent in families started before it was recorded. */
  acr?: Acr;
  ipAddress: string;
  createdAt: number;
  lastRefreshAt: number;
  expiresAt: number;
}

/**
 * Refresh tokens are `<familyId>.<256-bit random>` (opaque to clients); only the SHA-256 of the
 * random part is stored. The family id lets a lookup be one read by primary key.
 */
export function newRefreshToken(familyId: string): { token: string; hash: string } {
  const secret = randomToken(32);
  return { token: `${familyId}.${secret}`, hash: sha256Hex(secret) };
}

export function parseRefreshToken(token: string): { familyId: string; hash: string } | null {
  const dot = token.indexOf(".");
  if (dot <= 0 || token.indexOf(".", dot + 1) !== -1) return null;
  const familyId = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  if (!/^[0-9a-f-]{36}$/.test(familyId) || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return null;
  return { familyId, hash: sha256Hex(secret) };
}

export function newFamilyId(): string {
  return randomUUID();
}

/** The family an authorization code issues, derived from the code's hash so a replay finds it without a second write. */
export function familyIdOfCode(codeHash: string): string {
  const h = sha256Hex(`family:${codeHash}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
