import type { Collection, Store } from "../../../kit/src/store/port.js";

/** A validated AuthnRequest waiting for the user to log in (kept 30 minutes). */
export interface PendingSsoRecord {
  [key: string]: unknown;
  _id: string;
  realmId: string;
  realm: string;
  spId: string;
  requestId: string;
  acsUrl: string;
  relayState: string;
  /** NameIDPolicy/@Format, "" when the request named none (core 3.4.1.1). */
  nameIdPolicyFormat: string;
  forceAuthn: boolean;
  createdAt: number;
  expiresAt: number;
}

/** A request ID seen from an SP: unique, so a replay fails the insert (kept 10 minutes). */
export interface SeenRequestRecord {
  [key: string]: unknown;
  _id: string;
  expiresAt: number;
}

/** One SP's participation in a SAML session, for single logout (core 3.7). */
export interface SamlSessionRecord {
  [key: string]: unknown;
  /** `${realmId}:${sessionIndex}:${spId}` */
  _id: string;
  realmId: string;
  userId: string;
  sessionIndex: string;
  spId: string;
  spEntityId: string;
  nameId: string;
  nameIdFormat: string;
  createdAt: number;
  expiresAt: number;
}

export const PENDING_TTL_MS = 30 * 60_000;
export const REQUEST_ID_TTL_MS = 10 * 60_000;
/** SAML session participation is kept as long as an SSO session can live at most. */
export const SESSION_TTL_MS = 24 * 3600_000;

/** The saml service's SSO state, named by intent. */
export class SsoStore {
  private constructor(
    private readonly pending: Collection<PendingSsoRecord>,
    private readonly seen: Collection<SeenRequestRecord>,
    private readonly sessions: Collection<SamlSessionRecord>,
  ) {}

  static async open(store: Store): Promise<SsoStore> {
    const pending = await store.collection<PendingSsoRecord>({ name: "saml_pending", ttl: true, indexes: [{ fields: ["realmId"] }] });
    const seen = await store.collection<SeenRequestRecord>({ name: "saml_request_ids", ttl: true });
    const sessions = await store.collection<SamlSessionRecord>({
      name: "saml_sessions", ttl: true, indexes: [{ fields: ["realmId", "sessionIndex"] }, { fields: ["realmId", "spId", "nameId"] }],
    });
    return new SsoStore(pending, seen, sessions);
  }

  /**
   * Records a request ID of an SP; false when it was already seen (a replay). The unique `_id`
   * decides, so two concurrent deliveries cannot both pass.
   */
  async markRequestSeen(realmId: string, spId: string, requestId: string, now: number): Promise<boolean> {
    try {
      await this.seen.insert({ _id: `${realmId}:${spId}:${requestId}`, expiresAt: now + REQUEST_ID_TTL_MS });
      return true;
    } catch (e) {
      if ((e as { code?: string }).code === "alreadyExists") return false;
      throw e;
    }
  }

  savePending(p: PendingSsoRecord): Promise<void> {
    return this.pending.insert(p);
  }

  /** Consumes a pending request once (atomic find-and-delete). */
  consumePending(realmId: string, id: string): Promise<PendingSsoRecord | null> {
    return this.pending.findOneAndDelete({ _id: id, realmId });
  }

  saveSession(s: SamlSessionRecord): Promise<void> {
    return this.sessions.upsert(s);
  }

  sessionsOf(realmId: string, sessionIndex: string): Promise<SamlSessionRecord[]> {
    return this.sessions.find({ realmId, sessionIndex }, { sort: [["createdAt", 1]] });
  }

  findSession(realmId: string, spId: string, nameId: string): Promise<SamlSessionRecord[]> {
    return this.sessions.find({ realmId, spId, nameId }, { sort: [["createdAt", -1]] });
  }

  deleteSession(id: string): Promise<boolean> {
    return this.sessions.delete(id);
  }

  /** A deleted realm's SSO state (RealmDeleted). */
  async deleteRealm(realmId: string): Promise<void> {
    await this.pending.deleteMany({ realmId });
    await this.sessions.deleteMany({ realmId });
  }
}
