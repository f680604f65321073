import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { FederatedUserService, UpsertOutcome, type UpsertResult } from "../../../../gen/iam/directory/v1/federated_user_pb.js";
import type { MappedEntry } from "./entry-mapping.js";

export interface LinkRef {
  userId: string;
  externalId: string;
  missing: boolean;
}

/** The directory's FederatedUserService (it owns users, DESIGN 3), as the sync and delete use it. */
export class DirectoryUsers {
  private readonly client: Client<typeof FederatedUserService>;

  constructor(directory: Transport) {
    this.client = createClient(FederatedUserService, directory);
  }

  async upsert(realm: string, providerId: string, entries: MappedEntry[]): Promise<UpsertResult[]> {
    if (!entries.length) return [];
    return (await this.client.upsertFederatedUsers({ realm, providerId, entries })).results;
  }

  /** Every link of the provider, a page of `pageSize` at a time. */
  async links(realm: string, providerId: string, pageSize = 1000): Promise<LinkRef[]> {
    const out: LinkRef[] = [];
    for (let skip = 0; ; skip += pageSize) {
      const { links } = await this.client.listFederationLinks({ realm, providerId, skip, limit: pageSize });
      out.push(...links.map((l) => ({ userId: l.userId, externalId: l.externalId, missing: l.missing })));
      if (links.length < pageSize) return out;
    }
  }

  async release(realm: string, providerId: string, userIds: string[], unlink: boolean): Promise<number> {
    if (!userIds.length) return 0;
    return (await this.client.releaseFederatedUsers({ realm, providerId, userIds, unlink })).released;
  }

  async removeAll(realm: string, providerId: string): Promise<number> {
    return (await this.client.removeFederatedUsers({ realm, providerId })).removed;
  }
}

export { UpsertOutcome };
