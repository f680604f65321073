import { IamError } from "../../../kit/src/errors.js";
import type { Collection, Doc, Store } from "../../../kit/src/store/port.js";

/** A spent jti, kept until the JWT that carried it would be refused for its age anyway. */
export interface SpentJtiRecord extends Doc {
  /** The realm's name (what the endpoints are addressed by). */
  realm: string;
  expiresAt: number;
}

/**
 * The jtis of single-use JWTs already accepted, in the token service's store rather than memory,
 * so a replay sent to another replica is refused too; each record lives until `expiresAt` (TTL
 * collection). A jti is spent within a scope (a client, or a DPoP key's thumbprint), so one
 * party cannot spend another's. Two uses, each in its own collection:
 * - client assertions (RFC 7523 section 3 item 7; OIDC Core 1.0 section 9), scoped by client;
 * - DPoP proofs (RFC 9449 section 11.1), scoped by the proof key's thumbprint (section 4.3
 *   item 12).
 */
export class SpentJtiRepository {
  private constructor(private readonly spent: Collection<SpentJtiRecord>) {}

  static async forClientAssertions(store: Store): Promise<SpentJtiRepository> {
    return new SpentJtiRepository(await store.collection<SpentJtiRecord>({ name: "spent_client_assertions", ttl: true }));
  }

  static async forDpopProofs(store: Store): Promise<SpentJtiRepository> {
    return new SpentJtiRepository(await store.collection<SpentJtiRecord>({ name: "spent_dpop_proofs", ttl: true }));
  }

  /** Spends the jti: true the first time, false on a replay. Atomic: an insert by its unique key. */
  async spend(realm: string, scope: string, jti: string, expiresAt: number): Promise<boolean> {
    try {
      await this.spent.insert({ _id: `${realm}\0${scope}\0${jti}`, realm, expiresAt });
      return true;
    } catch (e) {
      if (e instanceof IamError && e.code === "alreadyExists") return false;
      throw e;
    }
  }
}
