import type { Collection, Store } from "../../../kit/src/store/port.js";
import type { PushedRequestRecord } from "../domain/pushed-authorization.js";

/**
 * Pushed authorization requests (RFC 9126), stored under the SHA-256 of the request_uri's random
 * part, in the store every token replica shares: the push may reach one replica and the browser
 * another. TTL collection: a request expires with its request_uri.
 */
export class PushedRequestRepository {
  private constructor(private readonly requests: Collection<PushedRequestRecord>) {}

  static async open(store: Store): Promise<PushedRequestRepository> {
    return new PushedRequestRepository(await store.collection<PushedRequestRecord>({
      name: "pushed_authorization_requests",
      ttl: true,
      indexes: [{ fields: ["realmId", "createdAt"] }],
    }));
  }

  insert(record: PushedRequestRecord): Promise<void> {
    return this.requests.insert(record);
  }

  /**
   * Takes the request once (RFC 9126 section 4: single use), only for the client it was pushed
   * by: another client's attempt leaves it in place.
   */
  take(realmId: string, id: string, clientId: string): Promise<PushedRequestRecord | null> {
    return this.requests.findOneAndDelete({ _id: id, realmId, clientId });
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.requests.deleteMany({ realmId });
  }
}
