import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/**
 * What dynamic registration keeps of a client besides the client itself (RFC 7591 section 2): the
 * metadata Tessera's clients have no field for, echoed back as registered, and the SHA-256 of the
 * current registration access token (RFC 7592 section 1.3). Keyed by the client record's id.
 */
export interface ClientRegistrationRecord extends Doc {
  realmId: string;
  clientId: string;
  tokenHash: string;
  /** Registered metadata kept as sent (contacts, logo_uri, scope, post_logout_redirect_uris, ...). */
  extra: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

export class ClientRegistrationRepository {
  private constructor(private readonly registrations: Collection<ClientRegistrationRecord>) {}

  static async open(store: Store): Promise<ClientRegistrationRepository> {
    return new ClientRegistrationRepository(await store.collection<ClientRegistrationRecord>({
      name: "client_registrations",
      indexes: [{ fields: ["tokenHash"], unique: true }, { fields: ["realmId"] }],
    }));
  }

  insert(record: ClientRegistrationRecord): Promise<void> {
    return this.registrations.insert(record);
  }

  findByTokenHash(tokenHash: string): Promise<ClientRegistrationRecord | null> {
    return this.registrations.findOne({ tokenHash });
  }

  /**
   * Replaces the extra metadata and rotates the token, only while `oldHash` is still current: of
   * two updates with the same token one wins, the other finds the token gone (RFC 7592 section 2.2).
   */
  async replace(id: string, oldHash: string, set: Pick<ClientRegistrationRecord, "tokenHash" | "extra" | "updatedAt">): Promise<boolean> {
    return (await this.registrations.update({ _id: id, tokenHash: oldHash }, { $set: set })) > 0;
  }

  delete(id: string): Promise<boolean> {
    return this.registrations.delete(id);
  }

  deleteRealm(realmId: string): Promise<number> {
    return this.registrations.deleteMany({ realmId });
  }
}
