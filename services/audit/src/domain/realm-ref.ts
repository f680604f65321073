import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";

/** What webhook administration needs to know of a realm. */
export interface RealmRef {
  id: string;
  name: string;
  adminEventsEnabled: boolean;
}

/**
 * Reads realms from the directory (their owner, DESIGN 3). An unknown realm is the directory's
 * NotFound (`realm_not_found`), which passes through to the caller.
 */
export class RealmLookup {
  private readonly client: Client<typeof RealmService>;

  constructor(directory: Transport) {
    this.client = createClient(RealmService, directory);
  }

  async get(name: string): Promise<RealmRef> {
    const { realm } = await this.client.getRealm({ name });
    if (!realm) throw new Error(`directory returned no realm for "${name}"`);
    return { id: realm.id, name: realm.name, adminEventsEnabled: realm.adminEventsEnabled };
  }
}
