import { IamError } from "../../../kit/src/errors.js";
import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/** A spent client assertion's jti, kept until the assertion expires. */
export interface SpentAssertionRecord extends Doc {
  /** The realm's name (what the token endpoint is addressed by). */
  realm: string;
  expiresAt: number;
}

/**
 * The jtis of client assertions already used (RFC 7523 section 3 item 7: the authorization server
 * may ensure a JWT is not replayed, by its jti; OIDC Core 1.0 section 9 asks it for JWT client
 * authentication). In the token service's store, not memory, so a replay sent to another replica
 * is refused too; each record lives until its assertion's `exp` (TTL collection), after which the
 * assertion is refused for its expiry anyway.
 */
export class ClientAssertionJtiRepository {
  private constructor(private readonly spent: Collection<SpentAssertionRecord>) {}

  static async open(store: Store): Promise<ClientAssertionJtiRepository> {
    return new ClientAssertionJtiRepository(await store.collection<SpentAssertionRecord>({
      name: "spent_client_assertions", ttl: true,
    }));
  }

  /** Spends the jti: true the first time, false when it was already spent (a replay). Atomic: an insert by key. */
  async spend(realm: string, clientId: string, jti: string, expiresAt: number): Promise<boolean> {
    try {
      await this.spent.insert({ _id: `${realm}\0${clientId}\0${jti}`, realm, expiresAt });
      return true;
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") return false;
      throw e;
    }
  }
}
