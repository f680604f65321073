import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { RealmService } from "../../../../gen/iam/directory/v1/realm_pb.js";
import { IamError } from "../../../kit/src/errors.js";

/** What the saml service needs to know of a realm. */
export interface RealmRef {
  id: string;
  name: string;
  adminEventsEnabled: boolean;
}

/**
 * Reads realms from the directory (their owner, DESIGN 3) through its generated client. An unknown
 * realm is the directory's NotFound (`realm_not_found`), which passes through to the caller.
 */
export class RealmLookup {
  private readonly client: Client<typeof RealmService>;

  constructor(directory: Transport) {
    this.client = createClient(RealmService, directory);
  }

  async get(name: string): Promise<RealmRef> {
    return (await this.read(name)).ref;
  }

  /**
   * A realm for the public endpoints (metadata): a disabled realm serves no protocol endpoint (as
   * Keycloak, and as OIDC discovery and JWKS), so it is the same `realm_not_found` as an unknown
   * one, with the directory's message, and cannot be told from it.
   */
  async published(name: string): Promise<RealmRef> {
    const { ref, enabled } = await this.read(name);
    if (!enabled) throw IamError.notFound(`realm "${name}"`, "realm_not_found");
    return ref;
  }

  private async read(name: string): Promise<{ ref: RealmRef; enabled: boolean }> {
    const { realm } = await this.client.getRealm({ name });
    if (!realm) throw new Error(`directory returned no realm for "${name}"`);
    return { ref: { id: realm.id, name: realm.name, adminEventsEnabled: realm.adminEventsEnabled }, enabled: realm.enabled };
  }
}
