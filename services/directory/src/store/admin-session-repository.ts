import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

export interface AdminSessionRecord extends Doc {
  adminId: string;
  /** The id the current refresh token carries; a renewal replaces it. */
  refreshId: string;
  createdAt: number;
  /** Epoch ms; the session is gone after it (ttl). */
  expiresAt: number;
}

/** Admin console sign-ins (admin-sessions.ts), by intent: start, rotate once, end. */
export class AdminSessionRepository {
  private constructor(private readonly sessions: Collection<AdminSessionRecord>) {}

  static async open(store: Store): Promise<AdminSessionRepository> {
    return new AdminSessionRepository(await store.collection<AdminSessionRecord>({
      name: "admin_sessions", ttl: true, indexes: [{ fields: ["adminId"] }],
    }));
  }

  insert(session: AdminSessionRecord): Promise<void> {
    return this.sessions.insert(session);
  }

  get(id: string): Promise<AdminSessionRecord | null> {
    return this.sessions.get(id);
  }

  /** Atomically replaces the refresh id when it is still `refreshId`: one renewal per token. */
  rotate(id: string, refreshId: string, next: string, expiresAt: number): Promise<AdminSessionRecord | null> {
    return this.sessions.findOneAndUpdate({ _id: id, refreshId }, { $set: { refreshId: next, expiresAt } });
  }

  delete(id: string): Promise<boolean> {
    return this.sessions.delete(id);
  }

  deleteOfAdmin(adminId: string): Promise<number> {
    return this.sessions.deleteMany({ adminId });
  }
}
