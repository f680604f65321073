import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { UserService } from "../../../../gen/iam/directory/v1/user_pb.js";
import { IamError } from "../../../kit/src/errors.js";
import type { FederatedLinkRecord, LinkRepository } from "../store/link-repository.js";
import type { RealmLookup } from "./realm-ref.js";

/**
 * A user's federated identities in the Admin API (Keycloak's /users/:id/federated-identity). The
 * user is read from the directory first, so an unknown user is its user_not_found.
 */
export class LinkAdmin {
  private readonly users: Client<typeof UserService>;

  constructor(private readonly links: LinkRepository, private readonly realms: RealmLookup, directory: Transport) {
    this.users = createClient(UserService, directory);
  }

  async list(realmName: string, userId: string): Promise<FederatedLinkRecord[]> {
    const realm = await this.realms.get(realmName);
    await this.users.getUser({ realm: realm.name, userId });
    return this.links.listByUser(realm.id, userId);
  }

  async delete(realmName: string, userId: string, alias: string): Promise<void> {
    const realm = await this.realms.get(realmName);
    await this.users.getUser({ realm: realm.name, userId });
    const removed = await this.links.deleteOne(realm.id, userId, alias);
    if (!removed) throw IamError.notFound(`federated identity "${alias}" of the user`, "federated_identity_not_found");
  }
}
