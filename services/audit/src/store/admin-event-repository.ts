import type { Collection, Doc, Filter, Store } from "../../../kit/src/store/port.js";
import { insertOnce, timeRange } from "./event-store-helpers.js";

export interface AdminEventRecord extends Doc {
  time: number;
  realm: string;
  operationType: string;
  resourceType: string;
  resourcePath: string;
  authType: string;
  authAdminId: string;
  authUsername: string;
  authIpAddress: string;
  representation: string;
  requestId: string;
}

export interface AdminEventQuery {
  realm: string;
  operationType?: string;
  resourceType?: string;
  dateFrom?: number;
  dateTo?: number;
  first: number;
  max: number;
}

/** Admin events, kept until their realm is deleted (no delete API: spec 6.3). */
export class AdminEventRepository {
  private constructor(private readonly events: Collection<AdminEventRecord>) {}

  static async open(store: Store): Promise<AdminEventRepository> {
    return new AdminEventRepository(await store.collection<AdminEventRecord>({
      name: "admin_events",
      indexes: [
        { fields: ["realm", "time"] },
        { fields: ["realm", "operationType", "time"] },
        { fields: ["realm", "resourceType", "time"] },
      ],
    }));
  }

  /** Stores an event once: the event id is the document id, so a redelivery is a no-op (returns false). */
  storeOnce(event: AdminEventRecord): Promise<boolean> {
    return insertOnce(this.events, event);
  }

  /** Newest first, as Keycloak lists them; `first`/`max` page through. */
  query(q: AdminEventQuery): Promise<AdminEventRecord[]> {
    const filter: Filter = { realm: q.realm };
    if (q.operationType) filter.operationType = q.operationType;
    if (q.resourceType) filter.resourceType = q.resourceType;
    const time = timeRange(q.dateFrom, q.dateTo);
    if (time) filter.time = time;
    return this.events.find(filter, { sort: [["time", -1], ["_id", -1]], skip: q.first, limit: q.max });
  }

  /** Drops a deleted realm's events recorded up to its deletion. */
  deleteRealm(realm: string, upTo: number): Promise<number> {
    return this.events.deleteMany({ realm, time: { $lte: upTo } });
  }
}
