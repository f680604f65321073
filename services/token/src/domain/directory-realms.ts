import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import type { RealmResolver, RealmScope } from "./realm-scope.js";

/** Resolves realms through the directory's generated client (DESIGN 3: the directory owns realms). */
export class DirectoryRealms implements RealmResolver {
  private readonly client: Client<typeof RealmService>;

  constructor(transport: Transport) {
    this.client = createClient(RealmService, transport);
  }

  async resolve(name: string): Promise<RealmScope | null> {
    try {
      const { realm } = await this.client.getRealm({ name });
      if (!realm) return null;
      return {
        id: realm.id,
        name: realm.name,
        enabled: realm.enabled,
        tokenLifespanSeconds: Math.max(realm.accessTokenLifespan, realm.refreshTokenLifespan),
      };
    } catch (e) {
      // A name the directory refuses (not a realm slug) is as unknown as a missing realm.
      if (e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.InvalidArgument)) return null;
      throw e;
    }
  }
}
