import type { Collection, Doc, Filter, Store } from "../../../kit/src/store/port.js";
import { insertOnce, timeRange } from "./event-store-helpers.js";

export interface LoginEventRecord extends Doc {
  time: number;
  realm: string;
  type: string;
  clientId: string;
  userId: string;
  sessionId: string;
  ipAddress: string;
  error: string;
  details: Record<string, string>;
  /** Epoch ms: time + the realm's eventsExpiration (spec 6.1); the store hides and sweeps it after. */
  expiresAt: number;
}

export interface LoginEventQuery {
  realm: string;
  type?: string;
  userId?: string;
  clientId?: string;
  dateFrom?: number;
  dateTo?: number;
  first: number;
  max: number;
}

/** Login events, kept for the realm's eventsExpiration seconds. */
export class LoginEventRepository {
  private constructor(private readonly events: Collection<LoginEventRecord>) {}

  static async open(store: Store): Promise<LoginEventRepository> {
    return new LoginEventRepository(await store.collection<LoginEventRecord>({
      name: "login_events",
      ttl: true,
      indexes: [
        { fields: ["realm", "time"] },
        { fields: ["realm", "type", "time"] },
        { fields: ["realm", "userId", "time"] },
        { fields: ["realm", "clientId", "time"] },
        { fields: ["expiresAt"] },
      ],
    }));
  }

  /** Stores an event once (the event id is the document id); false for a redelivery. */
  storeOnce(event: LoginEventRecord): Promise<boolean> {
    return insertOnce(this.events, event);
  }

  /** Newest first; `first`/`max` page through. */
  query(q: LoginEventQuery): Promise<LoginEventRecord[]> {
    const filter: Filter = { realm: q.realm };
    if (q.type) filter.type = q.type;
    if (q.userId) filter.userId = q.userId;
    if (q.clientId) filter.clientId = q.clientId;
    const time = timeRange(q.dateFrom, q.dateTo);
    if (time) filter.time = time;
    return this.events.find(filter, { sort: [["time", -1], ["_id", -1]], skip: q.first, limit: q.max });
  }

  /** Clears a realm's login events (spec 3: clear endpoint). */
  clear(realm: string): Promise<number> {
    return this.events.deleteMany({ realm });
  }

  deleteRealm(realm: string, upTo: number): Promise<number> {
    return this.events.deleteMany({ realm, time: { $lte: upTo } });
  }
}
